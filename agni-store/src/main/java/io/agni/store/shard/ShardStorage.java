package io.agni.store.shard;

import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.arena.Segment;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import io.agni.store.memory.OffHeapMemory;
import io.agni.store.scan.GlobMatcher;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * The data structure of one shard without its lock: the index table, the entry arena and the counts kept beside
 * them. {@link Shard} adds the lock and the operations (docs/architecture.md, "Operations"); this class holds what
 * an operation does once it holds the lock: find, write, replace and remove entries, walk the table, account.
 *
 * <h2>Concurrency</h2>
 * None of its own. {@link #lookup} is safe under an optimistic stamp: it bounds-checks every slot and header and
 * reports {@link #INCONSISTENT} instead of throwing. Every other method expects the caller to hold the owning
 * shard's write lock, or the read lock where its javadoc says so. The counters are plain fields that statistics
 * read racily.
 * <p>
 * {@link Shard} extends this class rather than holding it in a field, so that an optimistic read reaches the table
 * and the arena from the shard itself, without one more dependent load.
 */
abstract class ShardStorage
{
    /**
     * Lookup result: the key is not in the table.
     */
    public static final int ABSENT = -1;
    /**
     * Lookup result: an optimistic read saw memory mid-change.
     */
    public static final int INCONSISTENT = -2;

    private static final int INITIAL_SLOTS = 16;

    final OffHeapMemory memory;
    final EpochClock clock;
    final long seed;
    final Arena arena;
    final Compactor compactor;
    IndexTable table;
    int count;
    int expiring;
    long expired;
    long rejected;
    int sweepCursor;

    ShardStorage(final OffHeapMemory memory, final EpochClock clock, final long seed)
    {
        this.memory = memory;
        this.clock = clock;
        this.seed = seed;
        this.arena = new Arena(memory);
        this.table = newTable(INITIAL_SLOTS);
        this.compactor = new Compactor(this, arena, seed);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Lookup, also under an optimistic stamp
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Probes for a key. Safe on memory that is changing: every slot and header is bounds-checked.
     *
     * @return the slot index with {@code e} describing the entry, {@link #ABSENT} or {@link #INCONSISTENT}.
     */
    static int lookup(
        final IndexTable t, final Segment[] segments, final int tag,
        final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor e)
    {
        final int mask = t.mask;
        int i = tag & mask;
        for (int probes = 0; probes <= mask; probes++)
        {
            final long slot = t.get(i);
            if (slot == IndexLayout.EMPTY)
            {
                return ABSENT;
            }
            if (IndexLayout.tagOf(slot) == tag)
            {
                final int segmentId = IndexLayout.segmentOf(slot);
                if (segmentId >= segments.length)
                {
                    return INCONSISTENT;
                }
                final Segment s = segments[segmentId];
                if (s == null || !e.wrap(s.buffer, segmentId, IndexLayout.offsetOf(slot)))
                {
                    return INCONSISTENT;
                }
                if (e.keyEquals(key, keyOffset, keyLength))
                {
                    e.slotIndex = i;
                    e.slot = slot;
                    return i;
                }
            }
            i = (i + 1) & mask;
        }
        return INCONSISTENT;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Multi-key writes: the caller holds the write lock of every shard involved.
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Finds a live key, removing it if it has expired; the caller holds the write lock.
     *
     * @return the slot index with {@code e} describing the entry, or {@link #ABSENT}.
     */
    public int findLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor e)
    {
        return findForWrite(IndexLayout.tag(hash), key, keyOffset, keyLength, e);
    }

    /**
     * Writes a copy of another entry's value and expiry time under a new key into fresh arena space, without linking
     * it into the index (rename); the caller holds the write lock of this shard and of the source's shard, and later
     * calls {@link #linkLocked}. When the budget refuses a segment, compacts in place, skipping
     * {@code sourceSegmentId} (the source's segment when it is in this shard, which is still to be read). Until it
     * is linked, the copy pins its segment against compaction.
     *
     * @param maxValueLength the store's value limit, for {@link Limits#checkEntry}: the new key may be longer.
     * @return the location ({@code segmentId << 32 | offset}) or {@link Arena#NO_SPACE}.
     */
    public long copyInLocked(
        final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor source,
        final int sourceSegmentId, final int maxValueLength)
    {
        Limits.checkEntry(keyLength, source.valueLength, maxValueLength);
        final boolean hasExpiry = source.hasExpiry();
        final long entryLength = EntryLayout.length(keyLength, source.valueLength, hasExpiry);
        final long location = compactor.allocate(entryLength, sourceSegmentId);
        if (location == Arena.NO_SPACE)
        {
            return Arena.NO_SPACE;
        }
        final int length = (int)entryLength;
        final int segmentId = Arena.segmentIdOf(location);
        writeEntry(arena.segments()[segmentId].buffer, Arena.offsetOf(location), key, keyOffset, keyLength,
            source.buffer, source.valueOffset, source.valueLength, 0, source.buffer, 0, 0,
            hasExpiry, source.expireAt);
        arena.onWritten(segmentId, length);
        arena.pin(segmentId);
        return location;
    }

    /**
     * Removes a live key; the caller holds the write lock.
     *
     * @return whether it was present.
     */
    public boolean removeLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor e)
    {
        final int i = findForWrite(IndexLayout.tag(hash), key, keyOffset, keyLength, e);
        if (i < 0)
        {
            return false;
        }
        removeAt(i, e);
        return true;
    }

    /**
     * Whether a key is present and live; the caller holds the write lock.
     *
     * @return {@code true} if present.
     */
    public boolean containsLocked(final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final EntryCursor e)
    {
        return findForWrite(IndexLayout.tag(hash), key, keyOffset, keyLength, e) >= 0;
    }

    /**
     * Grows the table so that {@code newKeys} more keys fit; the caller holds the write lock.
     *
     * @throws CapacityExceededException if the budget refuses; nothing visible changed.
     */
    public void ensureRoomLocked(final int newKeys)
    {
        ensureRoomForNewKeys(newKeys);
    }

    /**
     * Writes an entry with no expiry into fresh arena space without linking it into the index; the caller holds
     * the write lock and later calls {@link #linkLocked} or {@link #abandonLocked}. When the budget refuses a
     * segment, compacts in place as a single write does; the entries prepared before pin their segments, so they
     * stay where they are.
     *
     * @return the location ({@code segmentId << 32 | offset}) or {@link Arena#NO_SPACE}.
     */
    public long prepareLocked(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        final long entryLength = EntryLayout.length(keyLength, valueLength, false);
        final long location = compactor.allocate(entryLength, 0);
        if (location == Arena.NO_SPACE)
        {
            return Arena.NO_SPACE;
        }
        final int length = (int)entryLength;
        final int segmentId = Arena.segmentIdOf(location);
        final int offset = Arena.offsetOf(location);
        final UnsafeBuffer buffer = arena.segments()[segmentId].buffer;
        int p = EntryLayout.writeHeader(buffer, offset, false, 0, keyLength, valueLength);
        buffer.putBytes(p, key, keyOffset, keyLength);
        p += keyLength;
        buffer.putBytes(p, value, valueOffset, valueLength);
        arena.onWritten(segmentId, length);
        arena.pin(segmentId);
        return location;
    }

    /**
     * Drops an entry written by {@link #prepareLocked} that will not be linked.
     */
    public void abandonLocked(final long location, final int keyLength, final int valueLength)
    {
        abandonLocked(location, keyLength, valueLength, false);
    }

    /**
     * Drops an entry written by {@link #prepareLocked} or {@link #copyInLocked} that will not be linked, and unpins
     * its segment. Entries dropped in the reverse of the order they were written give the head's space back.
     *
     * @param hasExpiry whether the entry was written with an expiry time.
     */
    public void abandonLocked(final long location, final int keyLength, final int valueLength,
        final boolean hasExpiry)
    {
        final int length = (int)EntryLayout.length(keyLength, valueLength, hasExpiry);
        arena.unpin(Arena.segmentIdOf(location));
        arena.onAbandoned(Arena.segmentIdOf(location), Arena.offsetOf(location), length);
    }

    /**
     * Before a multi-key write that the budget refused is tried again, with every entry it wrote abandoned: compacts
     * in place, the segments with the most garbage first, until the head's free tail and the garbage reclaimed could
     * hold {@code bytes}. The caller holds the write lock.
     *
     * @param bytes the bytes of the batch's regular entries (at most {@link Arena#LARGE_ENTRY_BYTES} each) in this
     *              shard.
     */
    public void reclaimForBatchLocked(final long bytes)
    {
        compactor.reclaimForBatch(bytes);
    }

    /**
     * Links an entry written by {@link #prepareLocked} or {@link #copyInLocked} into the index, replacing the key's
     * current entry, and unpins its segment.
     *
     * @param hasExpiry whether the new entry carries an expiry time.
     */
    public void linkLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final long location,
        final boolean hasExpiry, final EntryCursor e)
    {
        final int tag = IndexLayout.tag(hash);
        final int i = findForWrite(tag, key, keyOffset, keyLength, e);
        link(i, IndexLayout.slot(tag, Arena.segmentIdOf(location), Arena.offsetOf(location)), e, hasExpiry);
        arena.unpin(Arena.segmentIdOf(location));
    }

    /**
     * Runs a step of compaction if one is under way or garbage is high; the caller holds the write lock.
     *
     * @param writtenBytes the bytes the write put into this shard's arena, which pace the step.
     */
    public void maybeCompactLocked(final long writtenBytes)
    {
        compactor.afterWrite(writtenBytes);
    }

    /**
     * Counts a write refused by the budget.
     */
    public void countRejectedLocked()
    {
        rejected++;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Whole table
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Removes up to {@code maxSlots} slots' worth of expired entries, continuing where the last sweep stopped, then
     * takes a step of compaction if one is under way or garbage is high. The caller holds the write lock.
     *
     * @return entries removed.
     */
    int sweepLocked(final int maxSlots, final EntryCursor e)
    {
        final int removed = expiring == 0 ? 0 : removeExpired(maxSlots, e);
        compactor.afterWrite(0);
        return removed;
    }

    private int removeExpired(final int maxSlots, final EntryCursor e)
    {
        final long now = clock.time();
        final IndexTable t = table;
        final Segment[] segments = arena.segments();
        int i = sweepCursor & t.mask;
        int removed = 0;
        int examined = 0;
        final int limit = Math.min(maxSlots, t.capacity());
        while (examined < limit && expiring > 0)
        {
            final long slot = t.get(i);
            if (slot != IndexLayout.EMPTY)
            {
                final Segment s = segments[IndexLayout.segmentOf(slot)];
                if (!e.wrap(s.buffer, s.id, IndexLayout.offsetOf(slot)))
                {
                    // Step past it, so that the next tick sweeps the rest of the shard rather than failing here.
                    sweepCursor = (i + 1) & t.mask;
                    throw corrupt("entry unreadable in sweep");
                }
                if (e.isExpired(now))
                {
                    removeAt(i, e);
                    expired++;
                    removed++;
                    continue;
                }
            }
            i = (i + 1) & t.mask;
            examined++;
        }
        sweepCursor = i;
        return removed;
    }

    /**
     * One scan step over home buckets in reverse-binary order (as Redis's {@code dictScan}), which returns every key
     * present for the whole scan at least once even if the table doubles between steps.
     * The caller holds the read or write lock.
     *
     * @param bucketCursor where to continue, 0 to start.
     * @param buckets      how many buckets to visit at most, at least 1.
     * @param pattern      glob pattern or null.
     * @param keys         where found keys are added.
     * @param c            the caller's context; its {@code scannedBuckets} is set to the buckets visited.
     * @return the next bucket cursor, 0 when this shard is done.
     */
    long scanLocked(final long bucketCursor, final int buckets, final byte[] pattern, final List<byte[]> keys,
        final ThreadContext c)
    {
        final EntryCursor e = c.entry;
        final IndexTable t = table;
        final Segment[] segments = arena.segments();
        final long mask = t.mask;
        final long now = clock.time();
        long v = bucketCursor;
        int visited = 0;
        do
        {
            final int bucket = (int)(v & mask);
            int i = bucket;
            long slot;
            while ((slot = t.get(i)) != IndexLayout.EMPTY)
            {
                if (t.home(IndexLayout.tagOf(slot)) == bucket)
                {
                    final Segment s = segments[IndexLayout.segmentOf(slot)];
                    if (!e.wrap(s.buffer, s.id, IndexLayout.offsetOf(slot)))
                    {
                        throw corrupt("entry unreadable in scan");
                    }
                    if (!e.isExpired(now) &&
                        (pattern == null || GlobMatcher.matches(pattern, e.buffer, e.keyOffset, e.keyLength)))
                    {
                        final byte[] k = new byte[e.keyLength];
                        e.buffer.getBytes(e.keyOffset, k);
                        keys.add(k);
                    }
                }
                i = (i + 1) & t.mask;
            }
            v |= ~mask;
            v = Long.reverse(v);
            v++;
            v = Long.reverse(v);
            visited++;
        }
        while (v != 0 && visited < buckets);
        c.scannedBuckets = visited;
        return v;
    }

    /**
     * The key of the first live entry at or after slot {@code startSlot}, probing at most {@code maxSlots} slots
     * under the read lock (randomKey). Expired entries are skipped, not removed.
     * The caller holds the read or write lock.
     *
     * @param startSlot where to start; reduced to the table's size.
     * @param maxSlots  how many slots to look at, at most the whole table.
     * @return a copy of the key, or {@code null} if none was found.
     */
    byte[] liveKeyLocked(final int startSlot, final int maxSlots, final EntryCursor e)
    {
        final IndexTable t = table;
        final Segment[] segments = arena.segments();
        final long now = clock.time();
        final int limit = Math.min(maxSlots, t.capacity());
        int i = startSlot & t.mask;
        for (int examined = 0; examined < limit; examined++)
        {
            final long slot = t.get(i);
            if (slot != IndexLayout.EMPTY)
            {
                final Segment s = segments[IndexLayout.segmentOf(slot)];
                if (!e.wrap(s.buffer, s.id, IndexLayout.offsetOf(slot)))
                {
                    throw corrupt("entry unreadable in randomKey");
                }
                if (!e.isExpired(now))
                {
                    final byte[] key = new byte[e.keyLength];
                    e.buffer.getBytes(e.keyOffset, key);
                    return key;
                }
            }
            i = (i + 1) & t.mask;
        }
        return null;
    }

    /**
     * Removes every entry and returns the memory; the next write starts small again. Cannot fail: the only
     * allocation, a fresh small table, comes first, and if the budget refuses it the current table is emptied in
     * place (optimistic readers racing that fail validation, since the caller holds the write lock).
     * The caller holds the write lock.
     */
    void clearLocked()
    {
        final UnsafeBuffer fresh = memory.allocate(INITIAL_SLOTS * IndexLayout.SLOT_BYTES);
        final IndexTable old = table;
        if (fresh == null)
        {
            old.slots.setMemory(0, old.slots.capacity(), (byte)0);
        }
        else
        {
            table = new IndexTable(fresh, INITIAL_SLOTS);
            memory.retire(old.slots);
        }
        arena.releaseAll(false);
        count = 0;
        expiring = 0;
        sweepCursor = 0;
    }

    /**
     * Frees all memory at close; no operation may be in flight.
     * The caller holds the write lock.
     */
    void freeLocked()
    {
        arena.releaseAll(true);
        memory.free(table.slots);
        count = 0;
        expiring = 0;
    }

    /**
     * Checks the shard's structural invariants under the write lock.
     * The caller holds the write lock.
     *
     * @throws IllegalStateException naming the first broken invariant.
     */
    void verifyLocked(final EntryCursor e, final ThreadContext scratch)
    {
        ShardIntegrity.verify(table, arena, count, expiring, seed, compactor.resumeOffset(), e, scratch);
    }

    /**
     * Entries in the table (racy read).
     *
     * @return the count.
     */
    public int count()
    {
        return count;
    }

    /**
     * Entries with an expiry time (racy read).
     *
     * @return the count.
     */
    public int expiringCount()
    {
        return expiring;
    }

    /**
     * Entries removed on expiry (racy read).
     *
     * @return the count.
     */
    public long expiredCount()
    {
        return expired;
    }

    /**
     * Writes refused by the budget (racy read).
     *
     * @return the count.
     */
    public long rejectedCount()
    {
        return rejected;
    }

    /**
     * Live entry bytes (racy read).
     *
     * @return bytes.
     */
    public long liveBytes()
    {
        return arena.liveBytes();
    }

    /**
     * Off-heap bytes this shard holds: table plus segments (racy read).
     *
     * @return bytes.
     */
    public long heldBytes()
    {
        return arena.heldBytes() + table.slots.capacity();
    }


    // ------------------------------------------------------------------------------------------------------------
    // Internals, all under the write lock
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Finds a live key for a write, removing it (and counting it expired) if its time has passed.
     *
     * @return the slot index with {@code e} describing the entry, or {@link #ABSENT}.
     * @throws IllegalStateException if an entry cannot be read: under the write lock that is corruption.
     */
    int findForWrite(
        final int tag, final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor e)
    {
        final int i = lookup(table, arena.segments(), tag, key, keyOffset, keyLength, e);
        if (i == INCONSISTENT)
        {
            throw corrupt("entry unreadable under the write lock");
        }
        if (i >= 0 && e.hasExpiry() && e.expireAt <= clock.time())
        {
            removeAt(i, e);
            expired++;
            return ABSENT;
        }
        return i;
    }

    /**
     * Copies the value of the entry {@code c.entry} describes (found at slot {@code i}) into {@code previous}, or
     * into a new array left in {@code c} when it is null.
     *
     * @return the value's length, or {@link AgniStore#NOT_FOUND} when {@code i} is negative.
     * @throws IndexOutOfBoundsException if {@code previous} cannot hold the value.
     */
    int copyPrevious(final int i, final MutableDirectBuffer previous, final int previousOffset,
        final ThreadContext c)
    {
        if (i < 0)
        {
            return AgniStore.NOT_FOUND;
        }
        final EntryCursor e = c.entry;
        if (previous == null)
        {
            final byte[] copy = new byte[e.valueLength];
            e.buffer.getBytes(e.valueOffset, copy);
            c.array = copy;
        }
        else
        {
            if (!previous.isExpandable() && (long)previousOffset + e.valueLength > previous.capacity())
            {
                throw new IndexOutOfBoundsException("destination too small: value length=" + e.valueLength +
                    ", capacity=" + previous.capacity());
            }
            previous.putBytes(previousOffset, e.buffer, e.valueOffset, e.valueLength);
        }
        return e.valueLength;
    }

    /**
     * Unlinks the entry at slot {@code i}, which {@code e} describes, and counts its bytes dead.
     */
    void removeAt(final int i, final EntryCursor e)
    {
        table.removeAt(i);
        count--;
        if (e.hasExpiry())
        {
            expiring--;
        }
        arena.onDead(e.segmentId, e.offset, e.length);
    }

    /**
     * Writes the entry {@code e} describes again with a new expiry flag and time.
     */
    void rewrite(final int tag, final int i, final EntryCursor e, final boolean hasExpiry, final long expireAt)
    {
        put(tag, i, e, e.buffer, e.keyOffset, e.keyLength, e.buffer, e.valueOffset, e.valueLength, null, 0, 0,
            hasExpiry, expireAt);
    }

    /**
     * {@link #put(int, int, EntryCursor, DirectBuffer, int, int, DirectBuffer, int, int, int, DirectBuffer, int,
     * int, boolean, long)} with no zero gap.
     */
    void put(
        final int tag, final int i, final EntryCursor old,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value1, final int offset1, final int length1,
        final DirectBuffer value2, final int offset2, final int length2,
        final boolean hasExpiry, final long expireAt)
    {
        put(tag, i, old, key, keyOffset, keyLength, value1, offset1, length1, 0, value2, offset2, length2,
            hasExpiry, expireAt);
    }

    /**
     * Writes a new version of an entry (key, then value part 1, {@code gap} zero bytes and value part 2) and points
     * the index at it: in place when the length is unchanged, else in fresh arena space. Any capacity failure
     * happens before anything visible changes.
     */
    void put(
        final int tag, final int i, final EntryCursor old,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value1, final int offset1, final int length1, final int gap,
        final DirectBuffer value2, final int offset2, final int length2,
        final boolean hasExpiry, final long expireAt)
    {
        final int valueLength = length1 + gap + length2;
        final long entryLength = EntryLayout.length(keyLength, valueLength, hasExpiry);
        if (i >= 0 && old.valueLength == valueLength && old.hasExpiry() == hasExpiry)
        {
            // Same key, same expiry flag and same value length, hence the same header: only the value (and the
            // expiry time) change, so the header and key bytes stay as they are. (The same padded length alone
            // would not do: values of 100 and 101 bytes pad to the same entry length.)
            if (hasExpiry)
            {
                EntryLayout.putExpireAt(old.buffer, old.offset, expireAt);
            }
            copyValue(old.buffer, old.valueOffset, value1, offset1, length1, gap, value2, offset2, length2);
            return;
        }
        if (i >= 0 && old.length == entryLength &&
            old.keyOffset - old.offset == EntryLayout.headerLength(keyLength, valueLength, hasExpiry) &&
            (old.buffer != key || old.keyOffset == keyOffset))
        {
            // Same padded length and the same header length, so the key and value start where they did: a value
            // read from this entry (APPEND, SETRANGE) is copied onto itself, never shifted over its own bytes.
            writeEntry(old.buffer, old.offset, key, keyOffset, keyLength,
                value1, offset1, length1, gap, value2, offset2, length2, hasExpiry, expireAt);
            if (old.hasExpiry() != hasExpiry)
            {
                expiring += hasExpiry ? 1 : -1;
            }
            return;
        }
        if (i < 0)
        {
            ensureRoomForNewKeys(1);
        }
        final long location = compactor.allocate(entryLength, i >= 0 ? old.segmentId : 0);
        if (location == Arena.NO_SPACE)
        {
            rejected++;
            throw capacityExceeded(entryLength);
        }
        final int length = (int)entryLength;
        final int segmentId = Arena.segmentIdOf(location);
        final int offset = Arena.offsetOf(location);
        writeEntry(arena.segments()[segmentId].buffer, offset, key, keyOffset, keyLength,
            value1, offset1, length1, gap, value2, offset2, length2, hasExpiry, expireAt);
        arena.onWritten(segmentId, length);
        link(i, IndexLayout.slot(tag, segmentId, offset), old, hasExpiry);
        compactor.afterWrite(length);
    }

    /**
     * Points slot {@code i} at a newly written entry in place of the one {@code old} describes, counting the old
     * entry's bytes dead, or, when {@code i} is negative, inserts the slot for a new key.
     */
    private void link(final int i, final long slot, final EntryCursor old, final boolean hasExpiry)
    {
        if (i >= 0)
        {
            table.put(i, slot);
            if (old.hasExpiry())
            {
                expiring--;
            }
            arena.onDead(old.segmentId, old.offset, old.length);
        }
        else
        {
            table.insertNew(slot);
            count++;
        }
        if (hasExpiry)
        {
            expiring++;
        }
    }

    private static void copyValue(
        final UnsafeBuffer buffer, final int at,
        final DirectBuffer value1, final int offset1, final int length1, final int gap,
        final DirectBuffer value2, final int offset2, final int length2)
    {
        if (buffer != value1 || at != offset1)
        {
            buffer.putBytes(at, value1, offset1, length1);
        }
        if (gap > 0)
        {
            buffer.setMemory(at + length1, gap, (byte)0);
        }
        if (length2 > 0)
        {
            buffer.putBytes(at + length1 + gap, value2, offset2, length2);
        }
    }

    private static void writeEntry(
        final UnsafeBuffer buffer, final int offset,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value1, final int offset1, final int length1, final int gap,
        final DirectBuffer value2, final int offset2, final int length2,
        final boolean hasExpiry, final long expireAt)
    {
        int p = EntryLayout.writeHeader(buffer, offset, hasExpiry, expireAt, keyLength, length1 + gap + length2);
        if (buffer != key || p != keyOffset)
        {
            buffer.putBytes(p, key, keyOffset, keyLength);
        }
        p += keyLength;
        if (buffer != value1 || p != offset1)
        {
            buffer.putBytes(p, value1, offset1, length1);
        }
        p += length1;
        if (gap > 0)
        {
            buffer.setMemory(p, gap, (byte)0);
            p += gap;
        }
        if (length2 > 0)
        {
            buffer.putBytes(p, value2, offset2, length2);
        }
    }

    private void ensureRoomForNewKeys(final int newKeys)
    {
        final long needed = (long)count + newKeys;
        int capacity = table.capacity();
        if (needed * 4 <= (long)capacity * 3)
        {
            return;
        }
        while (needed * 4 > (long)capacity * 3)
        {
            capacity <<= 1;
            if (capacity > IndexLayout.MAX_SLOTS || capacity <= 0)
            {
                rejected++;
                throw new CapacityExceededException("shard index full: entries=" + count +
                    ", max slots per shard=" + IndexLayout.MAX_SLOTS + "; use more shards");
            }
        }
        final UnsafeBuffer buffer = memory.allocate(capacity * IndexLayout.SLOT_BYTES);
        if (buffer == null)
        {
            rejected++;
            throw capacityExceeded((long)capacity * IndexLayout.SLOT_BYTES);
        }
        final IndexTable grown = new IndexTable(buffer, capacity);
        final IndexTable old = table;
        for (int j = 0; j <= old.mask; j++)
        {
            final long slot = old.get(j);
            if (slot != IndexLayout.EMPTY)
            {
                grown.insertNew(slot);
            }
        }
        table = grown;
        memory.retire(old.slots);
    }

    private IndexTable newTable(final int slots)
    {
        final UnsafeBuffer buffer = memory.allocate(slots * IndexLayout.SLOT_BYTES);
        if (buffer == null)
        {
            throw capacityExceeded((long)slots * IndexLayout.SLOT_BYTES);
        }
        return new IndexTable(buffer, slots);
    }

    private CapacityExceededException capacityExceeded(final long requested)
    {
        return new CapacityExceededException("memory budget exceeded: requested=" + requested + ", held=" +
            memory.budget().reserved() + ", budget=" + memory.budget().limit());
    }

    /**
     * The current index table; the caller holds the write lock (for {@link Compactor}).
     *
     * @return the table.
     */
    IndexTable table()
    {
        return table;
    }

    static IllegalStateException corrupt(final String what)
    {
        return new IllegalStateException("agni shard corrupt: " + what);
    }
}
