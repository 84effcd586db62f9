package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.EvictionPolicy;
import io.agni.api.StoreStats;
import io.agni.store.arena.Arena;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 20's budget test: ten times the budget written into an {@code ALL_KEYS} store in random sizes, from a few
 * bytes to past the large-entry threshold, over a set of keys that are overwritten and deleted; after every write
 * the store holds no more than its budget, and every key reads back as the reference says: the last value written
 * to it, or absent if it was deleted, or absent because it was evicted (counted in {@link StoreStats#evicted()}),
 * and once absent it stays absent until it is written again. A write the store refuses must be counted
 * ({@link StoreStats#rejectedWrites()}) and leave the key as it was.
 */
class EvictionBudgetTest
{
    private static final long BUDGET = 1 << 20;
    private static final int KEYS = 200;
    private static final int MIN_LENGTH = SelfCheckingValue.HEADER;
    private static final int MAX_LENGTH = 96 * 1024;

    /**
     * What the reference knows of a key.
     */
    private enum State
    {
        /** Never written, deleted, or seen evicted: a read must find nothing. */
        ABSENT,
        /** Written and not deleted since: a read finds the last value written, or nothing if it was evicted. */
        WRITTEN
    }

    private static byte[] key(final int id)
    {
        return ("budget-key:" + id).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * A length from {@link #MIN_LENGTH} to {@link #MAX_LENGTH}, uniform in its logarithm: most values small, about one
     * in thirty past the large-entry threshold.
     */
    private static int length(final Random random)
    {
        final double logRange = Math.log((double)MAX_LENGTH / MIN_LENGTH);
        return (int)Math.min(MAX_LENGTH, Math.round(MIN_LENGTH * Math.exp(random.nextDouble() * logRange)));
    }

    @Test
    void tenTimesTheBudgetInRandomSizesNeverHoldsMoreThanTheBudgetNorReadsAWrongValue()
    {
        final Random random = new Random(20_20);
        final State[] state = new State[KEYS];
        final int[] generation = new int[KEYS];
        final int[] lengths = new int[KEYS];
        Arrays.fill(state, State.ABSENT);
        final ExpandableDirectByteBuffer dst = new ExpandableDirectByteBuffer(MAX_LENGTH);
        final UnsafeBuffer[] keys = new UnsafeBuffer[KEYS];
        for (int k = 0; k < KEYS; k++)
        {
            keys[k] = new UnsafeBuffer(key(k));
        }
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).maxMemory(BUDGET).maxKeyLength(64)
            .maxValueLength(MAX_LENGTH).evictionPolicy(EvictionPolicy.ALL_KEYS).build())
        {
            long written = 0;
            long writes = 0;
            long deletes = 0;
            long refused = 0;
            long refusedLarge = 0;
            long seenEvicted = 0;
            long largeWritten = 0;
            while (written < 10 * BUDGET)
            {
                final int id = random.nextInt(KEYS);
                final String step;
                if (random.nextInt(10) == 0)
                {
                    store.delete(key(id));
                    state[id] = State.ABSENT;
                    deletes++;
                    step = "delete " + id;
                }
                else
                {
                    final int length = length(random);
                    step = "set " + id + " (" + length + " bytes)";
                    try
                    {
                        store.set(key(id), SelfCheckingValue.encode(id, generation[id] + 1, length));
                        generation[id]++;
                        lengths[id] = length;
                        state[id] = State.WRITTEN;
                        written += length;
                        writes++;
                        if (length > Arena.LARGE_ENTRY_BYTES)
                        {
                            largeWritten++;
                        }
                    }
                    catch (final CapacityExceededException ex)
                    {
                        // a refusal is allowed (docs/eviction.md: eviction cannot always make room within the write),
                        // must be counted and must change nothing: the reads below check the key's old state
                        refused++;
                        if (length > Arena.LARGE_ENTRY_BYTES - 64)
                        {
                            refusedLarge++;
                        }
                    }
                }
                final StoreStats stats = store.stats();
                assertTrue(stats.offHeapBytes() <= BUDGET,
                    "held " + stats.offHeapBytes() + " bytes of a " + BUDGET + "-byte budget after " + step);
                assertEquals(refused, stats.rejectedWrites(), "refused writes counted, after " + step);
                for (int k = 0; k < KEYS; k++)
                {
                    final int n = store.get(keys[k], 0, keys[k].capacity(), dst, 0);
                    if (n == AgniStore.NOT_FOUND)
                    {
                        if (state[k] == State.WRITTEN)
                        {
                            state[k] = State.ABSENT;
                            seenEvicted++;
                        }
                    }
                    else if (state[k] == State.ABSENT)
                    {
                        fail("key " + k + " is absent (deleted, never written or seen evicted) but reads " + n +
                            " bytes, after " + step);
                    }
                    else
                    {
                        assertEquals(lengths[k], n, "length of key " + k + " after " + step);
                        assertEquals(generation[k], SelfCheckingValue.check(k, dst, 0, n),
                            "generation of key " + k + " after " + step);
                    }
                }
                final long evicted = stats.evicted();
                final long seen = seenEvicted;
                assertTrue(seen <= evicted, () -> seen + " keys went missing but only " + evicted +
                    " evictions were counted, after " + step);
            }
            final StoreStats stats = store.stats();
            assertTrue(seenEvicted > 0 && stats.evicted() >= seenEvicted, "evicted " + stats.evicted() + ", seen " +
                seenEvicted);
            assertTrue(largeWritten > 0, "no write past the large-entry threshold was accepted");
            assertTrue(deletes > 0);
            store.verifyIntegrity();
            System.out.printf("EvictionBudgetTest: %d writes (%d past the large-entry threshold), %d deletes, %d " +
                "refused (%d of them past the threshold), %d evicted, %d keys seen evicted%n", writes, largeWritten,
                deletes, refused, refusedLarge, stats.evicted(), seenEvicted);
        }
    }
}
