package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.store.memory.DirectMemory;
import io.agni.store.memory.OffHeapMemory;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bound on the JVM's direct memory (docs/architecture.md, "Memory, the budget and reclamation"): under churn
 * that retires many segments and index tables, the direct-buffer pool never holds more than the budget plus what
 * the rest of the JVM held before the store opened ({@link OffHeapMemory#DIRECT_BYTES_BEYOND_BUDGET} is 0). Before
 * agni freed retired buffers itself, they stayed in the pool until a garbage collection ran their cleaners, and this
 * churn, which allocates nothing on the heap and so triggers no collection, took the pool far past the budget.
 */
class DirectMemoryBoundTest
{
    private static final long BUDGET = 64L << 20;
    private static final int SHARDS = 4;
    private static final int ROUNDS = 10;
    private static final int KEYS = 100_000;
    private static final int BATCHES_PER_ROUND = 50;
    private static final int BATCH = 4_000;
    private static final int MIN_VALUE = 10;
    private static final int MAX_VALUE = 1_000;
    private static final int ABSENT = -1;

    private final UnsafeBuffer key = new UnsafeBuffer(new byte[Long.BYTES]);
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[MAX_VALUE]);
    private final int[] lengths = new int[KEYS];
    private final SplittableRandom random = new SplittableRandom(17);

    @Test
    @Timeout(120)
    void churnNeverTakesTheDirectPoolPastTheBudget()
    {
        for (int i = 0; i < MAX_VALUE; i++)
        {
            value.putByte(i, (byte)(i * 31 + 7));
        }
        Arrays.fill(lengths, ABSENT);
        final long before = DirectMemory.pool().getMemoryUsed();
        final long bound = before + BUDGET + OffHeapMemory.DIRECT_BYTES_BEYOND_BUDGET;
        long peak = before;
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).maxMemory(BUDGET).build())
        {
            for (int round = 1; round <= ROUNDS; round++)
            {
                for (int batch = 0; batch < BATCHES_PER_ROUND; batch++)
                {
                    churn(store);
                    peak = Math.max(peak, assertWithinBound(bound, before, round, "batch " + batch));
                }
                checkModel(store, round);
                if (round % 2 == 0)
                {
                    // index tables go back to 16 slots and grow again next round; every segment is retired
                    store.clear();
                    Arrays.fill(lengths, ABSENT);
                }
                else
                {
                    deleteEveryOtherKey(store);
                }
                peak = Math.max(peak, assertWithinBound(bound, before, round, "after shrinking"));
            }
        }
        System.out.printf("direct pool: %,d B before the store opened, peak %,d B, bound %,d B%n",
            before, peak, bound);
    }

    /**
     * One batch: random overwrites, inserts and deletes of values of 10..1,000 bytes.
     */
    private void churn(final OffHeapStore store)
    {
        for (int op = 0; op < BATCH; op++)
        {
            final int k = random.nextInt(KEYS);
            key.putLong(0, k * 0x9E3779B97F4A7C15L);
            if (random.nextInt(100) < 65)
            {
                final int length = random.nextInt(MIN_VALUE, MAX_VALUE + 1);
                store.set(key, 0, Long.BYTES, value, 0, length);
                lengths[k] = length;
            }
            else
            {
                store.delete(key, 0, Long.BYTES);
                lengths[k] = ABSENT;
            }
        }
    }

    private void deleteEveryOtherKey(final OffHeapStore store)
    {
        for (int k = 0; k < KEYS; k += 2)
        {
            key.putLong(0, k * 0x9E3779B97F4A7C15L);
            store.delete(key, 0, Long.BYTES);
            lengths[k] = ABSENT;
        }
    }

    private void checkModel(final OffHeapStore store, final int round)
    {
        for (int k = 0; k < KEYS; k++)
        {
            key.putLong(0, k * 0x9E3779B97F4A7C15L);
            final int expected = lengths[k] == ABSENT ? AgniStore.NOT_FOUND : lengths[k];
            assertEquals(expected, store.valueLength(key, 0, Long.BYTES), "round " + round + ", key " + k);
        }
        store.verifyIntegrity();
    }

    private static long assertWithinBound(final long bound, final long before, final int round, final String when)
    {
        final long used = DirectMemory.pool().getMemoryUsed();
        assertTrue(used <= bound, "round " + round + ", " + when + ": the direct pool holds " + used +
            " B, more than the budget of " + BUDGET + " B plus the " + before + " B held before the store opened");
        return used;
    }
}
