package io.agni.store.shard;

import io.agni.api.AgniStore;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.Segment;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import io.agni.store.log.ChangeRecorder;
import io.agni.store.memory.OffHeapMemory;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;

import java.util.concurrent.locks.StampedLock;

/**
 * The lock of one shard and every read (docs/architecture.md, "Concurrency" and "Operations"); {@link Shard} adds
 * the writes. Public, though only this package extends it, so that a read called on a {@link Shard} from another
 * package is this method itself, not a bridge the compiler would add to the public subclass.
 *
 * <h2>Concurrency</h2>
 * Readers first try an optimistic stamp: they load the table and segment array into locals, probe and copy out, and
 * trust the result only if the stamp still validates; a read that sees an inconsistent header (possible while a
 * writer is mid-change) reports {@link #INCONSISTENT} instead of throwing, and the reader retries, then takes the
 * read lock. Every length and offset read this way is bounds-checked by {@link EntryCursor#wrap} before use, and
 * memory a reader may still reach is freed only once it has left its operation ({@link OffHeapMemory}). Writers take
 * the write lock ({@link #acquireWrite}). Methods named {@code ...Locked} expect the caller to hold the lock they
 * name.
 *
 * <h2>Exclusive sections</h2>
 * A transaction holds every shard's write lock for a while ({@link #lockExclusive}) and calls the ordinary
 * operations from the thread that holds them. {@code StampedLock} is not reentrant, so that thread must not take
 * this lock again: the shard notes it in {@link #exclusiveOwner}, and wherever a thread would wait for the lock
 * (a {@code tryWriteLock} that failed, an optimistic stamp of 0, a read lock) it first checks whether it is that
 * thread, and if so goes on as the lock's holder: a write gets the stamp {@link #OWNED}, which
 * {@link #releaseWrite} does not unlock, a read reads in place. The field is plain: only the owner writes it, under
 * the lock, and a thread only ever compares it with itself, which no stale value can make equal. So the ordinary
 * path pays nothing but a compare of the stamp at unlock; the check runs only where the thread would wait anyway.
 */
public abstract class ShardReads extends ShardStorage
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
     * How often a reader retries optimistically, spinning between tries, before it starts to yield between them
     * ({@link #READ_YIELDS}) and then takes the read lock, which may park it: write sections are a few hundred
     * nanoseconds, a park and wake-up tens of microseconds.
     */
    private static final int OPTIMISTIC_ATTEMPTS = 64;

    /**
     * How many more optimistic attempts a reader then makes with {@link Thread#yield()} between them before it takes
     * the read lock: as writers do ({@link #WRITE_YIELDS}), since a write that compacts a step or evicts holds the
     * lock for microseconds, and a reader queued behind it pays a park and a wake-up.
     */
    private static final int READ_YIELDS = 64;

    /**
     * The end index of a {@link ByteRange} that selects a whole value (from 0).
     */
    private static final long WHOLE_VALUE_END = -1;

    /**
     * The end index a lookup passes that only asks whether the key is there and when it expires (EXISTS, TTL): it
     * does not count as a read for eviction, as Redis's lookups for those commands do not touch the key.
     */
    private static final long NOT_A_READ = Long.MIN_VALUE;

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

    /**
     * The stamp an operation gets when its thread already holds the write lock for an exclusive section: nothing to
     * unlock. A {@code StampedLock} never returns it for a lock it grants.
     */
    public static final long OWNED = 0;

    /**
     * The shard's lock: writers hold it exclusively, readers validate optimistic stamps against it.
     */
    final StampedLock lock = new StampedLock();

    /**
     * The thread holding the write lock for an exclusive section, {@code null} for none (class comment).
     */
    private Thread exclusiveOwner;

    /**
     * The stamp of that section's write lock.
     */
    private long exclusiveStamp;

    ShardReads(final OffHeapMemory memory, final EpochClock clock, final long seed)
    {
        super(memory, clock, seed);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Locks, for multi-key operations that span shards (callers lock shards in ascending index order).
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Takes the write lock.
     *
     * @param changes where the changes made under the lock are logged, {@code null} for none.
     * @return the stamp for {@link #unlockWrite(long)}.
     */
    public long lockWrite(final ChangeRecorder changes)
    {
        return acquireWrite(changes);
    }

    /**
     * Takes the write lock: spins, then yields, then queues ({@link #WRITE_SPINS}, {@link #WRITE_YIELDS}).
     *
     * @return the stamp.
     */
    final long acquireWrite(final ChangeRecorder changes)
    {
        long stamp = lock.tryWriteLock();
        if (stamp == 0)
        {
            if (exclusiveOwner == Thread.currentThread())
            {
                // This thread's exclusive section holds the lock, with this thread's recorder.
                if (changes != null)
                {
                    changes.checkWritable();
                }
                return OWNED;
            }
            stamp = contendedWriteLock();
        }
        if (changes != null && changes.failed())
        {
            lock.unlockWrite(stamp);
            changes.checkWritable();
        }
        holder(changes);
        return stamp;
    }

    /**
     * Records the lock holder's way into the log, for every change made until the lock is released ({@code null}:
     * not logged). Stored only when it differs: in a store without a log it never does, and a store on every write
     * would move the counters' cache line between the CPUs that write this shard, one more transfer for an overwrite
     * in place, which changes no counter.
     */
    private void holder(final ChangeRecorder changes)
    {
        if (this.changes != changes)
        {
            this.changes = changes;
        }
    }

    /**
     * Evicts from this shard for another shard's write that its own eviction could not serve, if this shard's lock is
     * free now and its policy evicts: until the budget would give the requester a segment for {@code length} bytes
     * ({@link Evictor#evictForPeer}). Never waits for the lock. A shard whose lock this thread holds already (a
     * multi-shard write, an exclusive section) is left alone: the write may still read entries of it.
     *
     * @param requester the other shard's arena.
     * @param length    the entry it has to place.
     * @param changes   the requesting thread's way into the log, which the evictions are logged to.
     * @return whether the requester's segment would be granted now.
     */
    final boolean evictForPeer(final Arena requester, final int length, final ChangeRecorder changes)
    {
        final long stamp = lock.tryWriteLock();
        if (stamp == 0)
        {
            return false;
        }
        holder(changes);
        try
        {
            return evictionPolicy.evicts() && evictor.evictForPeer(requester, length);
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    private long contendedWriteLock()
    {
        long stamp = 0;
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
     * Releases the write lock, unless the stamp is {@link #OWNED}.
     *
     * @param stamp from {@link #acquireWrite}.
     */
    final void releaseWrite(final long stamp)
    {
        if (stamp != OWNED)
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Releases the write lock, unless the stamp is {@link #OWNED}.
     *
     * @param stamp from {@link #lockWrite(ChangeRecorder)}.
     */
    public void unlockWrite(final long stamp)
    {
        releaseWrite(stamp);
    }

    /**
     * Takes the read lock; the thread of an exclusive section holding the write lock gets {@link #OWNED}.
     *
     * @return the stamp for {@link #unlockRead(long)}.
     */
    public long lockRead()
    {
        if (exclusiveOwner == Thread.currentThread())
        {
            return OWNED;
        }
        return lock.readLock();
    }

    /**
     * Releases the read lock, unless the stamp is {@link #OWNED}.
     *
     * @param stamp from {@link #lockRead()}.
     */
    public void unlockRead(final long stamp)
    {
        if (stamp != OWNED)
        {
            lock.unlockRead(stamp);
        }
    }

    /**
     * Takes the write lock for an exclusive section of the calling thread, which then calls the shard's operations
     * as the lock's holder (class comment) until {@link #unlockExclusive()}. Refuses nothing: a store whose log
     * failed still serves a transaction's reads, and refuses its writes one by one.
     *
     * @param changes where the section's changes are logged, {@code null} for none.
     */
    public void lockExclusive(final ChangeRecorder changes)
    {
        long stamp = lock.tryWriteLock();
        if (stamp == 0)
        {
            stamp = contendedWriteLock();
        }
        holder(changes);
        exclusiveStamp = stamp;
        exclusiveOwner = Thread.currentThread();
    }

    /**
     * Releases the write lock of the calling thread's exclusive section.
     */
    public void unlockExclusive()
    {
        final long stamp = exclusiveStamp;
        exclusiveOwner = null;
        exclusiveStamp = 0;
        lock.unlockWrite(stamp);
    }

    /**
     * Whether the calling thread holds this shard for an exclusive section.
     *
     * @return whether it does.
     */
    public boolean heldExclusivelyByCurrentThread()
    {
        return exclusiveOwner == Thread.currentThread();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Reads
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Copies a key's value into {@code dst}, or into a new array left in {@code c} when {@code dst} is null.
     * Any thread.
     * <p>
     * The common case, a zero-copy read of an entry of a common shape ({@link FastRead}) that no writer
     * overlaps, is one stamp, one probe and one validation; anything else goes to {@link #readRetrying}. The key's
     * range must be inside {@code key}: the caller checks it once ({@link DirectBuffer#boundsCheck}), and the fast
     * path reads the key without checking it again.
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
     * Finds a live key while the caller holds this shard's read or write lock (for {@code getAll}), copying and
     * removing nothing: on a hit, {@code c.entry} describes the entry (its value at {@code valueOffset} of
     * {@code buffer}) until the caller releases the lock. An expired entry is a miss and stays for the sweep.
     *
     * @return the value's length, or {@link AgniStore#NOT_FOUND}.
     */
    public int findValueLocked(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final ThreadContext c)
    {
        final int r = readSlice(table, arena.segments(), IndexLayout.tag(hash), key, keyOffset, keyLength,
            false, 0, 0, null, 0, c);
        if (r == INCONSISTENT)
        {
            throw corrupt("entry unreadable under the lock");
        }
        return r >= 0 ? r : AgniStore.NOT_FOUND;
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
        if (readRetrying(tag, key, keyOffset, keyLength, false, 0, NOT_A_READ, null, 0, c) < 0)
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
            expireIfDue(tag, key, keyOffset, keyLength, c);
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
     * attempts with {@link #readSlice}, spinning between them, then {@link #READ_YIELDS} more, yielding between
     * them, then one under the read lock; an expired entry found is removed. When it
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
        for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS + READ_YIELDS; attempt++)
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
            else if (exclusiveOwner == Thread.currentThread())
            {
                // This thread's exclusive section holds the write lock: read in place.
                r = readSlice(table, arena.segments(), tag, key, keyOffset, keyLength, copySlice, start, end,
                    dst, dstOffset, c);
                if (r == INCONSISTENT)
                {
                    throw corrupt("entry unreadable under the write lock");
                }
                return finishRead(r, tag, key, keyOffset, keyLength, c);
            }
            if (attempt < OPTIMISTIC_ATTEMPTS)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
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
        if (end != NOT_A_READ)
        {
            t.markRead(r);
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

    private void expireIfDue(
        final int tag, final DirectBuffer key, final int keyOffset, final int keyLength, final ThreadContext c)
    {
        if (c.changes != null && c.changes.failed())
        {
            // Read-only: the expired entry stays until reopening; reads skip it by its time all the same.
            return;
        }
        final long stamp = acquireWrite(c.changes);
        try
        {
            findForWrite(tag, key, keyOffset, keyLength, c.entry);
        }
        finally
        {
            releaseWrite(stamp);
        }
    }
}
