package io.agni.store;

import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import io.agni.store.memory.DebugMemory;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Closing: while other threads use the store they see normal results or {@link StoreClosedException} and nothing
 * else (in particular, the JVM does not crash on freed memory); several closers are safe; the store-specific
 * methods refuse after close; and close releases every off-heap allocation. The contract suite checks every
 * {@code AgniStore} method after close.
 */
class CloseTest
{
    @Test
    @Tag("stress")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void closeDuringLoadGivesOtherThreadsOnlyResultsOrStoreClosedException() throws InterruptedException
    {
        final SplittableRandom rounds = new SplittableRandom(42);
        for (int round = 0; round < 50; round++)
        {
            final long closeAfter = rounds.nextInt(5_000);
            final AtomicLong operations = new AtomicLong();
            final OffHeapStore store = TestStores.builder(4, TestStores.clock()).maxMemory(8L * 1024 * 1024).build();
            final Workers workers = new Workers("close-round-" + round);
            workers.add(4, t -> hammer(store, t, operations, workers));
            workers.add(1, t ->
            {
                while (operations.get() < closeAfter && workers.running())
                {
                    Thread.onSpinWait();
                }
                store.close();
            });
            try
            {
                workers.start().join(20, TimeUnit.SECONDS);
            }
            finally
            {
                store.close();
            }

            assertThrows(StoreClosedException.class, () -> store.get(bytes("k1")));
        }
    }

    /**
     * Runs operations until the store is closed; any exception but {@link StoreClosedException} fails the thread.
     */
    private static void hammer(final OffHeapStore store, final int thread, final AtomicLong operations,
        final Workers workers)
    {
        final SplittableRandom random = new SplittableRandom(thread);
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(64);
        final UnsafeBuffer keyBuffer = new UnsafeBuffer(new byte[16]);
        try
        {
            while (workers.running())
            {
                final byte[] key = bytes("k" + random.nextInt(50));
                final byte[] value = new byte[random.nextInt(4) == 0 ? 5_000 + random.nextInt(20_000) :
                    random.nextInt(100)];
                switch (random.nextInt(13))
                {
                    case 8:
                        store.rename(key, bytes("k" + random.nextInt(50)), random.nextBoolean());
                        break;
                    case 9:
                        store.setRange(key, random.nextInt(200), bytes("xyz"));
                        break;
                    case 10:
                        keyBuffer.putBytes(0, key);
                        store.getRange(keyBuffer, 0, key.length, 0, 50, dst, 0);
                        break;
                    case 11:
                        store.randomKey();
                        break;
                    case 0:
                        store.set(key, value);
                        break;
                    case 1:
                        store.incrementBy(bytes("n" + random.nextInt(4)), 1);
                        break;
                    case 2:
                        store.append(key, bytes("abc"));
                        break;
                    case 3:
                        store.getAndSet(key, value, SetCondition.ALWAYS, ExpiryMode.CLEAR, 0);
                        break;
                    case 4:
                        keyBuffer.putBytes(0, key);
                        store.get(keyBuffer, 0, key.length, dst, 0);
                        break;
                    case 5:
                        store.delete(key);
                        break;
                    case 6:
                        store.scan(0, null, 20);
                        break;
                    case 7:
                        store.sweepExpired();
                        store.stats();
                        break;
                    default:
                        store.get(key);
                }
                operations.incrementAndGet();
            }
        }
        catch (final StoreClosedException expected)
        {
            // the one exception a closed store gives
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void severalThreadsMayCloseAtOnce() throws InterruptedException
    {
        final OffHeapStore store = TestStores.builder(4, TestStores.clock()).build();
        store.set(bytes("k"), bytes("v"));

        new Workers("closers").add(4, t -> store.close()).start().join(20, TimeUnit.SECONDS);

        assertThrows(StoreClosedException.class, () -> store.get(bytes("k")));
        store.close();
    }

    @Test
    void storeSpecificMethodsRefuseAfterClose()
    {
        final OffHeapStore store = TestStores.builder(2, TestStores.clock()).build();
        store.close();

        assertThrows(StoreClosedException.class, store::sweepExpired);
        assertThrows(StoreClosedException.class, store::verifyIntegrity);
        assertEquals(2, store.shardCount(), "configuration stays readable");
        assertTrue(store.toString().contains("closed"), store.toString());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void closeStopsTheBackgroundSweep()
    {
        final OffHeapStore store = TestStores.builder(2, TestStores.clock())
            .expirySweepInterval(Duration.ofMillis(1))
            .build();
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, TestStores.START_MS + 5);

        store.close();

        assertThrows(StoreClosedException.class, () -> store.get(bytes("k")));
    }

    @Test
    void closeReleasesEveryAllocationInDebugMemoryMode()
    {
        assumeTrue(DebugMemory.ENABLED, "only the debug-memory run records allocations");
        final long before = DebugMemory.outstanding();
        final OffHeapStore store = TestStores.builder(4, TestStores.clock()).build();
        for (int i = 0; i < 2_000; i++)
        {
            store.set(bytes("key:" + i), new byte[i % 500]);
        }
        store.set(bytes("large"), new byte[200_000]);
        assertTrue(DebugMemory.outstanding() > before, "an open store holds allocations");

        store.close();

        assertEquals(before, DebugMemory.outstanding(), "allocations left after close");
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
