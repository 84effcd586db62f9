package io.agni.store;

import io.agni.api.SetCondition;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryLayout;
import io.agni.store.log.ChangeRecorder;
import io.agni.store.log.LogLayout;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.List;

/**
 * One atomic multi-key set ({@code setAll}): lock every shard involved in ascending order, check the condition,
 * grow the tables, write every new entry into fresh arena space, and only then link them all into the indexes, so
 * that a refusal by the budget changes nothing visible and a reader of any key sees all or none of the new values
 * (docs/architecture.md, "Multi-key set"). A batch the budget refuses part-way is tried once more after each shard
 * compacted in place for its part, since the entries written before the refusal pinned their segments.
 *
 * <h2>Memory</h2>
 * One instance per thread, reused: its arrays grow to the largest batch and are dropped after a batch of more than
 * {@link #KEEP_PAIRS} pairs, so an {@code MSET} of a few keys allocates nothing in steady state. Repeated keys are
 * found with a small open-addressing table of pair indexes keyed by the keys' hashes, not with boxed map keys. After
 * each batch the references to the caller's buffers and arrays are cleared, so a thread's instance never keeps a
 * caller's data alive.
 *
 * <h2>Concurrency</h2>
 * Confined to its thread; {@link #load} then {@link #run} within one operation of the store's gate.
 */
final class MultiSet
{
    /**
     * The most pairs whose arrays are kept for the next batch.
     */
    static final int KEEP_PAIRS = 1024;

    private static final int INITIAL_PAIRS = 16;
    private static final byte[] NO_BYTES = new byte[0];

    private DirectBuffer[] keyBuffers;
    private int[] keyOffsets;
    private int[] keyLengths;
    private DirectBuffer[] valueBuffers;
    private int[] valueOffsets;
    private int[] valueLengths;
    private long[] hashes;
    private int[] shardOf;
    private int[] order;
    private long[] stamps;
    private boolean[] present;
    private long[] locations;
    private int[] seen;
    private UnsafeBuffer[] wrappers;
    private int wrappersUsed;
    private int count;
    private final ShardOrder shardOrder = new ShardOrder();
    /**
     * Per shard index, the batch's new keys and written bytes; sized to the store's shard count on first use.
     */
    private int[] newKeysOf = new int[0];
    private long[] bytesOf = new long[0];

    MultiSet()
    {
        allocate(INITIAL_PAIRS);
    }

    /**
     * Loads a batch of {@code byte[]} pairs; a repeated key keeps its last value. The lengths were checked.
     */
    void load(final Shards store, final List<byte[]> keys, final List<byte[]> values)
    {
        final int n = keys.size();
        ensure(n);
        for (int i = 0; i < n; i++)
        {
            final byte[] key = keys.get(i);
            final byte[] value = values.get(i);
            keyBuffers[i] = wrap(key);
            keyOffsets[i] = 0;
            keyLengths[i] = key.length;
            valueBuffers[i] = wrap(value);
            valueOffsets[i] = 0;
            valueLengths[i] = value.length;
        }
        dedupe(store, n);
    }

    /**
     * Loads a batch of pairs in one buffer: pair {@code i}'s key at {@code offsets[2i]}, its value at
     * {@code offsets[2i + 1]}. A repeated key keeps its last value. The lengths were checked.
     */
    void load(
        final Shards store, final DirectBuffer buffer, final int[] offsets, final int[] lengths, final int pairs)
    {
        ensure(pairs);
        for (int i = 0; i < pairs; i++)
        {
            keyBuffers[i] = buffer;
            keyOffsets[i] = offsets[2 * i];
            keyLengths[i] = lengths[2 * i];
            valueBuffers[i] = buffer;
            valueOffsets[i] = offsets[2 * i + 1];
            valueLengths[i] = lengths[2 * i + 1];
        }
        dedupe(store, pairs);
    }

    /**
     * Writes the loaded batch, then forgets it (also when it throws).
     *
     * @return {@code false} if the condition refused the batch.
     */
    boolean run(final Shards store, final SetCondition condition, final ThreadContext c)
    {
        try
        {
            return write(store, condition, c);
        }
        finally
        {
            forget();
        }
    }

    private boolean write(final Shards store, final SetCondition condition, final ThreadContext c)
    {
        final int shards = shardOrder.sort(shardOf, count, store.count(), order);
        final ChangeRecorder log = c.changes;
        int locked = 0;
        try
        {
            for (; locked < shards; locked++)
            {
                stamps[locked] = store.at(order[locked]).lockWrite(log);
            }
            if (log != null)
            {
                checkLogRoom();
                // One record for the whole batch, so that it is recovered all or nothing.
                log.beginBatch();
            }
            for (int i = 0; i < count; i++)
            {
                present[i] = shard(store, i).containsLocked(hashes[i], keyBuffers[i], keyOffsets[i], keyLengths[i],
                    c.entry);
                if (condition == SetCondition.IF_ABSENT && present[i] ||
                    condition == SetCondition.IF_PRESENT && !present[i])
                {
                    return false;
                }
            }
            makeRoom(store, shards);
            writeAndLink(store, shards, c, log);
            compact(store, shards);
            return true;
        }
        finally
        {
            BatchWrite.endBatchAndUnlock(store, log, order, stamps, locked);
        }
    }

    /**
     * Grows each shard's table for the batch's keys it does not hold.
     */
    private void makeRoom(final Shards store, final int shards)
    {
        final int[] newKeys = perShardKeys(store.count());
        for (int j = 0; j < shards; j++)
        {
            newKeys[order[j]] = 0;
        }
        for (int i = 0; i < count; i++)
        {
            if (!present[i])
            {
                newKeys[shardOf[i]]++;
            }
        }
        for (int j = 0; j < shards; j++)
        {
            final int s = order[j];
            if (newKeys[s] > 0)
            {
                store.at(s).ensureRoomLocked(newKeys[s]);
            }
        }
    }

    /**
     * Lets each shard compact for the bytes the batch wrote into it.
     */
    private void compact(final Shards store, final int shards)
    {
        final long[] bytes = perShardBytes(store.count());
        for (int j = 0; j < shards; j++)
        {
            bytes[order[j]] = 0;
        }
        for (int i = 0; i < count; i++)
        {
            bytes[shardOf[i]] += EntryLayout.length(keyLengths[i], valueLengths[i], false);
        }
        for (int j = 0; j < shards; j++)
        {
            final int s = order[j];
            store.at(s).maybeCompactLocked(bytes[s]);
        }
    }

    /**
     * Writes every entry unlinked, appends the batch's record, then links them all. When the budget refuses an entry
     * part-way, the entries written so far are abandoned (unpinning their segments), each shard compacts in place for
     * its part of the batch, and the batch is written once more; a second refusal, or a record the log refuses,
     * throws with nothing visible changed.
     */
    private void writeAndLink(final Shards store, final int shards, final ThreadContext c, final ChangeRecorder log)
    {
        int refused = prepareAll(store);
        if (refused >= 0)
        {
            for (int j = 0; j < shards; j++)
            {
                final int s = order[j];
                final long bytes = regularBytes(s);
                if (bytes > 0)
                {
                    store.at(s).reclaimForBatchLocked(bytes);
                }
            }
            refused = prepareAll(store);
            if (refused >= 0)
            {
                shard(store, refused).countRejectedLocked();
                throw store.budgetExceeded(EntryLayout.length(keyLengths[refused], valueLengths[refused], false));
            }
        }
        if (log != null)
        {
            // The record before any key changes: one the log refuses leaves every key as it was.
            try
            {
                for (int i = 0; i < count; i++)
                {
                    log.set(keyBuffers[i], keyOffsets[i], keyLengths[i], valueBuffers[i], valueOffsets[i],
                        valueLengths[i], LogLayout.NO_EXPIRY);
                }
                log.endBatch();
            }
            catch (final Throwable ex)
            {
                abandon(store, 0, count);
                throw ex;
            }
        }
        int linked = 0;
        try
        {
            for (; linked < count; linked++)
            {
                final int i = linked;
                if (present[i])
                {
                    shard(store, i).linkLocked(hashes[i], keyBuffers[i], keyOffsets[i], keyLengths[i], locations[i],
                        false, c.entry);
                }
                else
                {
                    // Found absent under the lock held since: no second lookup (ShardStorage.linkNewLocked).
                    shard(store, i).linkNewLocked(hashes[i], locations[i], false);
                }
            }
        }
        catch (final Throwable ex)
        {
            abandon(store, linked, count);
            throw ex;
        }
    }

    /**
     * Writes every entry into fresh arena space, unlinked, each pinning its segment.
     *
     * @return -1 if every entry was written, else the index of the entry the budget refused; the entries written
     * before it are abandoned.
     */
    private int prepareAll(final Shards store)
    {
        int prepared = 0;
        try
        {
            for (; prepared < count; prepared++)
            {
                final int i = prepared;
                final long location = shard(store, i).prepareLocked(
                    keyBuffers[i], keyOffsets[i], keyLengths[i], valueBuffers[i], valueOffsets[i], valueLengths[i],
                    false, 0);
                if (location == Arena.NO_SPACE)
                {
                    break;
                }
                locations[i] = location;
            }
        }
        catch (final Throwable ex)
        {
            abandon(store, 0, prepared);
            throw ex;
        }
        if (prepared == count)
        {
            return -1;
        }
        abandon(store, 0, prepared);
        return prepared;
    }

    /**
     * Drops the entries {@code from} (inclusive) to {@code to} (exclusive), written and not linked, last first so
     * that each gives its space back: left pinned, their segments could never be compacted or recycled.
     */
    private void abandon(final Shards store, final int from, final int to)
    {
        for (int j = to - 1; j >= from; j--)
        {
            shard(store, j).abandonLocked(locations[j], keyLengths[j], valueLengths[j]);
        }
    }

    /**
     * The bytes of the batch's entries in shard {@code s} short enough for a regular segment (compaction in place
     * cannot place the others).
     */
    private long regularBytes(final int s)
    {
        long bytes = 0;
        for (int i = 0; i < count; i++)
        {
            if (shardOf[i] == s)
            {
                final long length = EntryLayout.length(keyLengths[i], valueLengths[i], false);
                if (length <= Arena.LARGE_ENTRY_BYTES)
                {
                    bytes += length;
                }
            }
        }
        return bytes;
    }

    /**
     * Refuses, before anything changes, a batch whose log record could not be written: each pair logs its whole
     * value, and each key may log the removal of an expired entry found on the way.
     */
    private void checkLogRoom()
    {
        long total = LogLayout.BATCH_FIXED_LENGTH;
        for (int i = 0; i < count; i++)
        {
            total += 2 + LogLayout.DELETE_FIXED_LENGTH + LogLayout.SET_FIXED_LENGTH + 2L * keyLengths[i] +
                valueLengths[i];
        }
        if (total > ChangeRecorder.MAX_BATCH_BYTES)
        {
            throw new IllegalArgumentException("batch too large for one log record: bytes=" + total + ", limit=" +
                ChangeRecorder.MAX_BATCH_BYTES);
        }
    }

    /**
     * Hashes every pair and keeps, in order, only the last pair of each key.
     */
    private void dedupe(final Shards store, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            hashes[i] = store.hash(keyBuffers[i], keyOffsets[i], keyLengths[i]);
            present[i] = false; // here: "a later pair has the same key"
        }
        // A table of at least twice the pairs (a prefix of the reused array), so that a small batch after a large one
        // clears only what it uses.
        final int size = tableSize(n);
        final int mask = size - 1;
        Arrays.fill(seen, 0, size, -1);
        for (int i = 0; i < n; i++)
        {
            int slot = (int)hashes[i] & mask;
            while (true)
            {
                final int j = seen[slot];
                if (j < 0)
                {
                    seen[slot] = i;
                    break;
                }
                if (hashes[j] == hashes[i] && sameKey(j, i))
                {
                    present[j] = true;
                    seen[slot] = i;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        int u = 0;
        for (int i = 0; i < n; i++)
        {
            if (!present[i])
            {
                keyBuffers[u] = keyBuffers[i];
                keyOffsets[u] = keyOffsets[i];
                keyLengths[u] = keyLengths[i];
                valueBuffers[u] = valueBuffers[i];
                valueOffsets[u] = valueOffsets[i];
                valueLengths[u] = valueLengths[i];
                hashes[u] = hashes[i];
                shardOf[u] = store.index(hashes[i]);
                u++;
            }
        }
        for (int i = u; i < n; i++)
        {
            keyBuffers[i] = null;
            valueBuffers[i] = null;
        }
        count = u;
    }

    private boolean sameKey(final int a, final int b)
    {
        final int length = keyLengths[a];
        if (length != keyLengths[b])
        {
            return false;
        }
        return Bytes.equal(keyBuffers[a], keyOffsets[a], keyBuffers[b], keyOffsets[b], length);
    }

    private Shard shard(final Shards store, final int i)
    {
        return store.at(shardOf[i]);
    }

    private UnsafeBuffer wrap(final byte[] array)
    {
        if (wrappersUsed == wrappers.length)
        {
            wrappers = Arrays.copyOf(wrappers, wrappers.length * 2);
        }
        UnsafeBuffer wrapper = wrappers[wrappersUsed];
        if (wrapper == null)
        {
            wrapper = new UnsafeBuffer(array);
            wrappers[wrappersUsed] = wrapper;
        }
        else
        {
            wrapper.wrap(array);
        }
        wrappersUsed++;
        return wrapper;
    }

    private void forget()
    {
        Arrays.fill(keyBuffers, 0, count, null);
        Arrays.fill(valueBuffers, 0, count, null);
        for (int i = 0; i < wrappersUsed; i++)
        {
            wrappers[i].wrap(NO_BYTES);
        }
        wrappersUsed = 0;
        count = 0;
        if (keyBuffers.length > KEEP_PAIRS)
        {
            allocate(INITIAL_PAIRS);
        }
    }

    private void ensure(final int pairs)
    {
        if (pairs > keyBuffers.length)
        {
            allocate(Math.max(pairs, 2 * keyBuffers.length));
        }
        wrappersUsed = 0;
    }

    private int[] perShardKeys(final int shards)
    {
        if (newKeysOf.length < shards)
        {
            newKeysOf = new int[shards];
        }
        return newKeysOf;
    }

    private long[] perShardBytes(final int shards)
    {
        if (bytesOf.length < shards)
        {
            bytesOf = new long[shards];
        }
        return bytesOf;
    }

    private static int tableSize(final int pairs)
    {
        return Integer.highestOneBit(Math.max(2, pairs - 1)) << 2;
    }

    private void allocate(final int pairs)
    {
        keyBuffers = new DirectBuffer[pairs];
        keyOffsets = new int[pairs];
        keyLengths = new int[pairs];
        valueBuffers = new DirectBuffer[pairs];
        valueOffsets = new int[pairs];
        valueLengths = new int[pairs];
        hashes = new long[pairs];
        shardOf = new int[pairs];
        order = new int[pairs];
        stamps = new long[pairs];
        present = new boolean[pairs];
        locations = new long[pairs];
        seen = new int[tableSize(pairs)];
        wrappers = new UnsafeBuffer[2 * pairs];
    }
}
