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

    private final Shard[] shards;
    private final AtomicLongArray returnedBits;

    StoreScan(final Shard[] shards)
    {
        this.shards = shards;
        this.returnedBits = new AtomicLongArray(shards.length);
    }

    /**
     * One step of the scan; the caller has entered the store's operation gate.
     *
     * @param cursor  0 to start, else a cursor a step returned.
     * @param pattern glob pattern or null.
     * @param count   buckets to visit at most, at least 1.
     * @param c       the caller's context.
     * @return the keys found and the next cursor.
     * @throws InvalidCursorException if the store could not have returned {@code cursor}.
     */
    ScanResult step(final long cursor, final byte[] pattern, final int count, final ThreadContext c)
    {
        if (!couldHaveReturned(cursor))
        {
            throw new InvalidCursorException("invalid cursor: " + Long.toUnsignedString(cursor));
        }
        int shardIndex = (int)(cursor >>> 32);
        final List<byte[]> keys = new ArrayList<>();
        long bucket = cursor & BUCKET_MASK;
        int budget = count;
        while (true)
        {
            final long next = shards[shardIndex].scan(bucket, budget, pattern, keys, c);
            if (next != 0)
            {
                record(shardIndex, next);
                return new ScanResult(((long)shardIndex << 32) | next, keys);
            }
            budget -= c.scannedBuckets;
            if (++shardIndex == shards.length)
            {
                return new ScanResult(0, keys);
            }
            bucket = 0;
            if (budget <= 0)
            {
                return new ScanResult((long)shardIndex << 32, keys);
            }
        }
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
