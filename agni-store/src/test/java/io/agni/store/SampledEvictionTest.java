package io.agni.store;

import io.agni.api.CapacityExceededException;
import io.agni.api.EvictionPolicy;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sampled policies (docs/eviction.md): {@code VOLATILE_TTL} evicts the nearest expiry first, the random ones
 * evict at random, the volatile ones only entries with an expiry time and refuse once none is left, expired entries
 * go first, and the budget holds after every write.
 */
class SampledEvictionTest
{
    private static final long BUDGET = 1 << 20;
    /**
     * The most entries one write may evict: {@code SampledEviction.MAX_EVICTIONS} (64) for its entry, and as many
     * again if the index had to make room for its key first.
     */
    private static final int MAX_EVICTIONS_PER_WRITE = 2 * 64;

    private static byte[] key(final int id)
    {
        return ("key:" + id).getBytes(StandardCharsets.US_ASCII);
    }

    private static OffHeapStore store(final int shards, final EvictionPolicy policy, final CachedEpochClock clock)
    {
        return TestStores.builder(shards, clock).maxMemory(BUDGET).maxKeyLength(64).maxValueLength(4096)
            .evictionPolicy(policy).build();
    }

    @ParameterizedTest
    @EnumSource(value = EvictionPolicy.class, names = {"VOLATILE_TTL", "ALL_KEYS_RANDOM", "VOLATILE_RANDOM"})
    void writingTenTimesTheBudgetHoldsTheBudgetAfterEveryWriteAndEvictsABoundedNumberPerWrite(
        final EvictionPolicy policy)
    {
        final CachedEpochClock clock = TestStores.clock();
        final Random random = new Random(20);
        try (OffHeapStore store = store(4, policy, clock))
        {
            final int[] generation = new int[20_000];
            long written = 0;
            long evictedBefore = 0;
            while (written < 10 * BUDGET)
            {
                final int id = random.nextInt(generation.length);
                final int length = 10 + random.nextInt(991);
                final long expireAt = clock.time() + 3_600_000 + random.nextInt(3_600_000);
                store.set(key(id), SelfCheckingValue.encode(id, ++generation[id], length), SetCondition.ALWAYS,
                    ExpiryMode.AT, expireAt);
                written += length;
                final StoreStats stats = store.stats();
                assertTrue(stats.offHeapBytes() <= BUDGET, () -> "held " + stats.offHeapBytes());
                assertTrue(stats.evicted() - evictedBefore <= MAX_EVICTIONS_PER_WRITE,
                    "evicted by one write: " + (stats.evicted() - evictedBefore));
                evictedBefore = stats.evicted();
                final byte[] last = store.get(key(id));
                assertNotNull(last, "the value just written is there");
                assertEquals(generation[id], SelfCheckingValue.check(id, new UnsafeBuffer(last), 0, last.length));
            }
            for (int id = 0; id < generation.length; id++)
            {
                final byte[] value = store.get(key(id));
                if (value != null)
                {
                    assertEquals(generation[id], SelfCheckingValue.check(id, value),
                        "a value present is the last one written for its key");
                }
            }
            final StoreStats stats = store.stats();
            assertTrue(stats.evicted() > 0, "evicted: " + stats.evicted());
            assertEquals(0, stats.rejectedWrites());
            store.verifyIntegrity();
        }
    }

    @Test
    void volatileTtlEvictsTheNearestExpiryFirst()
    {
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = store(1, EvictionPolicy.VOLATILE_TTL, clock))
        {
            // Expiry times in an order unrelated to the order of writes (and so to where the entries are).
            final List<Integer> ranks = new ArrayList<>();
            for (int i = 0; i < 10_000; i++)
            {
                ranks.add(i);
            }
            Collections.shuffle(ranks, new Random(7));
            final long base = clock.time() + 3_600_000;
            int written = 0;
            while (store.stats().evicted() == 0)
            {
                store.set(key(written), SelfCheckingValue.encode(written, 1, 300), SetCondition.ALWAYS, ExpiryMode.AT,
                    base + 1_000L * ranks.get(written));
                written++;
            }
            // Entries without an expiry time push a quarter of the volatile ones out.
            int next = 1_000_000;
            while (store.stats().evicted() < written / 4)
            {
                store.set(key(next), SelfCheckingValue.encode(next, 1, 300));
                next++;
            }
            final List<Integer> writtenRanks = new ArrayList<>(ranks.subList(0, written));
            Collections.sort(writtenRanks);
            final int fortiethPercentile = writtenRanks.get(written * 2 / 5);
            int evicted = 0;
            int evictedEarly = 0;
            for (int id = 0; id < written; id++)
            {
                if (store.get(key(id)) == null)
                {
                    evicted++;
                    if (ranks.get(id) < fortiethPercentile)
                    {
                        evictedEarly++;
                    }
                }
            }
            // At random, 40 % of the evicted would come from the 40 % that expire first.
            assertTrue(evicted >= written / 4, "evicted " + evicted + " of " + written);
            assertTrue(evictedEarly >= evicted * 9 / 10,
                "evicted " + evicted + ", of which among the 40 % nearest expiry: " + evictedEarly);
            for (int id = 1_000_000; id < next; id++)
            {
                assertNotNull(store.get(key(id)), "an entry without expiry is never evicted: " + id);
            }
            store.verifyIntegrity();
        }
    }

    @Test
    void allKeysRandomEvictsOldAndNewEntriesAlike()
    {
        try (OffHeapStore store = store(1, EvictionPolicy.ALL_KEYS_RANDOM, TestStores.clock()))
        {
            int written = 0;
            while (store.stats().evicted() == 0)
            {
                store.set(key(written), SelfCheckingValue.encode(written, 1, 300));
                written++;
            }
            final int first = written;
            // As many again: in arrival order (FIFO, or CLOCK with nothing read) every one of the first would go.
            for (int id = first; id < 2 * first; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 300));
            }
            int oldKept = 0;
            for (int id = 0; id < first / 4; id++)
            {
                oldKept += store.get(key(id)) == null ? 0 : 1;
            }
            int newEvicted = 0;
            for (int id = 2 * first - first / 2; id < 2 * first - first / 4; id++)
            {
                newEvicted += store.get(key(id)) == null ? 1 : 0;
            }
            // Each eviction takes any entry alike: about a third of the oldest survive, some recent ones went.
            assertTrue(oldKept >= first / 4 / 10, "kept of the oldest quarter: " + oldKept + " of " + first / 4);
            assertTrue(newEvicted > 0, "evicted of a recent quarter: " + newEvicted);
            store.verifyIntegrity();
        }
    }

    @ParameterizedTest
    @EnumSource(value = EvictionPolicy.class, names = {"VOLATILE_TTL", "VOLATILE_RANDOM"})
    void volatilePoliciesEvictOnlyEntriesWithAnExpiryAndRefuseOnceNoneIsLeft(final EvictionPolicy policy)
    {
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = store(1, policy, clock))
        {
            final List<Integer> persistent = new ArrayList<>();
            int id = 0;
            for (; id < 600; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 500));
                persistent.add(id);
            }
            final long later = clock.time() + 3_600_000;
            for (; id < 10_000; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 500), SetCondition.ALWAYS, ExpiryMode.AT,
                    later + id);
            }
            assertTrue(store.stats().evicted() > 0);
            for (final int p : persistent)
            {
                assertNotNull(store.get(key(p)), "an entry without expiry is never evicted: " + p);
            }
            final CapacityExceededException refused = assertThrows(CapacityExceededException.class, () ->
            {
                for (int i = 0; i < 10_000; i++)
                {
                    store.set(key(1_000_000 + i), SelfCheckingValue.encode(1_000_000 + i, 1, 500));
                }
            });
            assertTrue(refused.getMessage().startsWith("memory budget exceeded"), refused.getMessage());
            assertEquals(0, store.stats().entriesWithExpiry(), "refused only once no entry with an expiry was left");
            for (final int p : persistent)
            {
                assertNotNull(store.get(key(p)), "still there: " + p);
            }
            store.verifyIntegrity();
        }
    }

    @ParameterizedTest
    @EnumSource(value = EvictionPolicy.class, names = {"VOLATILE_TTL", "ALL_KEYS_RANDOM", "VOLATILE_RANDOM"})
    void expiredEntriesGoBeforeLiveOnes(final EvictionPolicy policy)
    {
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = store(1, policy, clock))
        {
            final long soon = clock.time() + 1_000;
            int id = 0;
            while (store.stats().offHeapBytes() < BUDGET * 7 / 8)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 400), SetCondition.ALWAYS, ExpiryMode.AT, soon);
                id++;
            }
            final int expiring = id;
            final long later = clock.time() + 3_600_000;
            for (; id < expiring + expiring / 8; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 400), SetCondition.ALWAYS, ExpiryMode.AT, later);
            }
            final int live = id;
            clock.advance(2_000);
            // A quarter as many new entries as expired: at least three in four entries sampled are still expired.
            for (int i = 0; i < expiring / 4; i++)
            {
                store.set(key(1_000_000 + i), SelfCheckingValue.encode(1_000_000 + i, 1, 400), SetCondition.ALWAYS,
                    ExpiryMode.AT, later);
            }
            final StoreStats stats = store.stats();
            assertEquals(0, stats.evicted(), "only expired entries had to go: " + stats);
            assertTrue(stats.expired() > 0);
            for (int i = expiring; i < live; i++)
            {
                assertNotNull(store.get(key(i)), "live entry " + i);
            }
            store.verifyIntegrity();
        }
    }

    @Test
    void readsLeaveNoMarksUnderASampledPolicy()
    {
        try (OffHeapStore recency = store(1, EvictionPolicy.ALL_KEYS, TestStores.clock());
            OffHeapStore sampled = store(1, EvictionPolicy.ALL_KEYS_RANDOM, TestStores.clock()))
        {
            // One byte per index slot for the read marks, only where the recency algorithm uses them.
            assertTrue(recency.stats().offHeapBytes() > sampled.stats().offHeapBytes(),
                recency.stats().offHeapBytes() + " vs " + sampled.stats().offHeapBytes());
            recency.evictionPolicy(EvictionPolicy.VOLATILE_TTL);
            assertEquals(sampled.stats().offHeapBytes(), recency.stats().offHeapBytes());
        }
    }
}
