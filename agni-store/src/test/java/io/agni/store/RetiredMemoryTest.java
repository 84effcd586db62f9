package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.store.memory.DirectMemory;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Retired memory is freed by agni once no reader can be inside it (docs/architecture.md, "Reclamation"): not while
 * a reader that may hold it is still in its operation, and without waiting for a garbage collection once it has
 * left.
 */
class RetiredMemoryTest
{
    private static final byte[] KEY = "big".getBytes(StandardCharsets.US_ASCII);
    /**
     * Above the 64 KiB at which an entry gets a segment of its own, which a delete retires at once.
     */
    private static final int VALUE_LENGTH = 200 * 1024;
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(10);

    @Test
    @Timeout(30)
    void aReaderInsideItsOperationKeepsADeletedEntrysSegmentUntilItLeaves() throws Exception
    {
        final byte[] value = value();
        final ExecutorService executor = Executors.newSingleThreadExecutor();
        final PausingDestination dst = new PausingDestination();
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).build())
        {
            store.set(KEY, value);
            final long held = store.stats().offHeapBytes();
            final long pooled = directPool();
            final Future<Integer> read =
                executor.submit(() -> store.get(new UnsafeBuffer(KEY), 0, KEY.length, dst, 0));
            assertTrue(dst.copying.await(10, TimeUnit.SECONDS), "the reader reached the copy");

            assertTrue(store.delete(KEY));

            assertEquals(held, store.stats().offHeapBytes(),
                "the deleted entry's segment is still held: the reader loaded it before the delete");
            assertEquals(pooled, directPool(), "and its memory is still allocated");
            dst.resume.countDown();
            assertEquals(AgniStore.NOT_FOUND, read.get(10, TimeUnit.SECONDS), "the retried read finds no key");
            assertArrayEquals(value, dst.firstCopy, "the bytes the reader copied after the delete were intact");
            assertTrue(store.stats().offHeapBytes() <= held - VALUE_LENGTH,
                "freed once the reader left: " + store.stats());
            assertTrue(directPool() <= pooled - VALUE_LENGTH, "and returned without a garbage collection");
        }
        finally
        {
            dst.resume.countDown();
            executor.shutdownNow();
        }
    }

    @Test
    @Timeout(30)
    void theSweepThreadFreesMemoryRetiredJustBeforeTheStoreWentIdle()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock())
            .expirySweepInterval(Duration.ofMillis(1)).build())
        {
            store.set(KEY, value());
            final long pooled = directPool();

            assertTrue(store.delete(KEY));

            // no further call on the store: only the sweep thread's tick can free the segment
            final long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (directPool() > pooled - VALUE_LENGTH && System.nanoTime() - deadline < 0)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            assertTrue(directPool() <= pooled - VALUE_LENGTH,
                "the deleted entry's segment was freed within 10 s: pool " + directPool() + " B, before " + pooled);
        }
    }

    private static long directPool()
    {
        return DirectMemory.pool().getMemoryUsed();
    }

    private static byte[] value()
    {
        final byte[] value = new byte[VALUE_LENGTH];
        for (int i = 0; i < value.length; i++)
        {
            value[i] = (byte)(i * 7 + 3);
        }
        return value;
    }

    /**
     * A destination whose first copy waits until the test lets it go on, and records the bytes it was given then.
     */
    private static final class PausingDestination extends ExpandableArrayBuffer
    {
        final CountDownLatch copying = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);
        volatile byte[] firstCopy;

        @Override
        public void putBytes(final int index, final DirectBuffer src, final int srcIndex, final int length)
        {
            if (copying.getCount() > 0)
            {
                copying.countDown();
                try
                {
                    if (!resume.await(10, TimeUnit.SECONDS))
                    {
                        throw new IllegalStateException("the test never let the copy go on");
                    }
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ex);
                }
                final byte[] copy = new byte[length];
                src.getBytes(srcIndex, copy);
                firstCopy = copy;
            }
            super.putBytes(index, src, srcIndex, length);
        }
    }
}
