package io.agni.store;

import io.agni.api.InvalidCursorException;
import io.agni.api.ScanResult;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The store-wide cursor scan of one {@link OffHeapStore} (docs/architecture.md, "Scan"): the cursor's layout, the
 * refusal of a cursor the store could not have returned, and the walk from shard to shard.
 *
 * <h2>Cursor</h2>
 * {@code shardIndex << 32 | bucketCursor}: the shard in the high 32 bits, a position among that shard's home
 * buckets in reverse-binary order in the low 32 (what {@link Shard#scan} returns). A shard's bucket cursor is below
 * the size of its index table when returned; a table doubles and, on {@code clear()}, shrinks, so a cursor returned
 * before may have bits the table does not have now, and {@link Shard#scan} takes it as Redis's {@code dictScan}
 * does, by its low bits.
 *
 * <h2>Count</h2>
 * As Redis's {@code SCAN}: a step stops once it has seen {@code count} live keys (matching the pattern or not), at
 * the end of a bucket, or after {@code 10 * count} buckets but at least {@link #MIN_BUCKETS}, whichever comes first.
 * So a step's work is bounded however sparse the index is (an empty bucket costs one load), and a default step
 * (count 10) returns about ten keys when the store holds that many: a small store's index has far more buckets than
 * keys (16 slots per shard to start with, 8 shards on 2 cores), where Redis's table has about one per key.
 *
 * <h2>Validation</h2>
 * The store records, per shard, the union of the bits of every bucket cursor it has returned for that shard. A
 * cursor is refused, with an {@link InvalidCursorException} that carries no stack trace, unless its shard index is
 * below the number of shards and its bucket cursor has no bit outside that shard's record: so every bit the store
 * could not have returned is refused, and every cursor it did return is taken back, whatever happened between
 * (growth, {@code clear()}). Cursor 0 always starts a scan. The record only grows, and is written only when a
 * returned cursor has a new bit: a steady scan reads one volatile word per step.
 *
 * <h2>Threads</h2>
 * Any thread. A bit is recorded (a volatile CAS) before the cursor holding it is returned, so a thread given the
 * cursor afterwards reads the bit in the record.
 */
final class StoreScan
{
    private static final long BUCKET_MASK = 0xFFFF_FFFFL;
    /**
     * The buckets a step may visit per key of its count: Redis's bound on the empty buckets one SCAN call walks.
     */
    static final int BUCKETS_PER_KEY = 10;
    /**
     * The buckets a step may visit whatever its count: every bucket of a new store's tables at the largest default
     * shard count (256 shards of 16), a few microseconds of empty loads.
     */
    static final int MIN_BUCKETS = 4096;

    private final Shard[] shards;
    private final AtomicLongArray returnedBits;

    StoreScan(final Shards shards)
    {
        this.shards = shards.all;
        this.returnedBits = new AtomicLongArray(shards.count());
    }

    /**
     * One step of the scan; the caller has entered the store's operation gate.
     *
     * @param cursor  0 to start, else a cursor a step returned.
     * @param pattern glob pattern or null.
     * @param buckets  the buckets to visit at most, at least 1.
     * @param liveKeys after how many live keys to stop, at the end of a bucket; at least 1.
     * @param c       the caller's context.
     * @return the keys found and the next cursor.
     * @throws InvalidCursorException if the store could not have returned {@code cursor}.
     */
    ScanResult step(
        final long cursor, final byte[] pattern, final int buckets, final int liveKeys, final ThreadContext c)
    {
        if (!couldHaveReturned(cursor))
        {
            throw new InvalidCursorException("invalid cursor: " + Long.toUnsignedString(cursor));
        }
        int shardIndex = (int)(cursor >>> 32);
        final List<byte[]> keys = new ArrayList<>();
        long bucket = cursor & BUCKET_MASK;
        int bucketsLeft = buckets;
        int keysLeft = liveKeys;
        while (true)
        {
            final long next = shards[shardIndex].scan(bucket, bucketsLeft, keysLeft, pattern, keys, c);
            if (next != 0)
            {
                record(shardIndex, next);
                return new ScanResult(((long)shardIndex << 32) | next, keys);
            }
            bucketsLeft -= c.scannedBuckets;
            keysLeft -= c.scannedKeys;
            if (++shardIndex == shards.length)
            {
                return new ScanResult(0, keys);
            }
            bucket = 0;
            if (bucketsLeft <= 0 || keysLeft <= 0)
            {
                return new ScanResult((long)shardIndex << 32, keys);
            }
        }
    }

    /**
     * The buckets a step of {@code count} may visit (class comment).
     *
     * @param count the step's count, at least 1.
     * @return buckets.
     */
    static int bucketsFor(final int count)
    {
        return (int)Math.min(Integer.MAX_VALUE, Math.max(MIN_BUCKETS, (long)count * BUCKETS_PER_KEY));
    }

    /**
     * Whether a cursor is one this store could have returned: a shard it has, and only bucket bits it has returned
     * for that shard.
     *
     * @param cursor the cursor.
     * @return {@code true} if {@link #step} takes it.
     */
    boolean couldHaveReturned(final long cursor)
    {
        final long shardIndex = cursor >>> 32;
        if (shardIndex >= shards.length)
        {
            return false;
        }
        return ((cursor & BUCKET_MASK) & ~returnedBits.get((int)shardIndex)) == 0;
    }

    private void record(final int shardIndex, final long bucketCursor)
    {
        long had = returnedBits.get(shardIndex);
        while ((had | bucketCursor) != had)
        {
            // Pairs with the volatile read in couldHaveReturned: the bit is in the record before the cursor leaves.
            if (returnedBits.compareAndSet(shardIndex, had, had | bucketCursor))
            {
                return;
            }
            had = returnedBits.get(shardIndex);
        }
    }
}
