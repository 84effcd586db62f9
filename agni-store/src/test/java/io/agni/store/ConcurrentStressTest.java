package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.ExpireCondition;
import io.agni.api.EvictionPolicy;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Threads hammering one store, with what each thread wrote known exactly: counts must add up, values must never
 * be torn or go back in time, and the store's structure must be intact afterwards. Bounded by operation counts,
 * not by time; every thread is joined with a timeout.
 */
@Tag("stress")
class ConcurrentStressTest
{
    private static final int THREADS = 4;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentIncrementsOnSharedKeysAddUpExactly() throws InterruptedException
    {
        final Workers workers = new Workers("concurrentIncrementsOnSharedKeysAddUpExactly");
        final int keys = 3;
        final int perThread = 90_000;
        try (OffHeapStore store = TestStores.builder(4, TestStores.clock()).build())
        {
            store.set(key("counter", 2), bytes("-5"));
            workers.add(THREADS, t ->
            {
                final UnsafeBuffer keyBuffer = new UnsafeBuffer(new byte[16]);
                for (int i = 0; i < perThread && workers.running(); i++)
                {
                    final int k = i % keys;
                    if ((i & 1) == 0)
                    {
                        store.incrementBy(key("counter", k), t + 1);
                    }
                    else
                    {
                        final int length = keyBuffer.putStringWithoutLengthAscii(0, "counter:" + k);
                        store.incrementBy(keyBuffer, 0, length, t + 1);
                    }
                }
            }).start().join(45, TimeUnit.SECONDS);

            // each key got perThread / keys increments from every thread t, of t + 1 each
            final long perKey = (long)(perThread / keys) * (1 + 2 + 3 + 4);
            assertEquals(Long.toString(perKey), text(store.get(key("counter", 0))));
            assertEquals(Long.toString(perKey), text(store.get(key("counter", 1))));
            assertEquals(Long.toString(perKey - 5), text(store.get(key("counter", 2))));
            store.verifyIntegrity();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentAppendsLoseNoBytes() throws InterruptedException
    {
        final Workers workers = new Workers("concurrentAppendsLoseNoBytes");
        final int perThread = 10_000;
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            workers.add(THREADS, t ->
            {
                final byte[] piece = {(byte)('a' + t)};
                for (int i = 0; i < perThread && workers.running(); i++)
                {
                    store.append(bytes("log"), piece);
                }
            }).start().join(45, TimeUnit.SECONDS);

            final byte[] log = store.get(bytes("log"));
            assertEquals(THREADS * perThread, log.length);
            final int[] counts = new int[THREADS];
            for (final byte b : log)
            {
                counts[b - 'a']++;
            }
            for (int t = 0; t < THREADS; t++)
            {
                assertEquals(perThread, counts[t], "bytes appended by thread " + t);
            }
            store.verifyIntegrity();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void readersNeverSeeATornValueOrAnOlderValueThanTheyAlreadySaw() throws InterruptedException
    {
        final Workers workers = new Workers("readersNeverSeeATornValueOrAnOlderValueThanTheyAlreadySaw");
        final int keys = 64;
        final int writes = 60_000;
        final AtomicInteger writersLeft = new AtomicInteger(2);
        final AtomicLong reads = new AtomicLong();
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = TestStores.builder(4, clock).build())
        {
            for (int k = 0; k < keys; k++)
            {
                store.set(sizedKey(k), SelfCheckingValue.encode(k, 0, 12));
            }
            workers
                .add(2, w ->
                {
                    // writer w owns the keys k with k % 2 == w, and writes each with increasing generations
                    final SplittableRandom random = new SplittableRandom(w);
                    try
                    {
                        for (int i = 1; i <= writes && workers.running(); i++)
                        {
                            final int k = 2 * random.nextInt(keys / 2) + w;
                            final byte[] value = SelfCheckingValue.encode(k, i, 12 + random.nextInt(600));
                            final byte[] key = sizedKey(k);
                            switch (i % 3)
                            {
                                case 0 -> store.set(key, value);
                                case 1 -> store.set(
                                    new UnsafeBuffer(key), 0, key.length, new UnsafeBuffer(value), 0, value.length);
                                default -> // an expiry time changes the entry's header shape; the clock stands still
                                    store.set(key, value, SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 60_000);
                            }
                        }
                    }
                    finally
                    {
                        writersLeft.decrementAndGet();
                    }
                })
                .add(2, r ->
                {
                    final int[] lastSeen = new int[keys];
                    final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(64);
                    final SplittableRandom random = new SplittableRandom(100 + r);
                    int n = 0;
                    while ((writersLeft.get() > 0 || n < 1000) && workers.running())
                    {
                        final int k = random.nextInt(keys);
                        final int generation;
                        if ((n & 1) == 0)
                        {
                            generation = SelfCheckingValue.check(k, store.get(sizedKey(k)));
                        }
                        else
                        {
                            final byte[] key = sizedKey(k);
                            final int length = store.get(new UnsafeBuffer(key), 0, key.length, dst, 3);
                            generation = SelfCheckingValue.check(k, dst, 3, length);
                        }
                        assertTrue(generation >= lastSeen[k],
                            "key " + k + " went back from generation " + lastSeen[k] + " to " + generation);
                        lastSeen[k] = generation;
                        n++;
                    }
                    reads.addAndGet(n);
                })
                .start()
                .join(45, TimeUnit.SECONDS);

            assertTrue(reads.get() >= 2000, "readers ran: " + reads.get());
            assertEquals(keys, store.size());
            store.verifyIntegrity();
        }
    }

    @ParameterizedTest
    @EnumSource(value = EvictionPolicy.class, names = {"ALL_KEYS", "ALL_KEYS_RANDOM"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void writersFarPastTheBudgetEvictWhileReadersNeverSeeAWrongValue(final EvictionPolicy policy)
        throws InterruptedException
    {
        final Workers workers = new Workers("writersFarPastTheBudgetEvictWhileReadersNeverSeeAWrongValue");
        final int keys = 20_000;
        final int writes = 40_000;
        final long budget = 1 << 20;
        final AtomicInteger writersLeft = new AtomicInteger(2);
        final AtomicLong reads = new AtomicLong();
        final AtomicLong found = new AtomicLong();
        try (OffHeapStore store = TestStores.builder(4, TestStores.clock()).maxMemory(budget)
            .evictionPolicy(policy).build())
        {
            workers
                .add(2, w ->
                {
                    // writer w owns the keys k with k % 2 == w; about 12 times the budget in all
                    final SplittableRandom random = new SplittableRandom(w);
                    try
                    {
                        for (int i = 1; i <= writes && workers.running(); i++)
                        {
                            final int k = 2 * random.nextInt(keys / 2) + w;
                            store.set(sizedKey(k), SelfCheckingValue.encode(k, i, 12 + random.nextInt(600)));
                            assertTrue(store.stats().offHeapBytes() <= budget);
                        }
                    }
                    finally
                    {
                        writersLeft.decrementAndGet();
                    }
                })
                .add(2, r ->
                {
                    final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(64);
                    final SplittableRandom random = new SplittableRandom(100 + r);
                    int n = 0;
                    int hits = 0;
                    while ((writersLeft.get() > 0 || n < 1000) && workers.running())
                    {
                        final int k = random.nextInt(keys);
                        final byte[] key = sizedKey(k);
                        final int length = store.get(new UnsafeBuffer(key), 0, key.length, dst, 3);
                        if (length >= 0)
                        {
                            SelfCheckingValue.check(k, dst, 3, length);
                            hits++;
                        }
                        n++;
                    }
                    reads.addAndGet(n);
                    found.addAndGet(hits);
                })
                .start()
                .join(45, TimeUnit.SECONDS);

            assertTrue(reads.get() >= 2000, "readers ran: " + reads.get());
            assertTrue(found.get() > 0, "readers found values: " + found.get());
            assertTrue(store.stats().evicted() > 0, "evicted: " + store.stats().evicted());
            assertEquals(0, store.stats().rejectedWrites());
            store.verifyIntegrity();
        }
    }

    @ParameterizedTest
    @EnumSource(value = EvictionPolicy.class, names = {"ALL_KEYS", "VOLATILE_TTL"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aBudgetLoweredWhileWritersAndReadersRunIsReachedAndNoReaderSeesAWrongValue(final EvictionPolicy policy)
        throws InterruptedException
    {
        final Workers workers = new Workers("aBudgetLoweredWhileWritersAndReadersRunIsReached");
        final int keys = 20_000;
        final int writes = 30_000;
        final long budget = 8L << 20;
        final long lowered = 2L << 20;
        final AtomicInteger writersLeft = new AtomicInteger(2);
        final AtomicLong written = new AtomicLong();
        final CachedEpochClock clock = TestStores.clock();
        final long expireAt = clock.time() + 3_600_000;
        try (OffHeapStore store = TestStores.builder(4, clock).maxMemory(budget).evictionPolicy(policy).build())
        {
            workers
                .add(2, w ->
                {
                    // writer w owns the keys k with k % 2 == w
                    final SplittableRandom random = new SplittableRandom(w);
                    try
                    {
                        for (int i = 1; i <= writes && workers.running(); i++)
                        {
                            final int k = 2 * random.nextInt(keys / 2) + w;
                            store.set(sizedKey(k), SelfCheckingValue.encode(k, i, 12 + random.nextInt(900)),
                                SetCondition.ALWAYS, ExpiryMode.AT, expireAt + k);
                            written.incrementAndGet();
                        }
                    }
                    finally
                    {
                        writersLeft.decrementAndGet();
                    }
                })
                .add(2, r ->
                {
                    final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(64);
                    final SplittableRandom random = new SplittableRandom(100 + r);
                    while (writersLeft.get() > 0 && workers.running())
                    {
                        final int k = random.nextInt(keys);
                        final byte[] key = sizedKey(k);
                        final int length = store.get(new UnsafeBuffer(key), 0, key.length, dst, 3);
                        if (length >= 0)
                        {
                            SelfCheckingValue.check(k, dst, 3, length);
                        }
                    }
                })
                .add(1, l ->
                {
                    while (written.get() < writes / 2 && workers.running())
                    {
                        Thread.onSpinWait();
                    }
                    store.maxMemory(lowered);
                })
                .start()
                .join(45, TimeUnit.SECONDS);

            assertEquals(lowered, store.stats().budgetBytes());
            // The writers may have finished before the store came all the way down: more writes finish the job.
            final SplittableRandom random = new SplittableRandom(9);
            for (int i = 0; store.stats().offHeapBytes() > lowered; i++)
            {
                final int k = random.nextInt(keys);
                store.set(sizedKey(k), SelfCheckingValue.encode(k, writes + i, 12 + random.nextInt(900)),
                    SetCondition.ALWAYS, ExpiryMode.AT, expireAt + k);
                assertTrue(i < 20_000, "still over the budget: " + store.stats());
            }
            assertTrue(store.stats().evicted() > 0);
            store.verifyIntegrity();
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void writersOfChangingSizesForceGrowthAndCompactionWhileReadersValidate() throws InterruptedException
    {
        final Workers workers = new Workers("writersOfChangingSizesForceGrowthAndCompactionWhileReadersValidate");
        final int keys = 400;
        final int writes = 20_000;
        final AtomicInteger writersLeft = new AtomicInteger(2);
        try (OffHeapStore store = TestStores.builder(4, TestStores.clock()).maxMemory(32L * 1024 * 1024).build())
        {
            workers
                .add(2, w ->
                {
                    final SplittableRandom random = new SplittableRandom(7 + w);
                    try
                    {
                        for (int i = 1; i <= writes && workers.running(); i++)
                        {
                            final int k = 2 * random.nextInt(keys / 2) + w;
                            final int size = random.nextInt(50) == 0 ? 70_000 + random.nextInt(40_000) :
                                12 + random.nextInt(random.nextBoolean() ? 100 : 8_000);
                            switch (random.nextInt(6))
                            {
                                case 0:
                                    store.delete(key("c", k));
                                    break;
                                case 1:
                                    store.getAndSet(key("c", k), SelfCheckingValue.encode(k, i, size),
                                        SetCondition.ALWAYS, ExpiryMode.CLEAR, 0);
                                    break;
                                case 2:
                                    store.set(key("c", k), SelfCheckingValue.encode(k, i, size),
                                        SetCondition.IF_PRESENT, ExpiryMode.KEEP, 0);
                                    break;
                                default:
                                    store.set(key("c", k), SelfCheckingValue.encode(k, i, size));
                            }
                        }
                    }
                    finally
                    {
                        writersLeft.decrementAndGet();
                    }
                })
                .add(2, r ->
                {
                    final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(64);
                    final SplittableRandom random = new SplittableRandom(200 + r);
                    while (writersLeft.get() > 0 && workers.running())
                    {
                        final int k = random.nextInt(keys);
                        final byte[] key = key("c", k);
                        final int length = store.get(new UnsafeBuffer(key), 0, key.length, dst, 0);
                        if (length != AgniStore.NOT_FOUND)
                        {
                            SelfCheckingValue.check(k, dst, 0, length);
                        }
                        if (random.nextInt(100) == 0)
                        {
                            final StoreStats stats = store.stats();
                            assertTrue(stats.offHeapBytes() <= stats.budgetBytes(), "over budget: " + stats);
                        }
                    }
                })
                .start()
                .join(75, TimeUnit.SECONDS);

            store.verifyIntegrity();
            final StoreStats stats = store.stats();
            assertEquals(0, stats.rejectedWrites(), "no write refused with the live data far below budget: " + stats);
            for (int k = 0; k < keys; k++)
            {
                final byte[] value = store.get(key("c", k));
                if (value != null)
                {
                    SelfCheckingValue.check(k, value);
                }
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void mixedOperationsWithExpiryLeaveAnIntactStore() throws InterruptedException
    {
        final Workers workers = new Workers("mixedOperationsWithExpiryLeaveAnIntactStore");
        final var clock = TestStores.clock();
        try (OffHeapStore store = TestStores.builder(2, clock).build())
        {
            workers
                .add(THREADS, t ->
                {
                    final SplittableRandom random = new SplittableRandom(t * 31L);
                    final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(16);
                    for (int i = 0; i < 50_000 && workers.running(); i++)
                    {
                        final byte[] key = key("m", random.nextInt(32));
                        switch (random.nextInt(10))
                        {
                            case 0:
                                store.set(key, bytes("v" + i), SetCondition.ALWAYS, ExpiryMode.AT,
                                    clock.time() + random.nextInt(20));
                                break;
                            case 1:
                                store.expire(key, clock.time() + random.nextInt(20), ExpireCondition.ALWAYS);
                                break;
                            case 2:
                                store.getAndDelete(key);
                                break;
                            case 3:
                                store.persist(key);
                                break;
                            case 4:
                                store.append(key, bytes("x"));
                                break;
                            case 5:
                                if (t == 0)
                                {
                                    clock.advance(1);
                                }
                                store.sweepExpired();
                                break;
                            case 6:
                                store.getAndExpire(key, ExpiryMode.KEEP, 0);
                                break;
                            case 7:
                                store.get(new UnsafeBuffer(key), 0, key.length, dst, 0);
                                break;
                            default:
                                store.get(key);
                        }
                    }
                })
                .start()
                .join(45, TimeUnit.SECONDS);

            store.verifyIntegrity();
            clock.advance(1_000);
            store.sweepExpired();
            final StoreStats stats = store.stats();
            assertEquals(0, stats.entriesWithExpiry(), "every expiring entry expired and was swept: " + stats);
            assertEquals(store.size(), stats.entries());
            store.verifyIntegrity();
        }
    }

    /**
     * Key {@code k} of the torn-value test: {@code v:k} padded with dashes to 4 + k % 16 bytes, so that the keys
     * take both ways the zero-copy GET compares a key (two words for 8 to 16 bytes, byte by byte otherwise).
     */
    private static byte[] sizedKey(final int k)
    {
        final byte[] name = key("v", k);
        final byte[] key = Arrays.copyOf(name, Math.max(4 + k % 16, name.length));
        Arrays.fill(key, name.length, key.length, (byte)'-');
        return key;
    }

    private static byte[] key(final String prefix, final int index)
    {
        return bytes(prefix + ":" + index);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(final byte[] bytes)
    {
        return bytes == null ? null : new String(bytes, StandardCharsets.US_ASCII);
    }
}
