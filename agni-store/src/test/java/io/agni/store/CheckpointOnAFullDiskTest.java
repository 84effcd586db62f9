package io.agni.store;

import io.agni.api.CheckpointStatus;
import io.agni.api.Durability;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A store whose disk has room for its log but not for a snapshot beside it: the checkpoint is refused before it
 * writes, so it never takes the room the log's next segment needs (which would make the store read-only), and the
 * status says it failed and when it is retried.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CheckpointOnAFullDiskTest
{
    private static final int SEGMENT = 1 << 20;
    private static final int VALUE = 64 * 1024;
    private static final int KEYS = 48;

    @TempDir
    Path directory;

    private final CachedEpochClock clock = TestStores.clock();

    @Test
    void aCheckpointThatWouldFillTheDiskIsRefusedAndTheLogGoesOn() throws Exception
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        try (OffHeapStore store = TestStores.builder(4, clock).maxMemory(64L << 20).directory(directory)
            .durability(Durability.DURABLE).fileLayer(files).logSegmentBytes(SEGMENT)
            .checkpointLogBytes(Long.MAX_VALUE).build())
        {
            write(store, 'a');
            // Room for the snapshot (3 MiB of values), not for it and the log's next segments.
            files.quota(KEYS * VALUE + SEGMENT / 2);
            // A snapshot that got as far as its sync holds its bytes there while the log goes on.
            files.holdNextWritableSync(entered, release);
            assertTrue(store.checkpointInBackground());
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (entered.getCount() > 0 && store.checkpointStatus().inProgress())
            {
                if (System.nanoTime() - deadline > 0)
                {
                    fail("the checkpoint neither wrote its snapshot nor ended");
                }
                Thread.yield();
            }

            // 3 MiB more of log: past the spare segment, so a segment is made while the snapshot would hold its room.
            write(store, 'b');
            release.countDown();
            final CheckpointStatus status = awaitCheckpointEnd(store);
            assertFalse(status.logFailed(), "the log went on: " + status);
            assertTrue(status.lastCheckpointFailed(), status.toString());
            assertEquals(1, status.failuresInARow(), status.toString());
            assertTrue(status.retryInMillis() >= 0 && status.retryInMillis() <= 1000, status.toString());
            assertEquals(1, entered.getCount(), "the refused checkpoint wrote no snapshot");

            files.quota(Long.MAX_VALUE / 2);
            store.checkpoint();
            assertEquals(0, store.checkpointStatus().failuresInARow());
            assertEquals(-1, store.checkpointStatus().retryInMillis());
        }
        finally
        {
            release.countDown();
        }
        try (OffHeapStore store = TestStores.builder(4, clock).maxMemory(64L << 20).directory(directory)
            .durability(Durability.DURABLE).fileLayer(FileLayer.system()).logSegmentBytes(SEGMENT).build())
        {
            for (int i = 0; i < KEYS; i++)
            {
                assertArrayEquals(value('b'), store.get(b("key-" + i)));
            }
        }
    }

    private static CheckpointStatus awaitCheckpointEnd(final OffHeapStore store)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        CheckpointStatus status;
        while ((status = store.checkpointStatus()).inProgress())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("the checkpoint did not end: " + status);
            }
            Thread.yield();
        }
        return status;
    }

    private static void write(final OffHeapStore store, final char fill)
    {
        final byte[] value = value(fill);
        for (int i = 0; i < KEYS; i++)
        {
            store.set(b("key-" + i), value);
        }
    }

    private static byte[] value(final char fill)
    {
        final byte[] value = new byte[VALUE];
        Arrays.fill(value, (byte)fill);
        return value;
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
