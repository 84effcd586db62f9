package io.agni.store;

import io.agni.api.SetCondition;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryLayout;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One atomic multi-key set ({@code setAll}): lock every shard involved in ascending order, check the condition,
 * grow the tables, write every new entry into fresh arena space, and only then link them all into the indexes, so
 * that a refusal by the budget changes nothing visible and a reader of any key sees all or none of the new values
 * (docs/architecture.md, "Multi-key set").
 */
final class MultiSet
{
    private final OffHeapStore store;
    private final UnsafeBuffer[] keys;
    private final UnsafeBuffer[] values;
    private final long[] hashes;
    private final int[] shardOf;
    private final int count;

    MultiSet(final OffHeapStore store, final List<byte[]> keyList, final List<byte[]> valueList)
    {
        this.store = store;
        final int n = keyList.size();
        final Map<ByteBuffer, Integer> last = new HashMap<>();
        for (int i = 0; i < n; i++)
        {
            last.put(ByteBuffer.wrap(keyList.get(i)), i);
        }
        final int unique = last.size();
        keys = new UnsafeBuffer[unique];
        values = new UnsafeBuffer[unique];
        hashes = new long[unique];
        shardOf = new int[unique];
        int u = 0;
        for (int i = 0; i < n; i++)
        {
            if (last.get(ByteBuffer.wrap(keyList.get(i))) == i)
            {
                keys[u] = new UnsafeBuffer(keyList.get(i));
                values[u] = new UnsafeBuffer(valueList.get(i));
                hashes[u] = store.hash(keys[u], 0, keys[u].capacity());
                shardOf[u] = store.shardIndex(hashes[u]);
                u++;
            }
        }
        count = unique;
    }

    boolean run(final SetCondition condition, final ThreadContext c)
    {
        final int[] order = OffHeapStore.distinctSorted(shardOf);
        final long[] stamps = new long[order.length];
        for (int j = 0; j < order.length; j++)
        {
            stamps[j] = store.shardAt(order[j]).lockWrite();
        }
        try
        {
            final boolean[] present = new boolean[count];
            for (int i = 0; i < count; i++)
            {
                present[i] = shard(i).containsLocked(hashes[i], keys[i], 0, keys[i].capacity(), c.entry);
                if (condition == SetCondition.IF_ABSENT && present[i] ||
                    condition == SetCondition.IF_PRESENT && !present[i])
                {
                    return false;
                }
            }
            for (final int s : order)
            {
                int newKeys = 0;
                for (int i = 0; i < count; i++)
                {
                    if (shardOf[i] == s && !present[i])
                    {
                        newKeys++;
                    }
                }
                if (newKeys > 0)
                {
                    store.shardAt(s).ensureRoomLocked(newKeys);
                }
            }
            final long[] locations = new long[count];
            int prepared = 0;
            int linked = 0;
            try
            {
                for (; prepared < count; prepared++)
                {
                    final int i = prepared;
                    final long location = shard(i).prepareLocked(
                        keys[i], 0, keys[i].capacity(), values[i], 0, values[i].capacity());
                    if (location == Arena.NO_SPACE)
                    {
                        shard(i).countRejectedLocked();
                        throw OffHeapStore.budgetExceeded(
                            EntryLayout.length(keys[i].capacity(), values[i].capacity(), false), store.budget());
                    }
                    locations[i] = location;
                }
                for (; linked < count; linked++)
                {
                    shard(linked).linkLocked(hashes[linked], keys[linked], 0, keys[linked].capacity(),
                        locations[linked], false, c.entry);
                }
            }
            catch (final Throwable ex)
            {
                // Whatever stopped the batch (the budget, or an error), the entries written and not linked are
                // dropped: left pinned, their segments could never be compacted or recycled.
                for (int j = linked; j < prepared; j++)
                {
                    shard(j).abandonLocked(locations[j], keys[j].capacity(), values[j].capacity());
                }
                throw ex;
            }
            for (final int s : order)
            {
                long written = 0;
                for (int i = 0; i < count; i++)
                {
                    if (shardOf[i] == s)
                    {
                        written += EntryLayout.length(keys[i].capacity(), values[i].capacity(), false);
                    }
                }
                store.shardAt(s).maybeCompactLocked(written);
            }
            return true;
        }
        finally
        {
            for (int j = order.length - 1; j >= 0; j--)
            {
                store.shardAt(order[j]).unlockWrite(stamps[j]);
            }
        }
    }

    private Shard shard(final int i)
    {
        return store.shardAt(shardOf[i]);
    }
}
