package io.agni.store;

import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.SetCondition;
import io.agni.api.WriteBatch;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code write(WriteBatch)} under concurrency: readers never see part of a batch, and batches, multi-key sets and
 * renames over the same shards neither deadlock nor lose a write (docs/architecture.md, "Batch write").
 */
@Tag("stress")
class BatchWriteAtomicityTest
{
    private static final int KEYS = 12;
    private static final int SHARDS = 8;

    /**
     * Two writers write batches that give every one of {@link #KEYS} keys (spread over the shards) the same
     * generation, in values whose lengths and expiry shapes change from batch to batch, so that each batch mixes
     * overwrites in place, new entries, deletes followed by sets, expires and persists. Readers read all the keys at
     * one instant, both forms, and must find one generation in all of them.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void readersOfAllTheKeysSeeEachBatchWholeOrNotAtAll() throws InterruptedException
    {
        final Workers workers = new Workers("readersOfAllTheKeysSeeEachBatchWholeOrNotAtAll");
        final int batchesPerWriter = 20_000;
        final AtomicInteger writersLeft = new AtomicInteger(2);
        final AtomicLong reads = new AtomicLong();
        final List<byte[]> keys = keys("gen");
        final long later = TestStores.START_MS + 60_000;
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            store.write(generation(new WriteBatch(), keys, 0, 0, later));
            workers
                .add(2, w ->
                {
                    final WriteBatch batch = new WriteBatch();
                    try
                    {
                        for (int i = 1; i <= batchesPerWriter && workers.running(); i++)
                        {
                            store.write(generation(batch.clear(), keys, 2 * i + w, i, later));
                        }
                    }
                    finally
                    {
                        writersLeft.decrementAndGet();
                    }
                })
                .add(2, r ->
                {
                    final UnsafeBuffer keyBuffer = new UnsafeBuffer(new byte[KEYS * 8]);
                    final int[] offsets = new int[KEYS];
                    final int[] lengths = new int[KEYS];
                    int at = 0;
                    for (int k = 0; k < KEYS; k++)
                    {
                        keyBuffer.putBytes(at, keys.get(k));
                        offsets[k] = at;
                        lengths[k] = keys.get(k).length;
                        at += lengths[k];
                    }
                    final ExpandableArrayBuffer values = new ExpandableArrayBuffer(1024);
                    final int[] valueLengths = new int[KEYS];
                    int n = 0;
                    while ((writersLeft.get() > 0 || n < 1000) && workers.running())
                    {
                        final long[] generations = new long[KEYS];
                        if ((n & 1) == 0)
                        {
                            final List<byte[]> read = store.getAll(keys);
                            for (int k = 0; k < KEYS; k++)
                            {
                                generations[k] = generationOf(read.get(k));
                            }
                        }
                        else
                        {
                            store.getAll(keyBuffer, offsets, lengths, KEYS, values, 0, valueLengths);
                            int p = 0;
                            for (int k = 0; k < KEYS; k++)
                            {
                                final byte[] value = new byte[Math.max(0, valueLengths[k])];
                                values.getBytes(p, value);
                                p += value.length;
                                generations[k] = valueLengths[k] < 0 ? -1 : generationOf(value);
                            }
                        }
                        for (int k = 1; k < KEYS; k++)
                        {
                            if (generations[k] != generations[0])
                            {
                                fail("a read saw part of a batch: generations " + Arrays.toString(generations));
                            }
                        }
                        n++;
                    }
                    reads.addAndGet(n);
                })
                .start()
                .join(75, TimeUnit.SECONDS);

            assertTrue(reads.get() >= 2000, "readers ran: " + reads.get());
            final List<byte[]> last = store.getAll(keys);
            final long generation = generationOf(last.get(0));
            for (final byte[] value : last)
            {
                assertEquals(generation, generationOf(value));
            }
            assertEquals(KEYS, store.size());
            store.verifyIntegrity();
        }
    }

    /**
     * Batches, {@code setAll}s and renames over keys in every shard, from several threads, each taking its shards'
     * locks in ascending order: none waits forever, and every counter each thread moved ends where it left it.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void batchesSetAllsAndRenamesOverTheSameShardsNeitherDeadlockNorLoseWrites() throws InterruptedException
    {
        final Workers workers = new Workers("batchesSetAllsAndRenamesOverTheSameShardsNeitherDeadlockNorLoseWrites");
        final int rounds = 5_000;
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            workers
                .add(3, w ->
                {
                    final List<byte[]> own = keys("w" + w);
                    final WriteBatch batch = new WriteBatch();
                    final SplittableRandom random = new SplittableRandom(w);
                    for (int i = 1; i <= rounds && workers.running(); i++)
                    {
                        switch (i % 3)
                        {
                            case 0 ->
                            {
                                batch.clear();
                                for (int k = KEYS - 1; k >= 0; k--)
                                {
                                    batch.set(own.get(k), value(i, random.nextInt(40)));
                                }
                                store.write(batch);
                            }
                            case 1 ->
                            {
                                final List<byte[]> values = new ArrayList<>();
                                for (int k = 0; k < KEYS; k++)
                                {
                                    values.add(value(i, random.nextInt(40)));
                                }
                                store.setAll(own, values, SetCondition.ALWAYS);
                            }
                            default ->
                            {
                                final byte[] moved = bytes("w" + w + "-moved");
                                store.set(moved, value(i, 3));
                                assertEquals(RenameResult.RENAMED,
                                    store.rename(moved, own.get(random.nextInt(KEYS)), true));
                                store.write(batch.clear().set(own.get(0), value(i, 5)).delete(moved));
                                for (final byte[] key : own)
                                {
                                    batch.clear().set(key, value(i, 7));
                                    store.write(batch);
                                }
                            }
                        }
                        for (final byte[] key : own)
                        {
                            assertEquals(i, generationOf(store.get(key)), "thread " + w + " lost a write");
                        }
                    }
                })
                .start()
                .join(75, TimeUnit.SECONDS);

            store.verifyIntegrity();
        }
    }

    /**
     * Writes generation {@code g} to every key: a delete then a set of the first, values whose length changes with
     * {@code i} (every third batch keeps the lengths, so those overwrite in place), an expiry time on every key in
     * odd batches and none in even ones, and a persist in between.
     */
    private static WriteBatch generation(
        final WriteBatch batch, final List<byte[]> keys, final long g, final int i, final long later)
    {
        batch.delete(keys.get(0));
        for (int k = 0; k < keys.size(); k++)
        {
            final byte[] value = value(g, i % 3 == 0 ? 0 : (i + k) % 50);
            if (i % 2 == 1)
            {
                batch.set(keys.get(k), value, ExpiryMode.AT, later + i);
            }
            else
            {
                batch.set(keys.get(k), value, ExpiryMode.AT, later).persist(keys.get(k));
            }
        }
        return batch.expire(keys.get(keys.size() - 1), later + 2L * i);
    }

    private static List<byte[]> keys(final String prefix)
    {
        final List<byte[]> keys = new ArrayList<>();
        for (int k = 0; k < KEYS; k++)
        {
            keys.add(bytes(prefix + "-" + k));
        }
        return keys;
    }

    private static byte[] value(final long generation, final int padding)
    {
        return bytes(generation + ";" + "p".repeat(padding));
    }

    private static long generationOf(final byte[] value)
    {
        if (value == null)
        {
            return -1;
        }
        final String text = new String(value, StandardCharsets.US_ASCII);
        return Long.parseLong(text.substring(0, text.indexOf(';')));
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
