package io.agni.store;

import io.agni.api.Durability;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import io.agni.store.file.ForwardingFileLayer;
import io.agni.store.log.LogLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A power loss while a checkpoint drops log segments, before the directory sync that makes its renames durable:
 * the store must open again on what reached the disk. Found by GlobalPrefixPowerLossTest (about 1 run in 200).
 * <ul>
 *     <li>A segment kept for reuse is handed to the writers before its rename ({@code wal-1.log} to
 *     {@code wal-recycled-1.tmp}) is durable; a writer that rolls to it writes and syncs segment 7's header into
 *     it, and after the power loss the file is {@code wal-1.log} again, with segment 7's header.</li>
 *     <li>Segments 1 and 2 are renamed for reuse and segment 3 deleted: the renames are lost, the delete kept, and
 *     the segments left before the snapshot's sequence have a gap.</li>
 * </ul>
 */
class DroppedSegmentPowerLossTest
{
    private static final int SEGMENT = 64 * 1024;

    @TempDir
    Path directory;

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aSegmentReusedBeforeItsRenameForReuseIsDurableStillOpensAfterAPowerLoss() throws Exception
    {
        final FaultInjectingFileLayer disk = new FaultInjectingFileLayer();
        final Holds holds = new Holds(disk, true);
        final OffHeapStore store = open(holds);
        fillSegments(store);
        final Thread checkpointer = checkpointInBackground(store);
        assertTrue(holds.dropSyncHeld.await(10, TimeUnit.SECONDS), "the checkpoint never dropped segments");
        final Thread writer = new Thread(() -> writeQuietly(store), "writer");
        writer.start();
        // A writer rolls to a new segment: one the checkpoint dropped (its rename held), or another.
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (holds.reuseMoveHeld.getCount() > 0 && holds.rolledElsewhere.getCount() > 0)
        {
            assertTrue(System.nanoTime() < deadline, "the writer never rolled to a new segment");
            holds.reuseMoveHeld.await(10, TimeUnit.MILLISECONDS);
        }
        powerLossThenClose(disk, holds, store, checkpointer, writer);
        reopenFindsTheSnapshot();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void segmentsDroppedBeforeTheDirectorySyncStillOpenAfterAPowerLoss() throws Exception
    {
        final FaultInjectingFileLayer disk = new FaultInjectingFileLayer();
        final Holds holds = new Holds(disk, false);
        final OffHeapStore store = open(holds);
        fillSegments(store);
        final Thread checkpointer = checkpointInBackground(store);
        assertTrue(holds.dropSyncHeld.await(10, TimeUnit.SECONDS), "the checkpoint never dropped segments");
        powerLossThenClose(disk, holds, store, checkpointer, null);
        reopenFindsTheSnapshot();
    }

    private static void fillSegments(final OffHeapStore store)
    {
        for (int i = 0; i < 600; i++)
        {
            store.set(b("k" + i), b("v".repeat(500) + i));
        }
    }

    private static Thread checkpointInBackground(final OffHeapStore store)
    {
        final Thread checkpointer = new Thread(() ->
        {
            try
            {
                store.checkpoint();
            }
            catch (final RuntimeException expected)
            {
                // The power goes out before its directory sync.
            }
        }, "checkpointer");
        checkpointer.start();
        return checkpointer;
    }

    private static void writeQuietly(final OffHeapStore store)
    {
        try
        {
            for (int i = 0; i < 10_000; i++)
            {
                store.set(b("w" + i), b("v".repeat(500) + i));
            }
        }
        catch (final RuntimeException expected)
        {
            // The power is off.
        }
    }

    private static void powerLossThenClose(final FaultInjectingFileLayer disk, final Holds holds,
        final OffHeapStore store, final Thread checkpointer, final Thread writer) throws Exception
    {
        disk.powerLoss();
        holds.release.countDown();
        checkpointer.join(10_000);
        if (writer != null)
        {
            writer.join(10_000);
        }
        try
        {
            store.close();
        }
        catch (final RuntimeException expected)
        {
            // The power is off.
        }
    }

    private void reopenFindsTheSnapshot()
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(4).maxMemory(TestStores.ROOMY_BUDGET)
            .directory(directory).durability(Durability.DURABLE).logSegmentBytes(SEGMENT).build())
        {
            assertArrayEquals(b("v".repeat(500) + 599), store.get(b("k599")));
        }
    }

    private OffHeapStore open(final FileLayer files)
    {
        return OffHeapStore.builder().shards(4).maxMemory(TestStores.ROOMY_BUDGET).directory(directory)
            .durability(Durability.DURABLE).fileLayer(files).logSegmentBytes(SEGMENT).build();
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Holds the checkpoint's directory sync after it renamed a segment for reuse, and (when asked) a writer's
     * rename of a reused segment to its new name, until {@link #release}; says when a writer rolled to a segment
     * made otherwise meanwhile.
     */
    private static final class Holds extends ForwardingFileLayer
    {
        final CountDownLatch dropSyncHeld = new CountDownLatch(1);
        final CountDownLatch reuseMoveHeld = new CountDownLatch(1);
        final CountDownLatch rolledElsewhere = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final boolean holdReuse;
        private volatile boolean renamedForReuse;

        Holds(final FileLayer files, final boolean holdReuse)
        {
            super(files);
            this.holdReuse = holdReuse;
        }

        @Override
        public void move(final Path from, final Path to) throws IOException
        {
            if (holdReuse && LogLayout.isRecycledFileName(from.getFileName().toString()))
            {
                reuseMoveHeld.countDown();
                await(release);
            }
            super.move(from, to);
            renamedForReuse |= LogLayout.isRecycledFileName(to.getFileName().toString());
            if (dropSyncHeld.getCount() == 0 && to.getFileName().toString().endsWith(".log"))
            {
                rolledElsewhere.countDown();
            }
        }

        @Override
        public void syncDirectory(final Path dir) throws IOException
        {
            if (renamedForReuse && Thread.currentThread().getName().equals("checkpointer") &&
                dropSyncHeld.getCount() == 1)
            {
                dropSyncHeld.countDown();
                await(release);
            }
            super.syncDirectory(dir);
        }

        private static void await(final CountDownLatch latch) throws IOException
        {
            try
            {
                if (!latch.await(10, TimeUnit.SECONDS))
                {
                    throw new IOException("the test never released the call");
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IOException(ex);
            }
        }
    }
}
