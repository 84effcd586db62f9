package io.agni.store.shard;

import io.agni.api.CapacityExceededException;
import io.agni.api.EvictionPolicy;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.Segment;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import io.agni.store.log.ChangeRecorder;
import io.agni.store.memory.OffHeapMemory;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.util.List;

/**
 * The data structure of one shard without its lock: the index table, the entry arena it points into and the counts
 * kept beside them. This class finds keys (also under an optimistic stamp), grows the table, removes entries and
 * walks the whole table (sweep, clear, integrity; the read-only walks for scan, random key and snapshots are
 * {@link TableWalks}); {@link ShardStorage} adds the writing of
 * entries, and {@link Shard} the lock and the operations (docs/architecture.md, "Operations").
 *
 * <h2>Concurrency</h2>
 * None of its own. {@link #lookup} is safe under an optimistic stamp: it bounds-checks every slot and header and
 * reports {@link #INCONSISTENT} instead of throwing. Every other method expects the caller to hold the owning
 * shard's write lock, or the read lock where its javadoc says so. The counters are plain fields that statistics
 * read racily.
 * <p>
 * {@link Shard} extends this class (through {@link ShardStorage} and {@link ShardReads}) rather than holding it in
 * a field, so that an optimistic read reaches the table and the arena from the shard itself, without one more
 * dependent load. It is public for the reason {@link ShardStorage} is: no bridge methods for its public ones.
 */
public abstract class ShardTable extends ShardCountersPadding
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
    final Evictor evictor;
    /**
     * Evicts for the sampled policies ({@link EvictionPolicy#sampled()}); {@link Evictor} hands those to it.
     */
    final SampledEviction sampled;
    /**
     * Brings the shard's memory down while the store holds more than a budget lowered at run time.
     */
    final BudgetShrink shrink;
    /**
     * The index, which every read loads first: in this class, after the padding, so that the counters writers store
     * to ({@link ShardCounters}) are not on its cache line.
     */
    IndexTable table;
    /**
     * What a write does when the budget refuses it; guarded by the write lock. A policy that evicts by recency keeps
     * read marks in the index ({@link IndexTable#marks}); the sampled ones do not ({@link #tracksReads}).
     */
    EvictionPolicy evictionPolicy = EvictionPolicy.NO_EVICTION;

    ShardTable(final OffHeapMemory memory, final EpochClock clock, final long seed)
    {
        this.memory = memory;
        this.clock = clock;
        this.seed = seed;
        this.arena = new Arena(memory);
        this.table = newTable(INITIAL_SLOTS);
        this.compactor = new Compactor(this, arena, seed);
        this.evictor = new Evictor(this, arena, compactor, seed);
        compactor.evictor = evictor;
        evictor.ghost.forget(table.ghost);
        this.sampled = new SampledEviction(this, arena, compactor, seed);
        this.shrink = new BudgetShrink(this, arena, compactor, evictor, memory);
        compactor.shrink = shrink;
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
    // Keys of multi-key writes: the caller holds the write lock of every shard involved.
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
        ensureRoomForNewKeys(newKeys, 0);
    }

    /**
     * {@link #ensureRoomLocked(int)} for a caller that still reads an entry of this shard (rename within a shard):
     * if making room evicts, that entry's segment is left alone.
     *
     * @param newKeys           keys to add.
     * @param excludedSegmentId the segment of the entry the caller reads, 0 for none.
     * @throws CapacityExceededException if the budget refuses; nothing visible changed.
     */
    public void ensureRoomLocked(final int newKeys, final int excludedSegmentId)
    {
        ensureRoomForNewKeys(newKeys, excludedSegmentId);
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
     * One SCAN step over this shard ({@link TableWalks#scan}). The caller holds the read or write lock.
     *
     * @param bucketCursor where to continue, 0 to start.
     * @param buckets      how many buckets to visit at most, at least 1.
     * @param liveKeys     after how many live keys to stop, at the end of a bucket; at least 1.
     * @param pattern      glob pattern or null.
     * @param keys         where found keys are added.
     * @param c            the caller's context; its {@code scannedBuckets} and {@code scannedKeys} are set.
     * @return the next bucket cursor, 0 when this shard is done.
     */
    long scanLocked(final long bucketCursor, final int buckets, final int liveKeys, final byte[] pattern,
        final List<byte[]> keys, final ThreadContext c)
    {
        return TableWalks.scan(
            table, arena.segments(), clock.time(), bucketCursor, buckets, liveKeys, pattern, keys, c);
    }

    /**
     * The key of the first live entry at or after slot {@code startSlot} ({@link TableWalks#liveKey}). The caller
     * holds the read or write lock.
     *
     * @param startSlot where to start; reduced to the table's size.
     * @param maxSlots  how many slots to look at, at most the whole table.
     * @return a copy of the key, or {@code null} if none was found.
     */
    byte[] liveKeyLocked(final int startSlot, final int maxSlots, final EntryCursor e)
    {
        return TableWalks.liveKey(table, arena.segments(), clock.time(), startSlot, maxSlots, e);
    }

    /**
     * Removes every entry and returns the memory; the next write starts small again. Cannot fail: the only
     * allocation, a fresh small table, comes first, and if the budget refuses it the current table is emptied in
     * place (optimistic readers racing that fail validation, since the caller holds the write lock).
     * The caller holds the write lock.
     */
    public void clearLocked()
    {
        final IndexTable fresh = allocateTable(INITIAL_SLOTS);
        final IndexTable old = table;
        if (fresh == null)
        {
            old.slots.setMemory(0, old.slots.capacity(), (byte)0);
            if (old.marks != null)
            {
                old.marks.setMemory(0, old.marks.capacity(), (byte)0);
                old.ghost.setMemory(0, old.ghost.capacity(), (byte)0);
            }
        }
        else
        {
            table = fresh;
            retireTable(old);
        }
        evictor.ghost.forget(table.ghost);
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
        evictor.ghost.attach(null);
        memory.free(table.slots);
        if (table.marks != null)
        {
            memory.free(table.marks);
            memory.free(table.ghost);
        }
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
     * Off-heap bytes this shard holds: table, segments and eviction's ghost (racy read).
     *
     * @return bytes.
     */
    public long heldBytes()
    {
        return arena.heldBytes() + tableBytes(table);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Internals, all under the write lock
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Finds a key under the write lock whether its entry has expired or not.
     *
     * @return the slot index with {@code e} describing the entry, or {@link #ABSENT}.
     * @throws IllegalStateException if an entry cannot be read: under the write lock that is corruption.
     */
    final int findAnyLocked(
        final int tag, final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor e)
    {
        final int i = lookup(table, arena.segments(), tag, key, keyOffset, keyLength, e);
        if (i == INCONSISTENT)
        {
            throw corrupt("entry unreadable under the write lock");
        }
        return i;
    }

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
     * Visits every entry not expired at {@code now} ({@link TableWalks#forEachLive}); the caller holds the read or
     * the write lock.
     *
     * @param now     the time entries are judged expired at.
     * @param e       a cursor to read entries with.
     * @param visitor receives the entries.
     * @throws IOException when the visitor fails.
     */
    public void forEachLiveLocked(final long now, final EntryCursor e, final EntryVisitor visitor) throws IOException
    {
        TableWalks.forEachLive(table, arena.segments(), now, e, visitor);
    }

    /**
     * Unlinks the entry at slot {@code i}, which {@code e} describes, counts its bytes dead, and logs the removal.
     */
    void removeAt(final int i, final EntryCursor e)
    {
        final ChangeRecorder log = changes;
        if (log != null)
        {
            // Deletes, expirations and (later) evictions alike: replay must not bring the entry back.
            log.delete(e.buffer, e.keyOffset, e.keyLength);
        }
        table.removeAt(i);
        removals++;
        count--;
        if (e.hasExpiry())
        {
            expiring--;
            arena.countVolatile(e.segmentId, -1);
        }
        arena.onDead(e.segmentId, e.offset, e.length);
    }

    /**
     * Doubles the table until {@code newKeys} more keys fit within its load factor of 3/4, if they do not yet.
     *
     * @throws CapacityExceededException if the budget refuses the larger table, or it would pass
     *                                   {@link IndexLayout#MAX_SLOTS}; nothing changed.
     */
    final void ensureRoomForNewKeys(final int newKeys)
    {
        ensureRoomForNewKeys(newKeys, 0);
    }

    private void ensureRoomForNewKeys(final int newKeys, final int excludedSegmentId)
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
        final IndexTable grown = allocateTable(capacity);
        if (grown == null)
        {
            if (evictor.makeRoomForKeys(newKeys, excludedSegmentId))
            {
                return;
            }
            rejected++;
            throw capacityExceeded(tableBytes(capacity, tracksReads(evictionPolicy)));
        }
        final IndexTable old = table;
        final boolean marks = old.marks != null && grown.marks != null;
        for (int j = 0; j <= old.mask; j++)
        {
            final long slot = old.get(j);
            if (slot != IndexLayout.EMPTY)
            {
                final int k = grown.insertNew(slot);
                if (marks)
                {
                    grown.frequency(k, old.frequency(j));
                }
            }
        }
        evictor.ghost.attach(grown.ghost);
        table = grown;
        retireTable(old);
    }

    /**
     * Sets what a write does when the budget refuses it, and adds or drops the index's read marks to match; the
     * caller holds the write lock. If the budget refuses the marks, eviction goes on without them (every entry
     * counts as not read) until the table next grows.
     *
     * @param policy the policy.
     */
    public void evictionPolicyLocked(final EvictionPolicy policy)
    {
        evictionPolicy = policy;
        final IndexTable t = table;
        if (tracksReads(policy) && t.marks == null)
        {
            final UnsafeBuffer marks = memory.allocate(t.capacity());
            final UnsafeBuffer ghost = marks == null ? null : memory.allocate(IndexTable.ghostBytes(t.capacity()));
            if (ghost != null)
            {
                table = new IndexTable(t.slots, t.capacity(), marks, ghost);
                evictor.ghost.forget(ghost);
            }
            else if (marks != null)
            {
                memory.free(marks);
            }
        }
        else if (!tracksReads(policy) && t.marks != null)
        {
            table = new IndexTable(t.slots, t.capacity());
            evictor.ghost.forget(null);
            memory.retire(t.marks);
            memory.retire(t.ghost);
        }
        if (!tracksReads(policy))
        {
            // only S3-FIFO keeps two queues
            arena.mergeQueues();
        }
    }

    /**
     * Whether {@code newKeys} more keys fit the table within its load factor of 3/4.
     *
     * @param newKeys keys to add.
     * @return {@code true} if no growth is needed.
     */
    final boolean keysFit(final int newKeys)
    {
        return ((long)count + newKeys) * 4 <= (long)table.capacity() * 3;
    }

    /**
     * Whether a write that needs room may evict; the caller holds the write lock.
     *
     * @return whether the policy evicts.
     */
    public boolean evictsLocked()
    {
        return evictionPolicy.evicts();
    }

    /**
     * Keeps eviction and compaction away from a segment whose entry the caller will use after it allocates (an
     * atomic batch's found keys); the caller holds the write lock and later calls {@link #unpinLocked}.
     *
     * @param segmentId the entry's segment.
     */
    public void pinLocked(final int segmentId)
    {
        arena.pin(segmentId);
    }

    /**
     * Undoes one {@link #pinLocked}.
     *
     * @param segmentId the segment.
     */
    public void unpinLocked(final int segmentId)
    {
        arena.unpin(segmentId);
    }

    /**
     * Entries this shard evicted.
     *
     * @return a count since the shard was made.
     */
    public long evictedCount()
    {
        return evicted;
    }

    private IndexTable newTable(final int slots)
    {
        final IndexTable t = allocateTable(slots);
        if (t == null)
        {
            throw capacityExceeded(tableBytes(slots, tracksReads(evictionPolicy)));
        }
        return t;
    }

    /**
     * Whether reads leave marks for eviction under a policy: only where the recency algorithm chooses
     * ({@link Evictor}); the sampled policies and {@code NO_EVICTION} need none.
     */
    static boolean tracksReads(final EvictionPolicy policy)
    {
        return policy.evicts() && !policy.sampled();
    }

    /**
     * An empty table of {@code capacity} slots, with marks if the policy tracks reads; {@code null} if the budget
     * refuses.
     */
    private IndexTable allocateTable(final int capacity)
    {
        final UnsafeBuffer slots = memory.allocate(capacity * IndexLayout.SLOT_BYTES);
        if (slots == null)
        {
            return null;
        }
        if (!tracksReads(evictionPolicy))
        {
            return new IndexTable(slots, capacity);
        }
        final UnsafeBuffer marks = memory.allocate(capacity);
        final UnsafeBuffer ghost = marks == null ? null : memory.allocate(IndexTable.ghostBytes(capacity));
        if (ghost == null)
        {
            // never published: no reader can hold them
            memory.free(slots);
            if (marks != null)
            {
                memory.free(marks);
            }
            return null;
        }
        return new IndexTable(slots, capacity, marks, ghost);
    }

    private void retireTable(final IndexTable t)
    {
        memory.retire(t.slots);
        if (t.marks != null)
        {
            memory.retire(t.marks);
            memory.retire(t.ghost);
        }
    }

    private static long tableBytes(final IndexTable t)
    {
        return t.slots.capacity() + (t.marks == null ? 0 : t.marks.capacity() + t.ghost.capacity());
    }

    private static long tableBytes(final int capacity, final boolean evicting)
    {
        return (long)capacity * IndexLayout.SLOT_BYTES + (evicting ? capacity + IndexTable.ghostBytes(capacity) : 0);
    }

    final CapacityExceededException capacityExceeded(final long requested)
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
