package io.agni.store;

import io.agni.store.shard.ThreadContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * One multi-key read ({@code getAll}, docs/architecture.md, "Multi-key set"): take the read lock of every shard
 * involved in ascending order, read every key under those locks, release them in reverse order. Because
 * {@link MultiSet} holds the write locks of its shards while it links its entries, a reader sees all of a
 * concurrent {@code setAll}'s values or none.
 */
final class MultiGet
{
    private MultiGet()
    {
    }

    /**
     * Reads the keys, counting hits and misses in {@code c}. The caller has checked the keys' lengths and entered
     * the gate.
     *
     * @param store the store.
     * @param keys  the keys.
     * @param c     the calling thread's context.
     * @return the values in the keys' order, {@code null} for an absent key.
     */
    static List<byte[]> run(final OffHeapStore store, final List<byte[]> keys, final ThreadContext c)
    {
        final int n = keys.size();
        final UnsafeBuffer[] wrapped = new UnsafeBuffer[n];
        final long[] hashes = new long[n];
        final int[] involved = new int[n];
        for (int i = 0; i < n; i++)
        {
            wrapped[i] = new UnsafeBuffer(keys.get(i));
            hashes[i] = store.hash(wrapped[i], 0, wrapped[i].capacity());
            involved[i] = store.shardIndex(hashes[i]);
        }
        final int[] order = OffHeapStore.distinctSorted(involved);
        final long[] stamps = new long[order.length];
        for (int j = 0; j < order.length; j++)
        {
            stamps[j] = store.shardAt(order[j]).lockRead();
        }
        final List<byte[]> values = new ArrayList<>(n);
        try
        {
            for (int i = 0; i < n; i++)
            {
                final byte[] v = store.shardAt(involved[i]).getLocked(
                    hashes[i], wrapped[i], 0, wrapped[i].capacity(), c);
                if (v != null)
                {
                    c.hits++;
                }
                else
                {
                    c.misses++;
                }
                values.add(v);
            }
        }
        finally
        {
            for (int j = order.length - 1; j >= 0; j--)
            {
                store.shardAt(order[j]).unlockRead(stamps[j]);
            }
        }
        return values;
    }
}
