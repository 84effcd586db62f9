package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.store.arena.EntryCursor;
import io.agni.store.shard.ThreadContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One multi-key read ({@code getAll}, docs/architecture.md, "Multi-key get"): take the read lock of every shard
 * involved in ascending order, read every key under those locks, release them in reverse order. Because
 * {@link MultiSet} holds the write locks of its shards while it links its entries, a reader sees all of a
 * concurrent {@code setAll}'s values or none. Under the read locks no writer moves or frees an entry, so a value
 * is copied once, straight from the arena into the caller's buffer (or a new array for the {@code List} form).
 *
 * <h2>Memory</h2>
 * One instance per thread, reused: its arrays grow to the largest batch and are dropped after a batch of more than
 * {@link #KEEP_KEYS} keys, so the zero-copy form allocates nothing for a few keys in steady state. After each batch
 * the references to the caller's buffers and arrays are cleared.
 *
 * <h2>Concurrency</h2>
 * Confined to its thread; {@link #load} then {@link #readInto} or {@link #readArrays} within one operation of the
 * store's gate.
 */
final class MultiGet
{
    /**
     * The most keys whose arrays are kept for the next batch.
     */
    static final int KEEP_KEYS = 1024;

    private static final int INITIAL_KEYS = 16;
    private static final byte[] NO_BYTES = new byte[0];

    private DirectBuffer[] keyBuffers;
    private int[] keyOffsets;
    private int[] keyLengths;
    private long[] hashes;
    private int[] shardOf;
    private int[] order;
    private final ShardOrder shardOrder = new ShardOrder();
    private long[] stamps;
    private UnsafeBuffer[] wrappers;
    private int count;

    MultiGet()
    {
        allocate(INITIAL_KEYS);
    }

    /**
     * The argument checks of the zero-copy {@code getAll}, before the keys' lengths are checked against the limit.
     *
     * @throws IllegalArgumentException if {@code count} is negative or an array is shorter than it.
     */
    static void checkBatch(
        final DirectBuffer keys, final int[] keyOffsets, final int[] keyLengths, final int count,
        final MutableDirectBuffer dst, final int[] valueLengths)
    {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(dst, "dst");
        if (count < 0 || keyOffsets.length < count || keyLengths.length < count || valueLengths.length < count)
        {
            throw new IllegalArgumentException("count out of range: count=" + count + ", keyOffsets=" +
                keyOffsets.length + ", keyLengths=" + keyLengths.length + ", valueLengths=" + valueLengths.length);
        }
    }

    /**
     * Loads {@code byte[]} keys, whose lengths were checked.
     */
    void load(final Shards store, final List<byte[]> keys)
    {
        final int n = keys.size();
        ensure(n);
        for (int i = 0; i < n; i++)
        {
            final byte[] key = keys.get(i);
            final UnsafeBuffer wrapper = wrappers[i] == null ? (wrappers[i] = new UnsafeBuffer(key)) : wrappers[i];
            wrapper.wrap(key);
            put(store, i, wrapper, 0, key.length);
        }
        count = n;
    }

    /**
     * Loads keys that lie in one buffer, whose lengths were checked.
     */
    void load(
        final Shards store, final DirectBuffer buffer, final int[] offsets, final int[] lengths, final int n)
    {
        ensure(n);
        for (int i = 0; i < n; i++)
        {
            put(store, i, buffer, offsets[i], lengths[i]);
        }
        count = n;
    }

    /**
     * Reads the loaded keys into new arrays, counting hits and misses in {@code c}, then forgets them.
     *
     * @return the values in the keys' order, {@code null} for an absent or expired key.
     */
    List<byte[]> readArrays(final Shards store, final ThreadContext c)
    {
        final List<byte[]> values = new ArrayList<>(count);
        final int shards = lockShards(store);
        try
        {
            final EntryCursor e = c.entry;
            for (int i = 0; i < count; i++)
            {
                final int length = find(store, i, c);
                byte[] value = null;
                if (length >= 0)
                {
                    value = new byte[length];
                    e.buffer.getBytes(e.valueOffset, value);
                }
                values.add(value);
            }
        }
        finally
        {
            unlockShards(store, shards);
            forget();
        }
        return values;
    }

    /**
     * Copies the values of the loaded keys one after another into {@code dst}, their lengths into
     * {@code valueLengths}, counting hits and misses in {@code c}, then forgets the keys.
     *
     * @return the bytes copied.
     * @throws IndexOutOfBoundsException if {@code dst} cannot hold them and cannot grow, or they pass 2 GiB.
     */
    int readInto(
        final Shards store, final MutableDirectBuffer dst, final int dstOffset, final int[] valueLengths,
        final ThreadContext c)
    {
        final int shards = lockShards(store);
        try
        {
            final EntryCursor e = c.entry;
            long position = dstOffset;
            for (int i = 0; i < count; i++)
            {
                final int length = find(store, i, c);
                valueLengths[i] = length;
                if (length >= 0)
                {
                    final long end = position + length;
                    if (end > Integer.MAX_VALUE || !dst.isExpandable() && end > dst.capacity())
                    {
                        throw new IndexOutOfBoundsException(
                            "destination too small: needed=" + end + ", capacity=" + dst.capacity());
                    }
                    dst.putBytes((int)position, e.buffer, e.valueOffset, length);
                    position = end;
                }
            }
            return (int)(position - dstOffset);
        }
        finally
        {
            unlockShards(store, shards);
            forget();
        }
    }

    private int find(final Shards store, final int i, final ThreadContext c)
    {
        final int length = store.at(shardOf[i]).findValueLocked(
            hashes[i], keyBuffers[i], keyOffsets[i], keyLengths[i], c);
        if (length == AgniStore.NOT_FOUND)
        {
            c.misses++;
        }
        else
        {
            c.hits++;
        }
        return length;
    }

    private void put(final Shards store, final int i, final DirectBuffer buffer, final int offset, final int length)
    {
        keyBuffers[i] = buffer;
        keyOffsets[i] = offset;
        keyLengths[i] = length;
        hashes[i] = store.hash(buffer, offset, length);
        shardOf[i] = store.index(hashes[i]);
    }

    /**
     * Takes the read lock of each distinct shard of the batch in ascending order.
     *
     * @return how many shards were locked.
     */
    private int lockShards(final Shards store)
    {
        final int shards = shardOrder.sort(shardOf, count, store.count(), order);
        int locked = 0;
        try
        {
            for (; locked < shards; locked++)
            {
                stamps[locked] = store.at(order[locked]).lockRead();
            }
        }
        catch (final Throwable ex)
        {
            unlockShards(store, locked);
            throw ex;
        }
        return shards;
    }

    private void unlockShards(final Shards store, final int locked)
    {
        for (int j = locked - 1; j >= 0; j--)
        {
            store.at(order[j]).unlockRead(stamps[j]);
        }
    }

    private void forget()
    {
        Arrays.fill(keyBuffers, 0, count, null);
        for (int i = 0; i < count; i++)
        {
            if (wrappers[i] != null)
            {
                wrappers[i].wrap(NO_BYTES);
            }
        }
        count = 0;
        if (keyBuffers.length > KEEP_KEYS)
        {
            allocate(INITIAL_KEYS);
        }
    }

    private void ensure(final int keys)
    {
        if (keys > keyBuffers.length)
        {
            allocate(Math.max(keys, 2 * keyBuffers.length));
        }
    }

    private void allocate(final int keys)
    {
        keyBuffers = new DirectBuffer[keys];
        keyOffsets = new int[keys];
        keyLengths = new int[keys];
        hashes = new long[keys];
        shardOf = new int[keys];
        order = new int[keys];
        stamps = new long[keys];
        wrappers = new UnsafeBuffer[keys];
    }
}
