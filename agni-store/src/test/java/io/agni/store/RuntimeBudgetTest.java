package io.agni.store;

import io.agni.api.CapacityExceededException;
import io.agni.api.EvictionPolicy;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreStats;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory budget changed while the store runs ({@link OffHeapStore#maxMemory(long)}): raised, it takes effect at
 * once; lowered below what the store holds, writes bring the store down to it, each with bounded work, and from
 * then on it holds.
 */
class RuntimeBudgetTest
{
    private static final long BUDGET = 8L << 20;
    private static final long LOWERED = 2L << 20;

    private static byte[] key(final int id)
    {
        return ("key:" + id).getBytes(StandardCharsets.US_ASCII);
    }

    private static OffHeapStore store(final EvictionPolicy policy, final CachedEpochClock clock)
    {
        return TestStores.builder(2, clock).maxMemory(BUDGET).maxKeyLength(64).maxValueLength(64 * 1024)
            .evictionPolicy(policy).build();
    }

    @ParameterizedTest
    @EnumSource(value = EvictionPolicy.class, names = {"ALL_KEYS", "VOLATILE", "VOLATILE_TTL", "ALL_KEYS_RANDOM"})
    void loweringTheBudgetEvictsDownToItUnderWritesAndThenHoldsIt(final EvictionPolicy policy)
    {
        final CachedEpochClock clock = TestStores.clock();
        final Random random = new Random(20);
        try (OffHeapStore store = store(policy, clock))
        {
            final int[] generation = new int[40_000];
            while (store.stats().evicted() == 0)
            {
                write(store, clock, random, generation);
            }
            final long full = store.stats().offHeapBytes();
            assertTrue(full > BUDGET - (512 << 10), "held at the old budget: " + full);

            store.maxMemory(LOWERED);
            assertEquals(LOWERED, store.maxMemory());
            assertEquals(LOWERED, store.stats().budgetBytes());
            long held = store.stats().offHeapBytes();
            assertTrue(held > LOWERED, "held: " + held);
            int writes = 0;
            while (held > LOWERED)
            {
                write(store, clock, random, generation);
                final long now = store.stats().offHeapBytes();
                final long before = held;
                assertTrue(now <= held, () -> "new memory while over the budget: " + before + " -> " + now);
                held = now;
                assertTrue(++writes < 20_000, () -> "still over the budget after 20000 writes: " + now);
            }
            // Reached: from now on the budget holds after every write.
            for (int i = 0; i < 20_000; i++)
            {
                write(store, clock, random, generation);
                final long now = store.stats().offHeapBytes();
                assertTrue(now <= LOWERED, () -> "held " + now + " over the lowered budget");
            }
            final StoreStats stats = store.stats();
            assertEquals(0, stats.rejectedWrites(), stats.toString());
            assertTrue(stats.liveEntryBytes() < LOWERED, stats.toString());
            for (int id = 0; id < generation.length; id++)
            {
                final byte[] value = store.get(key(id));
                if (value != null)
                {
                    assertEquals(generation[id], SelfCheckingValue.check(id, value), "key " + id);
                }
            }
            store.verifyIntegrity();
        }
    }

    /**
     * A write of a random key, 40 to 1,040 bytes, with an expiry time an hour or two away (so every policy may evict
     * every entry).
     */
    private static void write(
        final OffHeapStore store, final CachedEpochClock clock, final Random random, final int[] generation)
    {
        final int id = random.nextInt(generation.length);
        final long expireAt = clock.time() + 3_600_000 + random.nextInt(3_600_000);
        store.set(key(id), SelfCheckingValue.encode(id, ++generation[id], 40 + random.nextInt(1001)),
            SetCondition.ALWAYS, ExpiryMode.AT, expireAt);
    }

    @Test
    void raisingTheBudgetTakesEffectAtOnce()
    {
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).maxMemory(1 << 20).build())
        {
            int id = 0;
            try
            {
                while (true)
                {
                    store.set(key(id), SelfCheckingValue.encode(id, 1, 500));
                    id++;
                }
            }
            catch (final CapacityExceededException expected)
            {
                assertTrue(expected.getMessage().contains("budget=1048576"), expected.getMessage());
            }
            store.maxMemory(8 << 20);
            assertEquals(8 << 20, store.stats().budgetBytes());
            final int full = id;
            for (; id < 4 * full; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 500));
            }
            assertTrue(store.stats().offHeapBytes() > 2 << 20);
            assertEquals(4 * full, store.size());
            store.verifyIntegrity();
        }
    }

    @Test
    void withoutEvictionALoweredBudgetRefusesWritesThatNeedMemoryUntilDeletesMakeRoom()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).maxMemory(4 << 20).build())
        {
            int id = 0;
            try
            {
                while (true)
                {
                    store.set(key(id), SelfCheckingValue.encode(id, 1, 500));
                    id++;
                }
            }
            catch (final CapacityExceededException expected)
            {
                // full
            }
            final int written = id;
            store.maxMemory(2 << 20);
            assertThrows(CapacityExceededException.class,
                () -> store.set(key(written), SelfCheckingValue.encode(written, 1, 500)));
            assertEquals(written, store.size(), "nothing is evicted");
            // Deleting four in five entries leaves garbage; writes then compact it away, releasing segments.
            for (int i = 0; i < written; i++)
            {
                if (i % 5 != 0)
                {
                    store.delete(key(i));
                }
            }
            long held = store.stats().offHeapBytes();
            int next = written + 1;
            while (held > 2 << 20)
            {
                store.set(key(next), SelfCheckingValue.encode(next, 1, 500));
                next++;
                final long now = store.stats().offHeapBytes();
                assertTrue(now <= held, "new memory while over the budget");
                held = now;
                assertTrue(next - written < 1_000, "still over the budget: " + held);
            }
            for (int i = 0; i < written; i += 5)
            {
                assertEquals(1, SelfCheckingValue.check(i, store.get(key(i))), "key " + i);
            }
            for (int i = written + 1; i < next; i++)
            {
                assertEquals(1, SelfCheckingValue.check(i, store.get(key(i))), "key " + i);
            }
            assertEquals(0, store.stats().evicted());
            store.verifyIntegrity();
        }
    }

    @Test
    void writesInPlaceBringALoweredBudgetDownToo()
    {
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).maxMemory(BUDGET)
            .evictionPolicy(EvictionPolicy.ALL_KEYS).build())
        {
            int keys = 0;
            while (store.stats().evicted() == 0)
            {
                store.set(key(keys), SelfCheckingValue.encode(keys, 1, 400));
                keys++;
            }
            store.maxMemory(LOWERED);
            int writes = 0;
            while (store.stats().offHeapBytes() > LOWERED)
            {
                // the same length as before: every write that finds its key overwrites in place
                final int k = writes % keys;
                store.set(key(k), SelfCheckingValue.encode(k, 1, 400));
                assertTrue(++writes < 100_000, "still over the budget: " + store.stats().offHeapBytes());
            }
            store.verifyIntegrity();
        }
    }

    @Test
    void evictionsOfALoweredBudgetStayEvictedAfterAReopen(@TempDir final Path directory)
    {
        final List<Integer> kept = new ArrayList<>();
        final int keys = 12_000;
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).maxMemory(BUDGET)
            .evictionPolicy(EvictionPolicy.ALL_KEYS_RANDOM).directory(directory).build())
        {
            for (int id = 0; id < keys; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 400));
            }
            store.maxMemory(LOWERED);
            for (int id = 0; store.stats().offHeapBytes() > LOWERED; id++)
            {
                store.set(key(id % keys), SelfCheckingValue.encode(id % keys, 2, 400));
                assertTrue(id < 100_000, "still over the budget");
            }
            for (int id = 0; id < keys; id++)
            {
                if (store.get(key(id)) != null)
                {
                    kept.add(id);
                }
            }
            assertTrue(kept.size() < keys / 2, "kept " + kept.size());
            store.closeWithoutCheckpoint();
        }
        try (OffHeapStore reopened = TestStores.builder(2, TestStores.clock()).maxMemory(BUDGET)
            .directory(directory).build())
        {
            assertEquals(kept.size(), reopened.size(), "every eviction was logged as a delete");
            for (final int id : kept)
            {
                assertNotNull(reopened.get(key(id)), "kept key " + id);
            }
            reopened.verifyIntegrity();
        }
    }

    @Test
    void aBudgetOutOfRangeIsRefusedAndChangesNothing()
    {
        final OffHeapStore store = TestStores.builder(4, TestStores.clock()).build();
        try
        {
            final IllegalArgumentException small =
                assertThrows(IllegalArgumentException.class, () -> store.maxMemory(4 * 8192 - 1));
            assertEquals("maxMemory too small for 4 shards: maxMemory=32767, minimum=32768 (8192 per shard)",
                small.getMessage());
            final IllegalArgumentException large =
                assertThrows(IllegalArgumentException.class, () -> store.maxMemory(Long.MAX_VALUE));
            assertTrue(large.getMessage().startsWith("maxMemory exceeds the JVM's direct memory limit"),
                large.getMessage());
            assertEquals(TestStores.ROOMY_BUDGET, store.maxMemory());
            store.maxMemory(4 * 8192);
            assertEquals(4 * 8192, store.stats().budgetBytes());
        }
        finally
        {
            store.close();
        }
        assertThrows(StoreClosedException.class, () -> store.maxMemory(1 << 20));
    }
}
