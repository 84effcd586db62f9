package io.agni.store;

import io.agni.api.CapacityExceededException;
import io.agni.api.Durability;
import io.agni.api.EvictionPolicy;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import io.agni.api.WriteBatch;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Eviction at the budget (docs/eviction.md): what is evicted, what never is, and that the budget holds.
 */
class EvictionTest
{
    private static final long BUDGET = 1 << 20;

    private static byte[] key(final int id)
    {
        return ("key:" + id).getBytes(StandardCharsets.US_ASCII);
    }

    private static OffHeapStore store(final int shards, final EvictionPolicy policy, final CachedEpochClock clock)
    {
        return TestStores.builder(shards, clock).maxMemory(BUDGET).maxKeyLength(64).maxValueLength(4096)
            .evictionPolicy(policy).build();
    }

    @Test
    void writingTenTimesTheBudgetEvictsAndNeverHoldsMoreOrReturnsAWrongValue()
    {
        final Random random = new Random(20);
        try (OffHeapStore store = store(4, EvictionPolicy.ALL_KEYS, TestStores.clock()))
        {
            final int[] generation = new int[20_000];
            long written = 0;
            int writes = 0;
            while (written < 10 * BUDGET)
            {
                final int id = random.nextInt(generation.length);
                final int length = 10 + random.nextInt(991);
                store.set(key(id), SelfCheckingValue.encode(id, ++generation[id], length));
                written += length;
                writes++;
                final StoreStats stats = store.stats();
                final long soFar = written;
                assertTrue(stats.offHeapBytes() <= BUDGET, () -> "held " + stats.offHeapBytes() + " after " + soFar);
                final byte[] last = store.get(key(id));
                assertNotNull(last, "the value just written is there");
                assertEquals(generation[id], SelfCheckingValue.check(id, new UnsafeBuffer(last), 0, last.length));
                if (writes % 97 == 0)
                {
                    final int other = random.nextInt(generation.length);
                    final byte[] read = store.get(key(other));
                    if (read != null)
                    {
                        assertEquals(generation[other],
                            SelfCheckingValue.check(other, new UnsafeBuffer(read), 0, read.length),
                            "a value present is the last one written for its key");
                    }
                }
            }
            final StoreStats stats = store.stats();
            assertTrue(stats.evicted() > 0, "evicted: " + stats.evicted());
            assertEquals(0, stats.rejectedWrites());
            assertTrue(stats.entries() < generation.length, "entries: " + stats.entries());
            store.verifyIntegrity();
        }
    }

    @Test
    void withoutEvictionTheSameWritesAreRefused()
    {
        try (OffHeapStore store = store(1, EvictionPolicy.NO_EVICTION, TestStores.clock()))
        {
            assertThrows(CapacityExceededException.class, () ->
            {
                for (int id = 0; id < 100_000; id++)
                {
                    store.set(key(id), SelfCheckingValue.encode(id, 1, 500));
                }
            });
            assertEquals(0, store.stats().evicted());
        }
    }

    @Test
    void entriesReadSinceEvictionLastPassedSurviveAStreamOfNewOnes()
    {
        try (OffHeapStore store = store(1, EvictionPolicy.ALL_KEYS, TestStores.clock()))
        {
            final int hot = 200;
            for (int id = 0; id < hot; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 200));
            }
            // A stream of keys written once, ten times what the store holds, with the hot keys read all along.
            for (int id = hot; id < hot + 50_000; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 200));
                final int write = id;
                assertNotNull(store.get(key(id % hot)), () -> "hot key lost at write " + write);
            }
            assertTrue(store.stats().evicted() > 40_000, "evicted: " + store.stats().evicted());
            for (int id = 0; id < hot; id++)
            {
                assertNotNull(store.get(key(id)), "hot key " + id);
            }
            store.verifyIntegrity();
        }
    }

    @Test
    void volatileEvictsOnlyEntriesWithAnExpiryAndThenRefuses()
    {
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = store(1, EvictionPolicy.VOLATILE, clock))
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
                store.set(key(id), SelfCheckingValue.encode(id, 1, 500), SetCondition.ALWAYS, ExpiryMode.AT, later);
            }
            assertTrue(store.stats().evicted() > 0);
            for (final int p : persistent)
            {
                assertNotNull(store.get(key(p)), "an entry without expiry is never evicted: " + p);
            }
            // Once no entry with an expiry is left, a write that needs room is refused.
            assertThrows(CapacityExceededException.class, () ->
            {
                for (int i = 0; i < 10_000; i++)
                {
                    store.set(key(1_000_000 + i), SelfCheckingValue.encode(1_000_000 + i, 1, 500));
                }
            });
            for (final int p : persistent)
            {
                assertNotNull(store.get(key(p)), "still there: " + p);
            }
            store.verifyIntegrity();
        }
    }

    @Test
    void expiredEntriesGoBeforeAnyLiveOne()
    {
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = store(1, EvictionPolicy.ALL_KEYS, clock))
        {
            final long soon = clock.time() + 1_000;
            int id = 0;
            while (store.stats().offHeapBytes() < BUDGET * 3 / 4)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 400), SetCondition.ALWAYS, ExpiryMode.AT, soon);
                id++;
            }
            final int expiring = id;
            clock.advance(2_000);
            for (int i = 0; i < expiring; i++)
            {
                store.set(key(1_000_000 + i), SelfCheckingValue.encode(1_000_000 + i, 1, 400));
            }
            final StoreStats stats = store.stats();
            assertEquals(0, stats.evicted(), "only expired entries had to go: " + stats);
            assertTrue(stats.expired() > 0);
            for (int i = 0; i < expiring; i++)
            {
                assertNotNull(store.get(key(1_000_000 + i)), "live entry " + i);
            }
            store.verifyIntegrity();
        }
    }

    @Test
    void thePolicyCanBeChangedWhileTheStoreRuns()
    {
        try (OffHeapStore store = store(2, EvictionPolicy.NO_EVICTION, TestStores.clock()))
        {
            int id = 0;
            try
            {
                while (true)
                {
                    store.set(key(id), SelfCheckingValue.encode(id, 1, 300));
                    id++;
                }
            }
            catch (final CapacityExceededException expected)
            {
                // full
            }
            final int full = id;
            store.evictionPolicy(EvictionPolicy.ALL_KEYS);
            assertEquals(EvictionPolicy.ALL_KEYS, store.evictionPolicy());
            for (int i = 0; i < full; i++)
            {
                store.set(key(full + i), SelfCheckingValue.encode(full + i, 1, 300));
            }
            assertTrue(store.stats().evicted() > 0);
            store.evictionPolicy(EvictionPolicy.NO_EVICTION);
            assertThrows(CapacityExceededException.class, () ->
            {
                for (int i = 0; i < 100_000; i++)
                {
                    store.set(key(5_000_000 + i), SelfCheckingValue.encode(5_000_000 + i, 1, 300));
                }
            });
            store.verifyIntegrity();
        }
    }

    @Test
    void aBatchAtAFullStoreEvictsNoneOfTheKeysItChanges()
    {
        try (OffHeapStore store = store(1, EvictionPolicy.ALL_KEYS, TestStores.clock()))
        {
            int next = 0;
            for (; next < 5_000; next++)
            {
                store.set(key(next), SelfCheckingValue.encode(next, 1, 400));
            }
            // Nothing is read, so no entry is marked and eviction goes in arrival order: the oldest entries present
            // are about the last `entries` written. Each batch overwrites one of them in place (found, then changed
            // by apply) and adds two new entries, so making room for those must leave the found one alone, or the
            // batch finds it gone half-way.
            final WriteBatch batch = new WriteBatch();
            for (int round = 0; round < 2_000; round++)
            {
                final int old = next - (int)store.stats().entries() + 3;
                batch.clear()
                    .set(key(old), SelfCheckingValue.encode(old, 2, 400))
                    .set(key(next), SelfCheckingValue.encode(next, 1, 400))
                    .set(key(next + 1), SelfCheckingValue.encode(next + 1, 1, 400));
                store.write(batch);
                next += 2;
            }
            assertTrue(store.stats().evicted() > 0);
            store.verifyIntegrity();
        }
    }

    @Test
    void recoveryIntoASmallerBudgetEvictsAndWhatItEvictedStaysGone(@TempDir final Path directory)
    {
        final int keys = 4_000;
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).maxMemory(4 * BUDGET)
            .directory(directory).build())
        {
            for (int id = 0; id < keys; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 400));
            }
            store.closeWithoutCheckpoint();
        }
        // Without eviction, a budget the log does not fit refuses to open.
        final Exception refused = assertThrows(Exception.class, () -> TestStores.builder(1, TestStores.clock())
            .maxMemory(BUDGET).directory(directory).build().close());
        assertTrue(refused.getMessage().contains("budget") || refused.getCause() instanceof CapacityExceededException,
            refused.toString());
        // A store that evicts opens in it, evicting as it replays; recovery logs nothing, so it checkpoints at once.
        final List<Integer> kept = new ArrayList<>();
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).maxMemory(BUDGET)
            .evictionPolicy(EvictionPolicy.ALL_KEYS).directory(directory).build())
        {
            final StoreStats stats = store.stats();
            assertTrue(stats.offHeapBytes() <= BUDGET, stats.toString());
            assertTrue(stats.evicted() > 0 && stats.entries() < keys, stats.toString());
            assertEquals(keys, stats.evicted() + stats.entries(), stats.toString());
            for (int id = 0; id < keys; id++)
            {
                final byte[] value = store.get(key(id));
                if (value != null)
                {
                    assertEquals(1, SelfCheckingValue.check(id, new UnsafeBuffer(value), 0, value.length));
                    kept.add(id);
                }
            }
            store.verifyIntegrity();
            store.closeWithoutCheckpoint();
        }
        // Reopened as a crash leaves it, in the larger budget: exactly the entries the smaller one kept.
        try (OffHeapStore reopened = TestStores.builder(1, TestStores.clock()).maxMemory(4 * BUDGET)
            .evictionPolicy(EvictionPolicy.ALL_KEYS).directory(directory).build())
        {
            assertEquals(kept.size(), reopened.size());
            assertEquals(0, reopened.stats().evicted());
            for (final int id : kept)
            {
                assertNotNull(reopened.get(key(id)), "kept key " + id + " lost");
            }
        }
    }

    @Test
    void anEntryLargerThanEverySegmentOfAFullStoreEvictsItsWayIn()
    {
        for (final EvictionPolicy policy : new EvictionPolicy[] {EvictionPolicy.ALL_KEYS,
            EvictionPolicy.ALL_KEYS_RANDOM})
        {
            try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).maxMemory(BUDGET).maxKeyLength(64)
                .maxValueLength(512 * 1024).evictionPolicy(policy).build())
            {
                // Filled past the budget with small entries: the segments taken once the budget is full are the
                // smallest that hold them, and none holds the entries below.
                int id = 0;
                while (store.stats().evicted() < 1_000)
                {
                    store.set(key(id), SelfCheckingValue.encode(id, 1, 100));
                    id++;
                }
                for (final int length : new int[] {20 * 1024, 40 * 1024, 63 * 1024, 100 * 1024, 300 * 1024})
                {
                    final int big = id++;
                    assertDoesNotThrow(() -> store.set(key(big), SelfCheckingValue.encode(big, 1, length)),
                        policy + ": " + length + " B");
                    final byte[] read = store.get(key(big));
                    assertNotNull(read, policy + ": " + length + " B");
                    assertEquals(1, SelfCheckingValue.check(big, new UnsafeBuffer(read), 0, read.length));
                    assertTrue(store.stats().offHeapBytes() <= BUDGET, store.stats().toString());
                    // and small ones still go in around it
                    for (int n = 0; n < 2_000; n++, id++)
                    {
                        store.set(key(id), SelfCheckingValue.encode(id, 1, 100));
                    }
                }
                assertEquals(0, store.stats().rejectedWrites(), policy + ": " + store.stats());
                store.verifyIntegrity();
            }
        }
    }

    @Test
    void anEntryLargerThanOneShardsShareEvictsFromTheOtherShards()
    {
        for (final EvictionPolicy policy : new EvictionPolicy[] {EvictionPolicy.ALL_KEYS,
            EvictionPolicy.ALL_KEYS_RANDOM})
        {
            try (OffHeapStore store = TestStores.builder(4, TestStores.clock()).maxMemory(BUDGET).maxKeyLength(64)
                .maxValueLength(700 * 1024).evictionPolicy(policy).build())
            {
                // four shards holding about a quarter of the budget each
                int id = 0;
                while (store.stats().evicted() < 2_000)
                {
                    store.set(key(id), SelfCheckingValue.encode(id, 1, 100));
                    id++;
                }
                final int big = id++;
                final int length = 400 * 1024;
                assertDoesNotThrow(() -> store.set(key(big), SelfCheckingValue.encode(big, 1, length)),
                    policy.toString());
                final byte[] read = store.get(key(big));
                assertNotNull(read, policy.toString());
                assertEquals(1, SelfCheckingValue.check(big, new UnsafeBuffer(read), 0, read.length));
                assertTrue(store.stats().offHeapBytes() <= BUDGET, store.stats().toString());
                assertEquals(0, store.stats().rejectedWrites(), policy + ": " + store.stats());
                store.verifyIntegrity();
            }
        }
    }

    @Test
    void recoveryTakesNoEntryForExpiredThatALaterRecordExtends(@TempDir final Path directory)
    {
        final int keys = 4_000;
        final CachedEpochClock clock = TestStores.clock();
        final long start = clock.time();
        try (OffHeapStore store = TestStores.builder(1, clock).maxMemory(4 * BUDGET).directory(directory).build())
        {
            for (int id = 0; id < keys; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 400), SetCondition.ALWAYS, ExpiryMode.AT,
                    start + 10);
            }
            // a later record moves every expiry past the reopen
            for (int id = 0; id < keys; id++)
            {
                assertTrue(store.expire(key(id), start + 100_000, ExpireCondition.ALWAYS));
            }
            store.closeWithoutCheckpoint();
        }
        // Reopened between the two times, in a budget that makes recovery evict: an entry whose SET record's time
        // has passed is live once the EXPIRE record is replayed, so recovery may evict it, never drop it as expired.
        clock.update(start + 500);
        try (OffHeapStore store = TestStores.builder(1, clock).maxMemory(BUDGET)
            .evictionPolicy(EvictionPolicy.ALL_KEYS).directory(directory).build())
        {
            final StoreStats stats = store.stats();
            assertEquals(0, stats.expired(), stats.toString());
            assertTrue(stats.evicted() > 0, stats.toString());
            assertEquals(keys, stats.evicted() + stats.entries(), stats.toString());
            for (int id = 0; id < keys; id++)
            {
                if (store.get(key(id)) != null)
                {
                    assertEquals(start + 100_000, store.expireTimeMillis(key(id)));
                }
            }
        }
    }

    @Test
    void aMultiKeyWriteOfADurableStoreDoesNotEvictFromOtherShards(@TempDir final Path directory)
    {
        // A multi-key write logs one record when it ends: evictions in another shard logged into it would reach the
        // log after that shard's lock is gone, behind a later write of the same key. So it evicts only in its own
        // shards, and an entry that only other shards could make room for is refused, as a single SET is not.
        try (OffHeapStore store = TestStores.builder(4, TestStores.clock()).maxMemory(BUDGET).maxKeyLength(64)
            .maxValueLength(700 * 1024).evictionPolicy(EvictionPolicy.ALL_KEYS).directory(directory)
            .durability(Durability.DURABLE).build())
        {
            int id = 0;
            while (store.stats().evicted() < 2_000)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 100));
                id++;
            }
            final byte[] big = SelfCheckingValue.encode(id, 1, 400 * 1024);
            final int batched = id;
            assertThrows(CapacityExceededException.class,
                () -> store.setAll(List.of(key(batched)), List.of(big), SetCondition.ALWAYS));
            assertNull(store.get(key(batched)));
            store.set(key(batched), big);
            assertNotNull(store.get(key(batched)));
            store.verifyIntegrity();
        }
    }

    @Test
    void anEvictedKeyStaysGoneAfterAReopen(@TempDir final Path directory)
    {
        final List<Integer> evicted = new ArrayList<>();
        final List<Integer> kept = new ArrayList<>();
        final int keys = 6_000;
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).maxMemory(BUDGET)
            .evictionPolicy(EvictionPolicy.ALL_KEYS).directory(directory).build())
        {
            for (int id = 0; id < keys; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 400));
            }
            for (int id = 0; id < keys; id++)
            {
                if (store.get(key(id)) == null)
                {
                    evicted.add(id);
                }
                else
                {
                    kept.add(id);
                }
            }
            assertFalse(evicted.isEmpty());
            store.closeWithoutCheckpoint();
        }
        try (OffHeapStore reopened = TestStores.builder(1, TestStores.clock()).maxMemory(BUDGET)
            .evictionPolicy(EvictionPolicy.ALL_KEYS).directory(directory).build())
        {
            for (final int id : evicted)
            {
                assertNull(reopened.get(key(id)), "evicted key " + id + " came back from the log");
            }
            for (final int id : kept)
            {
                assertNotNull(reopened.get(key(id)), "kept key " + id + " lost");
            }
            reopened.verifyIntegrity();
        }
    }

    @Test
    void entriesReadOnceSurviveAScanOfManyTimesTheStoreWithoutBeingReadAgain()
    {
        // S3-FIFO: a read entry is promoted to the main queue when the small queue's eviction reaches it, and a scan of
        // keys written once is evicted from small, leaving main alone. CLOCK loses such entries after one round.
        try (OffHeapStore store = store(1, EvictionPolicy.ALL_KEYS, TestStores.clock()))
        {
            final int hot = 300;
            for (int id = 0; id < hot; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 200));
                assertNotNull(store.get(key(id)));
            }
            for (int id = hot; id < hot + 40_000; id++)
            {
                store.set(key(id), SelfCheckingValue.encode(id, 1, 200));
            }
            assertTrue(store.stats().evicted() > 30_000, "evicted: " + store.stats().evicted());
            int kept = 0;
            for (int id = 0; id < hot; id++)
            {
                final byte[] value = store.get(key(id));
                if (value != null)
                {
                    assertEquals(1, SelfCheckingValue.check(id, new UnsafeBuffer(value), 0, value.length));
                    kept++;
                }
            }
            assertEquals(hot, kept, "read entries kept through a scan of 8x the store");
            store.verifyIntegrity();
        }
    }

    @Test
    void aKeyWrittenAgainSoonAfterItsEvictionJoinsTheMainQueue()
    {
        // The ghost remembers keys evicted from the small queue; written again, such a key goes to main, where a scan
        // of new keys does not reach it, while a key written for the first time at the same moment is scanned out.
        try (OffHeapStore store = store(1, EvictionPolicy.ALL_KEYS, TestStores.clock()))
        {
            final byte[] ghosted = key(0);
            store.set(ghosted, SelfCheckingValue.encode(0, 1, 200));
            int next = 1;
            // exists() does not count as a read (nor does it in Redis)
            while (store.exists(ghosted))
            {
                for (int n = 0; n < 100; n++, next++)
                {
                    store.set(key(next), SelfCheckingValue.encode(next, 1, 200));
                }
                assertTrue(next < 200_000, "the key was never evicted");
            }
            final byte[] fresh = "fresh".getBytes(StandardCharsets.US_ASCII);
            store.set(ghosted, SelfCheckingValue.encode(0, 2, 200));
            store.set(fresh, SelfCheckingValue.encode(7, 1, 200));
            for (int n = 0; n < 20_000; n++, next++)
            {
                store.set(key(next), SelfCheckingValue.encode(next, 1, 200));
            }
            assertNull(store.get(fresh), "a new key that was never read is scanned out of the small queue");
            final byte[] value = store.get(ghosted);
            assertNotNull(value, "the key the ghost remembered went to main");
            assertEquals(2, SelfCheckingValue.check(0, new UnsafeBuffer(value), 0, value.length));
            store.verifyIntegrity();
        }
    }
}
