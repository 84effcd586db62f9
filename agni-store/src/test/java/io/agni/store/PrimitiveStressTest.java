package io.agni.store;

import io.agni.api.RenameResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Threads racing on the primitives the Redis command layer needs: renames across shards neither lose nor duplicate
 * a value (checked by readers that see all keys at one instant) and never deadlock; concurrent setRange and
 * incrementByFloat calls lose no update. Bounded by operation counts; every thread is joined with a timeout.
 */
@Tag("stress")
class PrimitiveStressTest
{
    private static final int THREADS = 4;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void renamesAcrossShardsNeverLoseOrDuplicateAValue() throws InterruptedException
    {
        final int slots = 24;
        final int values = 8;
        final int renamesPerThread = 20_000;
        final AtomicLong snapshots = new AtomicLong();
        final AtomicInteger renamersLeft = new AtomicInteger(THREADS - 1);
        final Workers workers = new Workers("renamesAcrossShardsNeverLoseOrDuplicateAValue");
        try (OffHeapStore store = TestStores.builder(8, TestStores.clock()).build())
        {
            final List<byte[]> keys = new ArrayList<>();
            for (int i = 0; i < slots; i++)
            {
                keys.add(bytes("slot:" + i));
            }
            for (int i = 0; i < values; i++)
            {
                store.set(keys.get(i * 3), bytes("value-" + i));
            }
            final TreeSet<String> expected = new TreeSet<>();
            for (int i = 0; i < values; i++)
            {
                expected.add("value-" + i);
            }
            workers.add(THREADS - 1, t ->
            {
                final SplittableRandom random = new SplittableRandom(t);
                try
                {
                    for (int i = 0; i < renamesPerThread && workers.running(); i++)
                    {
                        final RenameResult result =
                            store.rename(keys.get(random.nextInt(slots)), keys.get(random.nextInt(slots)), false);
                        assertTrue(result != null, "rename returned null");
                    }
                }
                finally
                {
                    renamersLeft.decrementAndGet();
                }
            });
            workers.add(1, t ->
            {
                while (workers.running() && renamersLeft.get() > 0)
                {
                    assertEquals(expected, liveValues(store.getAll(keys)), "values seen at one instant");
                    final byte[] random = store.randomKey();
                    assertTrue(random == null || text(random).startsWith("slot:"), "randomKey returned a stranger");
                    snapshots.incrementAndGet();
                }
            });
            workers.start().join(45, TimeUnit.SECONDS);

            assertTrue(snapshots.get() > 0, "the reader took no snapshot");
            assertEquals(expected, liveValues(store.getAll(keys)));
            assertEquals(values, store.size());
            store.verifyIntegrity();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentSetRangesThatGrowTheValueLoseNoWrite() throws InterruptedException
    {
        final int perThread = 3_000;
        final Workers workers = new Workers("concurrentSetRangesThatGrowTheValueLoseNoWrite");
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            workers.add(THREADS, t ->
            {
                final byte[] mark = {(byte)('a' + t)};
                for (int i = 0; i < perThread && workers.running(); i++)
                {
                    final long length = store.setRange(bytes("shared"), (long)i * THREADS + t, mark);
                    assertTrue(length >= (long)i * THREADS + t + 1, "setRange returned a length " + length);
                }
            }).start().join(45, TimeUnit.SECONDS);

            final byte[] value = store.get(bytes("shared"));
            assertEquals(THREADS * perThread, value.length);
            for (int p = 0; p < value.length; p++)
            {
                assertEquals('a' + p % THREADS, value[p], "byte " + p + " was written by thread " + p % THREADS);
            }
            store.verifyIntegrity();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentFloatIncrementsAddUpExactly() throws InterruptedException
    {
        final int perThread = 5_000;
        final Workers workers = new Workers("concurrentFloatIncrementsAddUpExactly");
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            workers.add(THREADS, t ->
            {
                for (int i = 0; i < perThread && workers.running(); i++)
                {
                    store.incrementByFloat(bytes("total"), (t & 1) == 0 ? 0.5 : 0.25);
                }
            }).start().join(45, TimeUnit.SECONDS);

            assertEquals("7500", text(store.get(bytes("total"))), "2 threads add 0.5 and 2 add 0.25, 5000 times each");
            store.verifyIntegrity();
        }
    }

    private static TreeSet<String> liveValues(final List<byte[]> values)
    {
        final TreeSet<String> live = new TreeSet<>();
        int count = 0;
        for (final byte[] value : values)
        {
            if (value != null)
            {
                live.add(text(value));
                count++;
            }
        }
        assertEquals(live.size(), count, "a value appears under two keys: " + live);
        return live;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(final byte[] bytes)
    {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
