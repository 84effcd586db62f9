package io.agni.store.shard;

import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.arena.Segment;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import io.agni.store.memory.OffHeapMemory;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.concurrent.locks.StampedLock;

/**
 * One shard: its {@link ShardStorage} (index table, arena, counts) behind one {@link StampedLock}. Implements the
 * per-operation storage and locking protocol of docs/architecture.md ("Operations"); the storage does the work once
 * the lock is held.
 *
 * <h2>Concurrency</h2>
 * Writers take the write lock. Readers first try an optimistic stamp: they load the table and segment array into
 * locals, probe and copy out, and trust the result only if the stamp still validates; a read that sees an
 * inconsistent header (possible while a writer is mid-change) reports {@link #INCONSISTENT} instead of throwing, and
 * the reader retries under the read lock. Every length and offset read this way is bounds-checked by
 * {@link EntryCursor#wrap} before use, and memory a reader may still reach is freed only once it has left its
 * operation ({@link OffHeapMemory}). Methods named {@code ...Locked} expect the caller to hold the lock they name.
 *
 * <h2>Expiry</h2>
 * Expired entries are invisible: reads treat them as absent; a write or a read that meets one removes it
 * (counted in {@link #expiredCount()}); {@link #sweep} removes them in bounded steps.
 */
public final class Shard extends ShardStorage
{
    /**
     * Read result: the key is present but expired.
     */
    public static final int EXPIRED = -3;
    /**
     * Read result: the caller's buffer is too small and cannot grow.
     */
    public static final int TOO_SMALL = -4;

    /**
     * How often a reader retries optimistically (spinning while a writer holds the lock) before it takes the read
     * lock, which may park it: write sections are a few hundred nanoseconds, a park and wake-up tens of
     * microseconds.
     */
    private static final int OPTIMISTIC_ATTEMPTS = 64;

    /**
     * The end index of a {@link ByteRange} that selects a whole value (from 0).
     */
    private static final long WHOLE_VALUE_END = -1;

    /**
     * How often a writer retries {@code tryWriteLock} with {@link Thread#onSpinWait()} between tries before it
     * starts yielding.
     */
    private static final int WRITE_SPINS = 128;

    /**
     * How often a writer then retries {@code tryWriteLock} with {@link Thread#yield()} between tries before it
     * queues on the lock (which allocates a node and may park). Yielding lets a holder that lost its CPU finish;
     * queueing and the wake-up that follows cost more than the write section they wait for.
     */
    private static final int WRITE_YIELDS = 64;

    private final StampedLock lock = new StampedLock();

    /**
     * An empty shard.
     *
     * @param memory where its memory comes from.
     * @param clock  the store's clock.
     * @param seed   the store's hash seed.
     * @throws CapacityExceededException if the budget cannot hold the initial index.
     */
    public Shard(final OffHeapMemory memory, final EpochClock clock, final long seed)
    {
        super(memory, clock, seed);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Locks, for multi-key operations that span shards (callers lock shards in ascending index order).
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Takes the write lock.
     *
     * @return the stamp for {@link #unlockWrite(long)}.
     */
    public long lockWrite()
    {
        return acquireWrite();
    }

    private long acquireWrite()
    {
        long stamp = lock.tryWriteLock();
        for (int spin = 0; stamp == 0 && spin < WRITE_SPINS; spin++)
        {
            Thread.onSpinWait();
            stamp = lock.tryWriteLock();
        }
        for (int yields = 0; stamp == 0 && yields < WRITE_YIELDS; yields++)
        {
            Thread.yield();
            stamp = lock.tryWriteLock();
        }
        return stamp != 0 ? stamp : lock.writeLock();
    }

    /**
     * Releases the write lock.
     *
     * @param stamp from {@link #lockWrite()}.
     */
    public void unlockWrite(final long stamp)
    {
        lock.unlockWrite(stamp);
    }

    /**
     * Takes the read lock.
     *
     * @return the stamp for {@link #unlockRead(long)}.
     */
    public long lockRead()
    {
        return lock.readLock();
    }

    /**
     * Releases the read lock.
     *
     * @param stamp from {@link #lockRead()}.
     */
    public void unlockRead(final long stamp)
    {
        lock.unlockRead(stamp);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Reads
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Copies a key's value into {@code dst}, or into a new array left in {@code c} when {@code dst} is null.
     * Any thread.
     * <p>
     * The common case, a zero-copy read of an entry of a common shape ({@link FastRead}) that no writer
     * overlaps, is one stamp, one probe and one validation; anything else goes to {@link #readRetrying}.
     *
     * @return the value's length or {@link AgniStore#NOT_FOUND}.
     */
    public int get(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        if (dst != null)
        {
            final long stamp = lock.tryOptimisticRead();
            final int r = FastRead.readValue(
                table, arena.segments(), tag, key, keyOffset, keyLength, dst, dstOffset, clock);
            if ((r >= 0 || r == ABSENT) && lock.validate(stamp))
            {
                return r;
            }
        }
        return readRetrying(tag, key, keyOffset, keyLength, true, 0, WHOLE_VALUE_END, dst, dstOffset, c);
    }

    /**
     * Reads a key's value while the caller holds this shard's read or write lock (for {@code getAll}).
     *
     * @return a copy of the value or {@code null}.
     */
    public byte[] getLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final ThreadContext c)
    {
        final int r = readSlice(table, arena.segments(), IndexLayout.tag(hash), key, keyOffset, keyLength,
            true, 0, WHOLE_VALUE_END, null, 0, c);
        if (r == INCONSISTENT)
        {
            throw corrupt("entry unreadable under the lock");
        }
        return r >= 0 ? c.array : null;
    }

    /**
     * The key's expiry state: {@code TTL_KEY_ABSENT}, {@code TTL_NO_EXPIRY} or its absolute expiry time.
     * Any thread.
     *
     * @return the expiry state.
     */
    public long expireTime(final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        if (readRetrying(tag, key, keyOffset, keyLength, false, 0, 0, null, 0, c) < 0)
        {
            return AgniStore.TTL_KEY_ABSENT;
        }
        final EntryCursor e = c.entry;
        return e.hasExpiry() ? e.expireAt : AgniStore.TTL_NO_EXPIRY;
    }

    private int finishRead(
        final int r, final int tag, final DirectBuffer key, final int keyOffset, final int keyLength,
        final ThreadContext c)
    {
        if (r >= 0 || r == ABSENT)
        {
            return r;
        }
        if (r == EXPIRED)
        {
            expireIfDue(tag, key, keyOffset, keyLength, c.entry);
            return AgniStore.NOT_FOUND;
        }
        throw new IndexOutOfBoundsException(
            "destination too small: value length=" + c.dstNeeded + ", capacity=" + c.dstCapacity);
    }

    /**
     * A key's value length, or a slice of its value ({@link ByteRange}) copied into {@code dst}, or into a new array
     * left in {@code c} when {@code dst} is null: valueLength and getRange. Only the slice is copied. Any thread.
     *
     * @return without {@code copySlice}: the value's length or {@link AgniStore#NOT_FOUND}; with it: the bytes
     * copied or NOT_FOUND.
     */
    public int readRange(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final boolean copySlice, final long start, final long end,
        final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        return readRetrying(tag, key, keyOffset, keyLength, copySlice, start, end, dst, dstOffset, c);
    }

    /**
     * The general read, for any entry and either destination: up to {@link #OPTIMISTIC_ATTEMPTS} optimistic
     * attempts with {@link #readSlice}, then one under the read lock; an expired entry found is removed. When it
     * returns a length, {@code c.entry} describes the entry as the validated (or locked) read saw it.
     *
     * @return as {@link #readRange}.
     */
    private int readRetrying(
        final int tag, final DirectBuffer key, final int keyOffset, final int keyLength,
        final boolean copySlice, final long start, final long end,
        final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        int r;
        for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++)
        {
            final long stamp = lock.tryOptimisticRead();
            if (stamp != 0)
            {
                r = readSlice(table, arena.segments(), tag, key, keyOffset, keyLength, copySlice, start, end,
                    dst, dstOffset, c);
                if (r != INCONSISTENT && lock.validate(stamp))
                {
                    return finishRead(r, tag, key, keyOffset, keyLength, c);
                }
            }
            Thread.onSpinWait();
        }
        final long readStamp = lock.readLock();
        try
        {
            r = readSlice(table, arena.segments(), tag, key, keyOffset, keyLength, copySlice, start, end,
                dst, dstOffset, c);
        }
        finally
        {
            lock.unlockRead(readStamp);
        }
        if (r == INCONSISTENT)
        {
            throw corrupt("entry unreadable under the read lock");
        }
        return finishRead(r, tag, key, keyOffset, keyLength, c);
    }

    private int readSlice(
        final IndexTable t, final Segment[] segments, final int tag,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final boolean copySlice, final long start, final long end,
        final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final EntryCursor e = c.entry;
        final int r = lookup(t, segments, tag, key, keyOffset, keyLength, e);
        if (r < 0)
        {
            return r;
        }
        if (e.hasExpiry() && e.expireAt <= clock.time())
        {
            return EXPIRED;
        }
        if (!copySlice)
        {
            return e.valueLength;
        }
        final long slice = ByteRange.slice(start, end, e.valueLength);
        final int from = e.valueOffset + ByteRange.first(slice);
        final int count = ByteRange.count(slice);
        if (dst == null)
        {
            final byte[] copy = new byte[count];
            e.buffer.getBytes(from, copy);
            c.array = copy;
        }
        else
        {
            if (!dst.isExpandable() && (long)dstOffset + count > dst.capacity())
            {
                c.dstCapacity = dst.capacity();
                c.dstNeeded = count;
                return TOO_SMALL;
            }
            dst.putBytes(dstOffset, e.buffer, from, count);
        }
        return count;
    }


    // ------------------------------------------------------------------------------------------------------------
    // Writes (each takes the write lock)
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Sets, conditionally, with an expiry mode; optionally copies the previous value out (getAndSet).
     *
     * @return for a plain set: 1 if written, 0 if not; with {@code previous}: the previous length or NOT_FOUND.
     */
    public int set(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expireAt,
        final boolean returnPrevious, final MutableDirectBuffer previous, final int previousOffset,
        final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite();
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            int result = 1;
            if (returnPrevious)
            {
                result = copyPrevious(i, previous, previousOffset, c);
            }
            final boolean present = i >= 0;
            if (condition == SetCondition.IF_ABSENT && present || condition == SetCondition.IF_PRESENT && !present)
            {
                return returnPrevious ? result : 0;
            }
            final boolean hasExpiry;
            final long at;
            switch (expiryMode)
            {
                case KEEP:
                    hasExpiry = present && e.hasExpiry();
                    at = hasExpiry ? e.expireAt : 0;
                    break;
                case AT:
                    hasExpiry = true;
                    at = expireAt;
                    break;
                default:
                    hasExpiry = false;
                    at = 0;
                    break;
            }
            if (hasExpiry && at <= clock.time())
            {
                if (present)
                {
                    removeAt(i, e);
                }
                return result;
            }
            put(tag, i, e, key, keyOffset, keyLength, value, valueOffset, valueLength, null, 0, 0, hasExpiry, at);
            return result;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }


    /**
     * Removes a key, optionally copying its value out first (getAndDelete).
     *
     * @return without {@code copy}: 1 if removed, 0 if absent; with it: the value's length or NOT_FOUND.
     */
    public int delete(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final boolean copy, final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite();
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            if (i < 0)
            {
                return copy ? AgniStore.NOT_FOUND : 0;
            }
            final int result = copy ? copyPrevious(i, dst, dstOffset, c) : 1;
            removeAt(i, e);
            return result;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Reads a value and changes its expiry (getAndExpire).
     *
     * @return the value's length or NOT_FOUND.
     */
    public int getAndExpire(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final ExpiryMode expiryMode, final long expireAt,
        final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        if (expiryMode == ExpiryMode.KEEP)
        {
            return get(hash, key, keyOffset, keyLength, dst, dstOffset, c);
        }
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite();
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            if (i < 0)
            {
                return AgniStore.NOT_FOUND;
            }
            final int result = copyPrevious(i, dst, dstOffset, c);
            if (expiryMode == ExpiryMode.CLEAR)
            {
                if (e.hasExpiry())
                {
                    rewrite(tag, i, e, false, 0);
                }
            }
            else if (expireAt <= clock.time())
            {
                removeAt(i, e);
            }
            else if (e.hasExpiry())
            {
                EntryLayout.putExpireAt(e.buffer, e.offset, expireAt);
            }
            else
            {
                rewrite(tag, i, e, true, expireAt);
            }
            return result;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Changes a key's expiry time under a condition (expire); a time not after now removes the key.
     *
     * @return whether the key existed and the condition held.
     */
    public boolean expire(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final long expireAt, final ExpireCondition condition, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite();
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            if (i < 0)
            {
                return false;
            }
            final boolean has = e.hasExpiry();
            final boolean allowed;
            switch (condition)
            {
                case IF_NO_EXPIRY:
                    allowed = !has;
                    break;
                case IF_HAS_EXPIRY:
                    allowed = has;
                    break;
                case IF_LATER:
                    allowed = has && expireAt > e.expireAt;
                    break;
                case IF_EARLIER:
                    allowed = !has || expireAt < e.expireAt;
                    break;
                case IF_HAS_EXPIRY_AND_EARLIER:
                    allowed = has && expireAt < e.expireAt;
                    break;
                default:
                    allowed = true;
                    break;
            }
            if (!allowed)
            {
                return false;
            }
            if (expireAt <= clock.time())
            {
                removeAt(i, e);
            }
            else if (has)
            {
                EntryLayout.putExpireAt(e.buffer, e.offset, expireAt);
            }
            else
            {
                rewrite(tag, i, e, true, expireAt);
            }
            return true;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Removes a key's expiry time (persist).
     *
     * @return whether the key existed with an expiry time.
     */
    public boolean persist(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite();
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            if (i < 0 || !e.hasExpiry())
            {
                return false;
            }
            rewrite(tag, i, e, false, 0);
            return true;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Adds {@code delta} to a decimal integer value (incrementBy); keeps the expiry time.
     *
     * @return the new value.
     */
    public long incrementBy(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final long delta,
        final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite();
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            long current = 0;
            if (i >= 0)
            {
                current = DecimalLong.parse(e.buffer, e.valueOffset, e.valueLength);
            }
            final long next = DecimalLong.add(current, delta);
            final UnsafeBuffer digits = c.digits;
            final int length = DecimalLong.format(next, digits);
            final boolean hasExpiry = i >= 0 && e.hasExpiry();
            put(tag, i, e, key, keyOffset, keyLength, digits, 0, length, null, 0, 0, hasExpiry,
                hasExpiry ? e.expireAt : 0);
            return next;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Appends bytes to a value (append); keeps the expiry time.
     *
     * @return the new length.
     */
    public long append(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength, final int maxValueLength,
        final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite();
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            final int oldLength = i >= 0 ? e.valueLength : 0;
            final long newLength = (long)oldLength + valueLength;
            Limits.checkEntry(keyLength, newLength, maxValueLength);
            if (i >= 0 && valueLength == 0)
            {
                return oldLength;
            }
            final boolean hasExpiry = i >= 0 && e.hasExpiry();
            if (i >= 0)
            {
                put(tag, i, e, key, keyOffset, keyLength, e.buffer, e.valueOffset, oldLength,
                    value, valueOffset, valueLength, hasExpiry, e.expireAt);
            }
            else
            {
                put(tag, i, e, key, keyOffset, keyLength, value, valueOffset, valueLength, null, 0, 0, false, 0);
            }
            return newLength;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Overwrites a value from {@code offset} on with non-empty bytes, zero-padding a shorter or absent value
     * (setRange); keeps the expiry time. The caller has checked {@code offset + valueLength} against the value limit.
     * A write that ends within the value is done in place; a longer value is written as a new entry of the old
     * prefix, the zero gap and the new bytes.
     *
     * @return the new length.
     */
    public long setRange(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final int offset,
        final DirectBuffer value, final int valueOffset, final int valueLength, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite();
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            final int oldLength = i >= 0 ? e.valueLength : 0;
            final int end = offset + valueLength;
            if (i >= 0 && end <= oldLength)
            {
                e.buffer.putBytes(e.valueOffset + offset, value, valueOffset, valueLength);
                return oldLength;
            }
            final int prefix = Math.min(oldLength, offset);
            final boolean hasExpiry = i >= 0 && e.hasExpiry();
            put(tag, i, e, key, keyOffset, keyLength, i >= 0 ? e.buffer : value, i >= 0 ? e.valueOffset : valueOffset,
                prefix, offset - prefix, value, valueOffset, valueLength, hasExpiry, hasExpiry ? e.expireAt : 0);
            return end;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Adds {@code delta} to a decimal number value (incrementByFloat, {@link DecimalFloat}); keeps the expiry time.
     * When {@code dst} is given, its room is checked before anything changes and the text is copied into it.
     *
     * @return the new value's text.
     */
    public byte[] incrementByFloat(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final double delta,
        final int maxValueLength, final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite();
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            final byte[] text = i >= 0 ?
                DecimalFloat.add(e.buffer, e.valueOffset, e.valueLength, delta) : DecimalFloat.add(null, 0, 0, delta);
            if (text.length > maxValueLength)
            {
                throw Limits.valueTooLarge(text.length, maxValueLength);
            }
            if (dst != null && !dst.isExpandable() && (long)dstOffset + text.length > dst.capacity())
            {
                throw new IndexOutOfBoundsException(
                    "destination too small: value length=" + text.length + ", capacity=" + dst.capacity());
            }
            final boolean hasExpiry = i >= 0 && e.hasExpiry();
            final UnsafeBuffer textBuffer = new UnsafeBuffer(text);
            put(tag, i, e, key, keyOffset, keyLength, textBuffer, 0, text.length, 0, textBuffer, 0, 0,
                hasExpiry, hasExpiry ? e.expireAt : 0);
            if (dst != null)
            {
                dst.putBytes(dstOffset, text);
            }
            return text;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Whole shard
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Removes up to {@code maxSlots} slots' worth of expired entries, continuing where the last sweep stopped, and
     * takes a step of compaction ({@link Compactor}). A shard with no expiring entry and no compaction under way is
     * not locked at all, so that an idle store fails no optimistic read and blocks no writer for its sweep. That test
     * reads both racily; a stale answer only leaves the work to the next sweep (or the access that comes first).
     *
     * @return entries removed.
     */
    public int sweep(final int maxSlots, final EntryCursor e)
    {
        if (expiring == 0 && !compactor.pending())
        {
            return 0;
        }
        final long stamp = acquireWrite();
        try
        {
            return sweepLocked(maxSlots, e);
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * One scan step over home buckets in reverse-binary order (as Redis's {@code dictScan}), which returns every key
     * present for the whole scan at least once even if the table doubles between steps.
     *
     * @param bucketCursor where to continue, 0 to start.
     * @param buckets      how many buckets to visit at most, at least 1.
     * @param pattern      glob pattern or null.
     * @param keys         where found keys are added.
     * @param c            the caller's context; its {@code scannedBuckets} is set to the buckets visited.
     * @return the next bucket cursor, 0 when this shard is done.
     */
    public long scan(final long bucketCursor, final int buckets, final byte[] pattern, final List<byte[]> keys,
        final ThreadContext c)
    {
        final long stamp = lock.readLock();
        try
        {
            return scanLocked(bucketCursor, buckets, pattern, keys, c);
        }
        finally
        {
            lock.unlockRead(stamp);
        }
    }

    /**
     * The key of the first live entry at or after slot {@code startSlot}, probing at most {@code maxSlots} slots
     * under the read lock (randomKey). Expired entries are skipped, not removed.
     *
     * @param startSlot where to start; reduced to the table's size.
     * @param maxSlots  how many slots to look at, at most the whole table.
     * @return a copy of the key, or {@code null} if none was found.
     */
    public byte[] liveKeyFrom(final int startSlot, final int maxSlots, final EntryCursor e)
    {
        final long stamp = lock.readLock();
        try
        {
            return liveKeyLocked(startSlot, maxSlots, e);
        }
        finally
        {
            lock.unlockRead(stamp);
        }
    }

    /**
     * Removes every entry and returns the memory; the next write starts small again.
     */
    public void clear()
    {
        final long stamp = acquireWrite();
        try
        {
            clearLocked();
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Frees all memory at close; no operation may be in flight.
     */
    public void free()
    {
        final long stamp = acquireWrite();
        try
        {
            freeLocked();
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Checks the shard's structural invariants under the write lock.
     *
     * @throws IllegalStateException naming the first broken invariant.
     */
    public void verifyIntegrity(final EntryCursor e, final ThreadContext scratch)
    {
        final long stamp = acquireWrite();
        try
        {
            verifyLocked(e, scratch);
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    private void expireIfDue(
        final int tag, final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor e)
    {
        final long stamp = acquireWrite();
        try
        {
            findForWrite(tag, key, keyOffset, keyLength, e);
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }
}
