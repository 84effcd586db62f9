package io.agni.store;

import io.agni.api.Durability;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code DURABLE} promises that a power loss costs about the last second of writes, also while a checkpoint runs,
 * however long it takes: the log's periodic sync must not wait for a checkpoint. A checkpoint is held up in its
 * first file operation (as a slow snapshot of a large store would be) while the test writes and waits for the sync
 * that covers each write; then the power goes.
 */
@Tag("once")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SyncDuringCheckpointTest
{
    /**
     * The sync runs every second: a write is on the device well within this, or the promise is broken.
     */
    private static final long SYNC_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final int WRITES = 3;

    /**
     * How the checkpoint that runs meanwhile was started.
     */
    enum Start
    {
        /**
         * {@code checkpointInBackground()}: on a thread of the store's.
         */
        BACKGROUND,
        /**
         * {@code checkpoint()}, on a thread of the caller's.
         */
        CALLER,
        /**
         * By itself, once the log passed {@code checkpointLogBytes}.
         */
        AUTOMATIC
    }

    @TempDir
    Path directory;

    private final CachedEpochClock clock = TestStores.clock();

    @ParameterizedTest
    @EnumSource(Start.class)
    void theLogIsSyncedAboutEverySecondWhileACheckpointRuns(final Start start) throws Exception
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> caller = null;
        try (OffHeapStore store = open(files))
        {
            store.set(b("first"), b("creates the log's segment"));
            files.holdNextCreateWritable(entered, release);
            switch (start)
            {
                case BACKGROUND -> assertTrue(store.checkpointInBackground());
                case CALLER -> caller = CompletableFuture.runAsync(store::checkpoint);
                case AUTOMATIC ->
                {
                    // Past checkpointLogBytes (1 MiB): the background thread starts a checkpoint by itself.
                    final byte[] value = new byte[64 * 1024];
                    for (int i = 0; i < 20; i++)
                    {
                        store.set(b("fill-" + i), value);
                    }
                }
                default -> fail(start.toString());
            }
            assertTrue(entered.await(30, TimeUnit.SECONDS), "the checkpoint began");
            for (int i = 0; i < WRITES; i++)
            {
                final int before = files.fileSyncs();
                store.set(b("during-" + i), b("v" + i));
                final long deadline = System.nanoTime() + SYNC_DEADLINE_NANOS;
                while (files.fileSyncs() == before)
                {
                    if (System.nanoTime() - deadline > 0)
                    {
                        fail("no sync within 5 s of a write while a checkpoint ran (" + start + ")");
                    }
                    Thread.onSpinWait();
                    Thread.yield();
                }
            }
            files.powerLoss();
            release.countDown();
            assertThrows(RuntimeException.class, store::close, "the power is off");
        }
        finally
        {
            release.countDown();
        }
        if (caller != null)
        {
            caller.handle((ignored, failure) -> null).get(30, TimeUnit.SECONDS);
        }
        try (OffHeapStore store = TestStores.builder(4, clock).directory(directory).durability(Durability.DURABLE)
            .fileLayer(FileLayer.system()).build())
        {
            for (int i = 0; i < WRITES; i++)
            {
                assertArrayEquals(b("v" + i), store.get(b("during-" + i)), "during-" + i + " was synced");
            }
        }
    }

    private OffHeapStore open(final FileLayer files)
    {
        return TestStores.builder(4, clock).maxMemory(64L << 20).directory(directory)
            .durability(Durability.DURABLE).fileLayer(files).logSegmentBytes(4 << 20)
            .checkpointLogBytes(1 << 20).build();
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
