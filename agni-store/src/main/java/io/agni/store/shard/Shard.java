package io.agni.store.shard;

import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
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
import java.util.concurrent.locks.StampedLock;

/**
 * One shard: an index table and an arena behind one {@link StampedLock}. Implements the per-operation storage and
 * locking protocol of docs/architecture.md ("Operations").
 *
 * <h2>Concurrency</h2>
 * Writers take the write lock. Readers first try an optimistic stamp: they load the table and segment array into
 * locals, probe and copy out, and trust the result only if the stamp still validates; a read that sees an
 * inconsistent header (possible while a writer is mid-change) reports {@link #INCONSISTENT} instead of throwing, and
 * the reader retries under the read lock. Every length and offset read this way is bounds-checked by
 * {@link EntryCursor#wrap} before use, and no memory a reader can reach is freed while the store is open
 * ({@link OffHeapMemory}). Methods named {@code ...Locked} expect the caller to hold the lock they name.
 *
 * <h2>Expiry</h2>
 * Expired entries are invisible: reads treat them as absent; a write or a read that meets one removes it
 * (counted in {@link #expiredCount()}); {@link #sweep} removes them in bounded steps.
 */
public final class Shard
{
    /**
     * Lookup result: the key is not in the table.
     */
    public static final int ABSENT = -1;
    /**
     * Lookup result: an optimistic read saw memory mid-change.
     */
    public static final int INCONSISTENT = -2;
    /**
     * Read result: the key is present but expired.
     */
    public static final int EXPIRED = -3;
    /**
     * Read result: the caller's buffer is too small and cannot grow.
     */
    public static final int TOO_SMALL = -4;

    private static final int INITIAL_SLOTS = 16;

    /**
     * How often a reader retries optimistically (spinning while a writer holds the lock) before it takes the read
     * lock, which may park it: write sections are a few hundred nanoseconds, a park and wake-up tens of
     * microseconds.
     */
    private static final int OPTIMISTIC_ATTEMPTS = 64;

    /**
     * How often a writer retries {@code tryWriteLock} before it queues (which allocates a node and may park).
     */
    private static final int WRITE_SPINS = 128;

    private final StampedLock lock = new StampedLock();
    private final OffHeapMemory memory;
    private final EpochClock clock;
    private final long seed;
    private final Arena arena;
    private final Compactor compactor;
    private IndexTable table;
    private int count;
    private int expiring;
    private long expired;
    private long rejected;
    private int sweepCursor;

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
        this.memory = memory;
        this.clock = clock;
        this.seed = seed;
        this.arena = new Arena(memory);
        this.table = newTable(INITIAL_SLOTS);
        this.compactor = new Compactor(this, arena, seed);
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
     *
     * @return the value's length or {@link AgniStore#NOT_FOUND}.
     */
    public int get(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        int r;
        for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++)
        {
            final long stamp = lock.tryOptimisticRead();
            if (stamp != 0)
            {
                r = readOptimistic(tag, key, keyOffset, keyLength, dst, dstOffset, c);
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
            r = readValue(table, arena.segments(), tag, key, keyOffset, keyLength, dst, dstOffset, c);
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

    private int readOptimistic(
        final int tag, final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final IndexTable t = table;
        final Segment[] segments = arena.segments();
        if (dst != null)
        {
            final int r = FastRead.readValue(t, segments, tag, key, keyOffset, keyLength, dst, dstOffset);
            if (r != FastRead.SLOW_PATH)
            {
                return r;
            }
        }
        return readValue(t, segments, tag, key, keyOffset, keyLength, dst, dstOffset, c);
    }

    /**
     * Reads a key's value while the caller holds this shard's read or write lock (for {@code getAll}).
     *
     * @return a copy of the value or {@code null}.
     */
    public byte[] getLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final ThreadContext c)
    {
        final int r = readValue(
            table, arena.segments(), IndexLayout.tag(hash), key, keyOffset, keyLength, null, 0, c);
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
        final EntryCursor e = c.entry;
        int r;
        long result;
        for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++)
        {
            final long stamp = lock.tryOptimisticRead();
            if (stamp != 0)
            {
                r = lookup(table, arena.segments(), tag, key, keyOffset, keyLength, e);
                result = r < 0 ? AgniStore.TTL_KEY_ABSENT : e.hasExpiry() ? e.expireAt : AgniStore.TTL_NO_EXPIRY;
                if (r != INCONSISTENT && lock.validate(stamp))
                {
                    return finishExpireTime(result, tag, key, keyOffset, keyLength, c);
                }
            }
            Thread.onSpinWait();
        }
        final long readStamp = lock.readLock();
        try
        {
            r = lookup(table, arena.segments(), tag, key, keyOffset, keyLength, e);
            if (r == INCONSISTENT)
            {
                throw corrupt("entry unreadable under the read lock");
            }
            result = r < 0 ? AgniStore.TTL_KEY_ABSENT : e.hasExpiry() ? e.expireAt : AgniStore.TTL_NO_EXPIRY;
        }
        finally
        {
            lock.unlockRead(readStamp);
        }
        return finishExpireTime(result, tag, key, keyOffset, keyLength, c);
    }

    private long finishExpireTime(
        final long result, final int tag, final DirectBuffer key, final int keyOffset, final int keyLength,
        final ThreadContext c)
    {
        if (result >= 0 && result <= clock.time())
        {
            expireIfDue(tag, key, keyOffset, keyLength, c.entry);
            return AgniStore.TTL_KEY_ABSENT;
        }
        return result;
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

    private int readValue(
        final IndexTable t, final Segment[] segments, final int tag,
        final DirectBuffer key, final int keyOffset, final int keyLength,
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
        final int length = e.valueLength;
        if (dst == null)
        {
            final byte[] copy = new byte[length];
            e.buffer.getBytes(e.valueOffset, copy);
            c.array = copy;
        }
        else
        {
            if (!dst.isExpandable() && (long)dstOffset + length > dst.capacity())
            {
                c.dstCapacity = dst.capacity();
                c.dstNeeded = length;
                return TOO_SMALL;
            }
            dst.putBytes(dstOffset, e.buffer, e.valueOffset, length);
        }
        return length;
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
            put(tag, i, e, key, keyOffset, keyLength, value, valueOffset, valueLength, null, 0, 0, hasExpiry, at,
                c.fresh);
            return result;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    private int copyPrevious(final int i, final MutableDirectBuffer previous, final int previousOffset,
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
                    rewrite(tag, i, e, false, 0, c.fresh);
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
                rewrite(tag, i, e, true, expireAt, c.fresh);
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
                rewrite(tag, i, e, true, expireAt, c.fresh);
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
            rewrite(tag, i, e, false, 0, c.fresh);
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
                hasExpiry ? e.expireAt : 0, c.fresh);
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
            if (newLength > maxValueLength)
            {
                throw Limits.valueTooLarge(newLength, maxValueLength);
            }
            if (i >= 0 && valueLength == 0)
            {
                return oldLength;
            }
            final boolean hasExpiry = i >= 0 && e.hasExpiry();
            if (i >= 0)
            {
                put(tag, i, e, key, keyOffset, keyLength, e.buffer, e.valueOffset, oldLength,
                    value, valueOffset, valueLength, hasExpiry, e.expireAt, c.fresh);
            }
            else
            {
                put(tag, i, e, key, keyOffset, keyLength, value, valueOffset, valueLength, null, 0, 0, false, 0,
                    c.fresh);
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
     * {@code sourceSegmentId} (the source's segment when it is in this shard, which is still to be read).
     *
     * @return the location ({@code segmentId << 32 | offset}) or {@link Arena#NO_SPACE}.
     */
    public long copyInLocked(
        final DirectBuffer key, final int keyOffset, final int keyLength, final EntryCursor source,
        final int sourceSegmentId)
    {
        final boolean hasExpiry = source.hasExpiry();
        final long entryLength = EntryLayout.length(keyLength, source.valueLength, hasExpiry);
        if (entryLength > EntryLayout.MAX_ENTRY_LENGTH)
        {
            throw Limits.valueTooLarge(source.valueLength, EntryLayout.MAX_ENTRY_LENGTH - keyLength - 32L);
        }
        final int length = (int)entryLength;
        long location = arena.allocate(length);
        if (location == Arena.NO_SPACE && compactor.reclaimInPlace(length, sourceSegmentId))
        {
            location = arena.allocate(length);
        }
        if (location == Arena.NO_SPACE)
        {
            return Arena.NO_SPACE;
        }
        final int segmentId = Arena.segmentIdOf(location);
        writeEntry(arena.segments()[segmentId].buffer, Arena.offsetOf(location), key, keyOffset, keyLength,
            source.buffer, source.valueOffset, source.valueLength, 0, source.buffer, 0, 0,
            hasExpiry, source.expireAt);
        arena.onWritten(segmentId, length);
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
     * the write lock and later calls {@link #linkLocked} or {@link #abandonLocked}.
     *
     * @return the location ({@code segmentId << 32 | offset}) or {@link Arena#NO_SPACE}.
     */
    public long prepareLocked(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        final int length = (int)EntryLayout.length(keyLength, valueLength, false);
        final long location = arena.allocate(length);
        if (location == Arena.NO_SPACE)
        {
            return Arena.NO_SPACE;
        }
        final int segmentId = Arena.segmentIdOf(location);
        final int offset = Arena.offsetOf(location);
        final UnsafeBuffer buffer = arena.segments()[segmentId].buffer;
        int p = EntryLayout.writeHeader(buffer, offset, false, 0, keyLength, valueLength);
        buffer.putBytes(p, key, keyOffset, keyLength);
        p += keyLength;
        buffer.putBytes(p, value, valueOffset, valueLength);
        arena.onWritten(segmentId, length);
        return location;
    }

    /**
     * Drops an entry written by {@link #prepareLocked} that will not be linked.
     */
    public void abandonLocked(final long location, final int keyLength, final int valueLength)
    {
        final int length = (int)EntryLayout.length(keyLength, valueLength, false);
        arena.onDead(Arena.segmentIdOf(location), Arena.offsetOf(location), length);
    }

    /**
     * Links an entry written by {@link #prepareLocked} or {@link #copyInLocked} into the index, replacing the key's
     * current entry.
     *
     * @param hasExpiry whether the new entry carries an expiry time.
     */
    public void linkLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final long location,
        final boolean hasExpiry, final EntryCursor e)
    {
        final int tag = IndexLayout.tag(hash);
        final int i = findForWrite(tag, key, keyOffset, keyLength, e);
        final long slot = IndexLayout.slot(tag, Arena.segmentIdOf(location), Arena.offsetOf(location));
        if (i >= 0)
        {
            table.put(i, slot);
            if (e.hasExpiry())
            {
                expiring--;
            }
            arena.onDead(e.segmentId, e.offset, e.length);
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

    /**
     * Runs compaction if garbage is high; the caller holds the write lock.
     */
    public void maybeCompactLocked()
    {
        compactor.maybeCompact();
    }

    /**
     * Counts a write refused by the budget.
     */
    public void countRejectedLocked()
    {
        rejected++;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Whole shard
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Removes up to {@code maxSlots} slots' worth of expired entries, continuing where the last sweep stopped.
     *
     * @return entries removed.
     */
    public int sweep(final int maxSlots, final EntryCursor e)
    {
        final long stamp = acquireWrite();
        try
        {
            if (expiring == 0)
            {
                return 0;
            }
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
            if (removed > 0)
            {
                compactor.maybeCompact();
            }
            return removed;
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
        final EntryCursor e = c.entry;
        final long stamp = lock.readLock();
        try
        {
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
            arena.releaseAll(false);
            final IndexTable old = table;
            table = newTable(INITIAL_SLOTS);
            memory.retire(old.slots);
            count = 0;
            expiring = 0;
            sweepCursor = 0;
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
            arena.releaseAll(true);
            memory.free(table.slots);
            count = 0;
            expiring = 0;
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
            ShardIntegrity.verify(table, arena, count, expiring, seed, e, scratch);
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
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

    private int findForWrite(
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

    private void removeAt(final int i, final EntryCursor e)
    {
        table.removeAt(i);
        count--;
        if (e.hasExpiry())
        {
            expiring--;
        }
        arena.onDead(e.segmentId, e.offset, e.length);
    }

    private void rewrite(final int tag, final int i, final EntryCursor e, final boolean hasExpiry,
        final long expireAt, final EntryCursor fresh)
    {
        put(tag, i, e, e.buffer, e.keyOffset, e.keyLength, e.buffer, e.valueOffset, e.valueLength, null, 0, 0,
            hasExpiry, expireAt, fresh);
    }

    private void put(
        final int tag, final int i, final EntryCursor old,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value1, final int offset1, final int length1,
        final DirectBuffer value2, final int offset2, final int length2,
        final boolean hasExpiry, final long expireAt, final EntryCursor fresh)
    {
        put(tag, i, old, key, keyOffset, keyLength, value1, offset1, length1, 0, value2, offset2, length2,
            hasExpiry, expireAt);
    }

    /**
     * Writes a new version of an entry (key, then value part 1, {@code gap} zero bytes and value part 2) and points
     * the index at it: in place when the length is unchanged, else in fresh arena space. Any capacity failure
     * happens before anything visible changes.
     */
    private void put(
        final int tag, final int i, final EntryCursor old,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value1, final int offset1, final int length1, final int gap,
        final DirectBuffer value2, final int offset2, final int length2,
        final boolean hasExpiry, final long expireAt)
    {
        final int valueLength = length1 + gap + length2;
        final int length = (int)EntryLayout.length(keyLength, valueLength, hasExpiry);
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
        if (i >= 0 && old.length == length &&
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
        long location = arena.allocate(length);
        if (location == Arena.NO_SPACE && compactor.reclaimInPlace(length, i >= 0 ? old.segmentId : 0))
        {
            location = arena.allocate(length);
        }
        if (location == Arena.NO_SPACE)
        {
            rejected++;
            throw capacityExceeded(length);
        }
        final int segmentId = Arena.segmentIdOf(location);
        final int offset = Arena.offsetOf(location);
        writeEntry(arena.segments()[segmentId].buffer, offset, key, keyOffset, keyLength,
            value1, offset1, length1, gap, value2, offset2, length2, hasExpiry, expireAt);
        arena.onWritten(segmentId, length);
        final long slot = IndexLayout.slot(tag, segmentId, offset);
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
        compactor.maybeCompact();
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
