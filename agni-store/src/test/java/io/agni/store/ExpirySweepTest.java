package io.agni.store;

import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.EpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reclaiming expired entries: {@link OffHeapStore#sweepExpired()} removes exactly the expired ones and counts them,
 * and the background sweep gets to them without any access.
 */
class ExpirySweepTest
{
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void sweepReclaimsExactlyTheExpiredEntries()
    {
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = TestStores.builder(4, clock).build())
        {
            for (int i = 0; i < 300; i++)
            {
                store.set(bytes("soon:" + i), new byte[100], SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 10);
                store.set(bytes("later:" + i), new byte[100], SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 1000);
                store.set(bytes("never:" + i), new byte[100]);
            }
            final long liveBytesBefore = store.stats().liveEntryBytes();
            clock.advance(10);

            assertEquals(300, store.sweepExpired());

            final StoreStats stats = store.stats();
            assertEquals(600, store.size());
            assertEquals(600, stats.entries());
            assertEquals(300, stats.entriesWithExpiry());
            assertEquals(300, stats.expired());
            assertTrue(stats.liveEntryBytes() < liveBytesBefore, "reclaimed bytes no longer count as live");
            assertEquals(0, store.sweepExpired(), "nothing left to reclaim at this instant");
            assertTrue(store.exists(bytes("later:7")));
            assertTrue(store.exists(bytes("never:7")));
            store.verifyIntegrity();

            clock.advance(990);
            assertEquals(300, store.sweepExpired());
            assertEquals(300, store.size());
            assertEquals(0, store.stats().entriesWithExpiry());
            store.verifyIntegrity();
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void sweepOfAStoreWithoutExpiredEntriesReclaimsNothing()
    {
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = TestStores.builder(2, clock).build())
        {
            assertEquals(0, store.sweepExpired(), "empty store");
            store.set(bytes("a"), bytes("1"));
            store.set(bytes("b"), bytes("2"), SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 1000);

            assertEquals(0, store.sweepExpired());
            assertEquals(2, store.size());
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void backgroundSweepReclaimsExpiredEntriesWithoutAnyAccess() throws InterruptedException
    {
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = TestStores.builder(4, clock).expirySweepInterval(Duration.ofMillis(1)).build())
        {
            for (int i = 0; i < 200; i++)
            {
                store.set(bytes("k" + i), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 10);
            }
            store.set(bytes("stays"), bytes("v"));
            clock.advance(10);

            // bounded wait for an eventual effect; nothing here depends on how fast the sweep is
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (store.size() > 1 && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }

            assertEquals(1, store.size(), "expired entries left after 20 s of background sweeping");
            assertEquals(200, store.stats().expired());
            store.verifyIntegrity();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void backgroundSweepGoesOnAfterAFailedTick() throws InterruptedException
    {
        final CachedEpochClock time = TestStores.clock();
        final FailingOnceInSweep clock = new FailingOnceInSweep(time);
        try (OffHeapStore store = TestStores.builder(4, time).clock(clock)
            .expirySweepInterval(Duration.ofMillis(1)).build())
        {
            for (int i = 0; i < 200; i++)
            {
                store.set(bytes("k" + i), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, time.time() + 10);
            }
            store.set(bytes("stays"), bytes("v"));
            // Fail a tick while every shard still holds expiring entries, so that the sweep is sure to read the
            // clock again; only then let the entries expire. (Failing after the advance raced with a sweep that
            // had already read the clock and then removed everything, never to read it again.)
            clock.failNextSweep = true;
            assertTrue(clock.failed.await(20, TimeUnit.SECONDS), "the sweep thread never read the clock");
            time.advance(10);
            clock.ticksAfterFailure.drainPermits();

            // Wait on the sweep thread's own ticks after the failure (each reads the clock), with a deadline; a
            // sweep that stopped for good never ticks again and the wait fails. The size is checked again at least
            // every 10 ms: the tick that removes the last entries may read the clock before the permits are drained,
            // and later ticks skip shards without expiring entries without reading it.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (store.size() > 1)
            {
                final long left = deadline - System.nanoTime();
                assertTrue(left > 0,
                    "the sweep thread did not finish within 20 s of its failure; size " + store.size());
                if (clock.ticksAfterFailure.tryAcquire(Math.min(left, TimeUnit.MILLISECONDS.toNanos(10)),
                    TimeUnit.NANOSECONDS))
                {
                    clock.ticksAfterFailure.drainPermits();
                }
            }

            assertEquals(1, clock.failures, "the sweep thread met the injected failure once");
            assertEquals(1, store.size(), "expired entries left 20 s after the sweep failed once");
            assertEquals(200, store.stats().expired());
            store.verifyIntegrity();
        }
    }

    /**
     * A clock that throws once on the sweep thread after {@link #failNextSweep} is set, as a bug in one tick would.
     */
    private static final class FailingOnceInSweep implements EpochClock
    {
        private final EpochClock clock;
        final Semaphore ticksAfterFailure = new Semaphore(0);
        final CountDownLatch failed = new CountDownLatch(1);
        volatile boolean failNextSweep;
        volatile int failures;

        FailingOnceInSweep(final EpochClock clock)
        {
            this.clock = clock;
        }

        @Override
        public long time()
        {
            if (Thread.currentThread().getName().endsWith("expiry sweep"))
            {
                if (failNextSweep)
                {
                    failNextSweep = false;
                    failures++;
                    failed.countDown();
                    throw new IllegalStateException("injected sweep failure");
                }
                if (failures > 0)
                {
                    ticksAfterFailure.release();
                }
            }
            return clock.time();
        }
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
