package io.agni.store.shard;

import io.agni.api.AgniStore;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.index.IndexLayout;
import io.agni.store.log.ChangeRecorder;
import io.agni.store.log.LogLayout;
import io.agni.store.memory.OffHeapMemory;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writing the entries of one shard: a new version of an entry in place or in fresh arena space, linked into the
 * index in place of the old one ({@link #put}); and, for multi-key writes, entries written unlinked, then linked or
 * abandoned. {@link ShardTable} below finds, removes and walks; {@link ShardReads} and {@link Shard} above add the
 * lock and the operations (docs/architecture.md, "Operations", "Multi-key set", "Rename").
 *
 * <h2>Concurrency</h2>
 * None of its own: every method expects the caller to hold the owning shard's write lock. An entry written but not
 * yet linked pins its segment, so that compaction leaves it where it is, until it is linked or abandoned.
 *
 * <h2>Why public</h2>
 * Its package is not exported, and only {@link Shard} extends it. Were it package-private, javac would add to
 * {@link ShardReads} a bridge method for each of its public methods, which the multi-key writes of
 * {@code io.agni.store} call through {@link Shard}: each bridge is one more method the JIT compiles on its own, with
 * all it inlines (in a cold fill of 200,000 keys in batches, the two bridges of {@link #prepareLocked} alone took
 * the C2 compiler 186 ms).
 */
public abstract class ShardStorage extends ShardTable
{

    ShardStorage(final OffHeapMemory memory, final EpochClock clock, final long seed)
    {
        super(memory, clock, seed);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Entries of multi-key writes: the caller holds the write lock of every shard involved.
    // ------------------------------------------------------------------------------------------------------------

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
        return copyInLocked(key, keyOffset, keyLength, source, source.hasExpiry(), source.expireAt, sourceSegmentId,
            maxValueLength);
    }

    /**
     * {@link #copyInLocked(DirectBuffer, int, int, EntryCursor, int, int)} with an expiry of the caller's choice (a
     * batch that gives a key's value an expiry field or drops it).
     *
     * @param hasExpiry whether the copy carries an expiry time.
     * @param expireAt  the expiry time when it does.
     * @return the location ({@code segmentId << 32 | offset}) or {@link Arena#NO_SPACE}.
     */
    public long copyInLocked(
        final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor source,
        final boolean hasExpiry, final long expireAt, final int sourceSegmentId, final int maxValueLength)
    {
        Limits.checkEntry(keyLength, source.valueLength, maxValueLength);
        final long entryLength = EntryLayout.length(keyLength, source.valueLength, hasExpiry);
        // an entry copied within the shard stays in its source's queue (docs/eviction.md)
        final long location = compactor.allocate(entryLength, sourceSegmentId,
            sourceSegmentId != 0 && arena.segments()[sourceSegmentId].inMain());
        if (location == Arena.NO_SPACE)
        {
            return Arena.NO_SPACE;
        }
        final int length = (int)entryLength;
        final int segmentId = Arena.segmentIdOf(location);
        writeEntry(arena.segments()[segmentId].buffer, Arena.offsetOf(location), key, keyOffset, keyLength,
            source.buffer, source.valueOffset, source.valueLength, 0, source.buffer, 0, 0,
            hasExpiry, expireAt);
        arena.onWritten(segmentId, length);
        countVolatile(segmentId, hasExpiry, 1);
        arena.pin(segmentId);
        return location;
    }

    /**
     * Writes an entry with no expiry into fresh arena space without linking it into the index; the caller holds
     * the write lock and later calls {@link #linkLocked} or {@link #abandonLocked}. When the budget refuses a
     * segment, compacts in place as a single write does; the entries prepared before pin their segments, so they
     * stay where they are, and their garbage with them: a batch refused part-way abandons its entries and calls
     * {@link #reclaimForBatchLocked} before it tries once more.
     *
     * @return the location ({@code segmentId << 32 | offset}) or {@link Arena#NO_SPACE}.
     */
    public long prepareLocked(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return prepareLocked(key, keyOffset, keyLength, value, valueOffset, valueLength, false, 0);
    }

    /**
     * {@link #prepareLocked(DirectBuffer, int, int, DirectBuffer, int, int)} for an entry that may have an expiry
     * time.
     *
     * @param hasExpiry whether the entry carries an expiry time.
     * @param expireAt  the expiry time when it does.
     * @return the location ({@code segmentId << 32 | offset}) or {@link Arena#NO_SPACE}.
     */
    public long prepareLocked(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final boolean hasExpiry, final long expireAt)
    {
        final long entryLength = EntryLayout.length(keyLength, valueLength, hasExpiry);
        final long location = compactor.allocate(entryLength, 0);
        if (location == Arena.NO_SPACE)
        {
            return Arena.NO_SPACE;
        }
        final int length = (int)entryLength;
        final int segmentId = Arena.segmentIdOf(location);
        final int offset = Arena.offsetOf(location);
        final UnsafeBuffer buffer = arena.segments()[segmentId].buffer;
        int p = EntryLayout.writeHeader(buffer, offset, hasExpiry, expireAt, keyLength, valueLength);
        buffer.putBytes(p, key, keyOffset, keyLength);
        p += keyLength;
        buffer.putBytes(p, value, valueOffset, valueLength);
        arena.onWritten(segmentId, length);
        countVolatile(segmentId, hasExpiry, 1);
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
        countVolatile(Arena.segmentIdOf(location), hasExpiry, -1);
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
     * Links an entry written by {@link #prepareLocked} for a key the caller found absent ({@link #containsLocked})
     * under the write lock it has held since, without looking the key up again, and unpins its segment. Nothing in
     * between may have added the key: the keys of a batch are distinct, and making room, compacting and evicting
     * only move or remove entries.
     *
     * @param hasExpiry whether the new entry carries an expiry time.
     */
    public void linkNewLocked(final long hash, final long location, final boolean hasExpiry)
    {
        final int segmentId = Arena.segmentIdOf(location);
        link(ABSENT, IndexLayout.slot(IndexLayout.tag(hash), segmentId, Arena.offsetOf(location)), null, hasExpiry);
        arena.unpin(segmentId);
    }

    // ------------------------------------------------------------------------------------------------------------
    // The net effects of an atomic batch, once every entry it needed is prepared: nothing here is refused. The batch
    // judged each key's expiry at its own instant, so these find a key's entry whether or not it has expired since,
    // and each logs the key's state afterwards as a whole value or a delete, which replays the same whatever the
    // clock says at recovery.
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Links an entry written by {@link #prepareLocked} in place of the key's entry (or as a new key), unpins its
     * segment, and logs the key's new value.
     *
     * @param location  where the prepared entry is.
     * @param hasExpiry whether it carries an expiry time.
     */
    public void replaceLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final long location,
        final boolean hasExpiry, final EntryCursor e)
    {
        final int tag = IndexLayout.tag(hash);
        final int i = findAny(tag, key, keyOffset, keyLength, e);
        final int segmentId = Arena.segmentIdOf(location);
        link(i, IndexLayout.slot(tag, segmentId, Arena.offsetOf(location)), e, hasExpiry);
        arena.unpin(segmentId);
        if (changes != null)
        {
            if (!e.wrap(arena.segments()[segmentId].buffer, segmentId, Arena.offsetOf(location)))
            {
                throw corrupt("batch entry unreadable under the write lock");
            }
            logWhole(e);
        }
    }

    /**
     * Records the value of an entry written by {@link #prepareLocked}, before {@link #replaceLocked} links it: a batch
     * appends its record before it changes any key, so that a record the log refuses changes nothing.
     *
     * @param location where the prepared entry is.
     */
    public void recordPreparedLocked(final long location, final EntryCursor e)
    {
        final int segmentId = Arena.segmentIdOf(location);
        if (!e.wrap(arena.segments()[segmentId].buffer, segmentId, Arena.offsetOf(location)))
        {
            throw corrupt("batch entry unreadable under the write lock");
        }
        logWhole(e);
    }

    /**
     * Records a key's current value with a new expiry, before {@link #overwriteLocked} changes only its expiry.
     *
     * @param expireAt its new expiry time, {@link LogLayout#NO_EXPIRY} for none.
     */
    public void recordExpiryLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final long expireAt,
        final EntryCursor e)
    {
        if (findAny(IndexLayout.tag(hash), key, keyOffset, keyLength, e) < 0)
        {
            throw corrupt("batch entry gone under the write lock");
        }
        changes.set(e.buffer, e.keyOffset, e.keyLength, e.buffer, e.valueOffset, e.valueLength, expireAt);
    }

    /**
     * Writes a key's new value, or with {@code value} null only its new expiry time, over its entry in place: the
     * caller checked that the value has the entry's length and that the entry has an expiry field exactly when
     * {@code hasExpiry}. Logs the key's new value.
     *
     * @param hasExpiry whether the entry carries an expiry time (it must already).
     * @param expireAt  its new expiry time when it does.
     */
    public void overwriteLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final boolean hasExpiry, final long expireAt, final EntryCursor e)
    {
        final int i = findAny(IndexLayout.tag(hash), key, keyOffset, keyLength, e);
        if (i < 0 || e.hasExpiry() != hasExpiry || value != null && e.valueLength != valueLength)
        {
            throw corrupt("batch entry changed shape under the write lock");
        }
        if (hasExpiry)
        {
            EntryLayout.putExpireAt(e.buffer, e.offset, expireAt);
            e.expireAt = expireAt;
        }
        if (value != null)
        {
            e.buffer.putBytes(e.valueOffset, value, valueOffset, valueLength);
        }
        if (changes != null)
        {
            logWhole(e);
        }
    }

    /**
     * Removes a key's entry (logged as a delete).
     */
    public void removeAnyLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor e)
    {
        removeAt(findAnyLocked(hash, key, keyOffset, keyLength, e), e);
    }

    /**
     * Finds a key's entry, present whether or not it has expired since the batch judged it.
     *
     * @return the slot index with {@code e} describing the entry.
     * @throws IllegalStateException if the entry is not there: under the write lock that is corruption.
     */
    public int findAnyLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor e)
    {
        final int i = findAny(IndexLayout.tag(hash), key, keyOffset, keyLength, e);
        if (i < 0)
        {
            throw corrupt("batch entry vanished under the write lock");
        }
        return i;
    }

    /**
     * Finds a key's entry whether or not it has expired.
     *
     * @return the slot index with {@code e} describing the entry, or {@link #ABSENT}.
     */
    private int findAny(
        final int tag, final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor e)
    {
        final int i = lookup(table, arena.segments(), tag, key, keyOffset, keyLength, e);
        if (i == INCONSISTENT)
        {
            throw corrupt("entry unreadable under the write lock");
        }
        return i;
    }

    private void logWhole(final EntryCursor e)
    {
        changes.set(e.buffer, e.keyOffset, e.keyLength, e.buffer, e.valueOffset, e.valueLength,
            e.hasExpiry() ? e.expireAt : LogLayout.NO_EXPIRY);
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
    // Entries of single-key writes, under the write lock
    // ------------------------------------------------------------------------------------------------------------

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
     * Writes the entry {@code e} describes again with a new expiry flag and time.
     */
    void rewrite(final int tag, final int i, final EntryCursor e, final boolean hasExpiry, final long expireAt)
    {
        expiryOnly = true;
        try
        {
            put(tag, i, e, e.buffer, e.keyOffset, e.keyLength, e.buffer, e.valueOffset, e.valueLength, null, 0, 0,
                hasExpiry, expireAt);
        }
        finally
        {
            expiryOnly = false;
        }
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
            // Logged first: a record the log refuses leaves the entry as it was, so no reader sees a value that
            // would be gone at the next open.
            logParts(key, keyOffset, keyLength, value1, offset1, length1, gap, value2, offset2, length2, hasExpiry,
                expireAt);
            if (hasExpiry)
            {
                EntryLayout.putExpireAt(old.buffer, old.offset, expireAt);
            }
            copyValue(old.buffer, old.valueOffset, value1, offset1, length1, gap, value2, offset2, length2);
            afterWriteInPlace();
            return;
        }
        if (i >= 0 && old.length == entryLength &&
            old.keyOffset - old.offset == EntryLayout.headerLength(keyLength, valueLength, hasExpiry) &&
            (old.buffer != key || old.keyOffset == keyOffset))
        {
            // Same padded length and the same header length, so the key and value start where they did: a value
            // read from this entry (APPEND, SETRANGE) is copied onto itself, never shifted over its own bytes.
            logParts(key, keyOffset, keyLength, value1, offset1, length1, gap, value2, offset2, length2, hasExpiry,
                expireAt);
            writeEntry(old.buffer, old.offset, key, keyOffset, keyLength,
                value1, offset1, length1, gap, value2, offset2, length2, hasExpiry, expireAt);
            if (old.hasExpiry() != hasExpiry)
            {
                expiring += hasExpiry ? 1 : -1;
                arena.countVolatile(old.segmentId, hasExpiry ? 1 : -1);
            }
            afterWriteInPlace();
            return;
        }
        if (i < 0)
        {
            ensureRoomForNewKeys(1);
        }
        final long removalsBefore = removals;
        // S3-FIFO (docs/eviction.md): an overwrite stays in its entry's queue; a new key joins main if the ghost
        // remembers it, else small
        final boolean main = i >= 0 ? arena.segments()[old.segmentId].inMain() : evictor.joinsMain(tag);
        long location = compactor.allocate(entryLength, i >= 0 ? old.segmentId : 0, main);
        // Eviction may have shifted the old entry's slot back (its segment was left alone, so its slot word holds).
        int slotIndex = i >= 0 && removals != removalsBefore ? compactor.findSlot(old.slot) : i;
        if (location == Arena.NO_SPACE && i >= 0 && old.buffer != key && old.buffer != value1 && old.buffer != value2)
        {
            // The new version reads nothing of the old one, so the old one's segment (perhaps the shard's only one)
            // may be compacted and evicted from too; the old entry is then found again, or is gone.
            location = compactor.allocate(entryLength, 0, main);
            if (location != Arena.NO_SPACE)
            {
                slotIndex = findAny(tag, key, keyOffset, keyLength, old);
            }
        }
        if (location == Arena.NO_SPACE)
        {
            rejected++;
            if (shrink.pending())
            {
                // nothing changed, nothing is held: the refused write still takes its step towards a lowered budget
                shrink.step(0);
            }
            throw capacityExceeded(entryLength);
        }
        final int length = (int)entryLength;
        final int segmentId = Arena.segmentIdOf(location);
        final int offset = Arena.offsetOf(location);
        final UnsafeBuffer buffer = arena.segments()[segmentId].buffer;
        writeEntry(buffer, offset, key, keyOffset, keyLength,
            value1, offset1, length1, gap, value2, offset2, length2, hasExpiry, expireAt);
        arena.onWritten(segmentId, length);
        countVolatile(segmentId, hasExpiry, 1);
        try
        {
            // Logged before it is linked: a record the log refuses leaves the key as it was.
            logWritten(buffer, offset + EntryLayout.headerLength(keyLength, valueLength, hasExpiry), keyLength,
                valueLength, hasExpiry, expireAt);
        }
        catch (final RuntimeException | Error ex)
        {
            countVolatile(segmentId, hasExpiry, -1);
            arena.onAbandoned(segmentId, offset, length);
            throw ex;
        }
        link(slotIndex, IndexLayout.slot(tag, segmentId, offset), old, hasExpiry);
        compactor.afterWrite(length);
    }

    /**
     * After a write in place, which takes no memory: a step towards a budget lowered below what the store holds, if
     * it is, so that a store whose writes all overwrite in place comes down too.
     */
    private void afterWriteInPlace()
    {
        if (shrink.pending())
        {
            shrink.step(0);
        }
    }

    /**
     * Logs the entry just written (its key, then its value, start at {@code keyOffset}): as its whole value, or as
     * its expiry time alone when only that changed ({@link #rewrite}).
     */
    private void logWritten(
        final UnsafeBuffer buffer, final int keyOffset, final int keyLength, final int valueLength,
        final boolean hasExpiry, final long expireAt)
    {
        logParts(buffer, keyOffset, keyLength, buffer, keyOffset + keyLength, valueLength, 0, null, 0, 0, hasExpiry,
            expireAt);
    }

    /**
     * Logs the value a key is about to have, from the parts it will be written from ({@link #put}): as its whole
     * value, or as its expiry time alone when only that changes ({@link #rewrite}).
     */
    private void logParts(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value1, final int offset1, final int length1, final int gap,
        final DirectBuffer value2, final int offset2, final int length2,
        final boolean hasExpiry, final long expireAt)
    {
        final ChangeRecorder log = changes;
        if (log != null)
        {
            final long at = hasExpiry ? expireAt : LogLayout.NO_EXPIRY;
            if (expiryOnly)
            {
                log.expire(key, keyOffset, keyLength, at);
            }
            else
            {
                final DirectBuffer second = value2 == null ? value1 : value2;
                log.set(key, keyOffset, keyLength, value1, offset1, length1, gap, second, offset2, length2, second, 0,
                    0, at);
            }
        }
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
                arena.countVolatile(old.segmentId, -1);
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

    private void countVolatile(final int segmentId, final boolean hasExpiry, final int delta)
    {
        if (hasExpiry)
        {
            arena.countVolatile(segmentId, delta);
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
}
