package io.agni.store;

import io.agni.api.CheckpointStatus;
import io.agni.api.Durability;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import io.agni.store.file.HoldingFileLayer;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The {@link io.agni.api.Checkpointing} capability of an {@link OffHeapStore} with a directory: a checkpoint started in
 * the background publishes a snapshot the next open finds, one at a time, and the status says what the checkpoints did.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BackgroundCheckpointTest
{
    @TempDir
    Path directory;

    private final CachedEpochClock clock = TestStores.clock();

    @Test
    void aBackgroundCheckpointPublishesASnapshotThatTheNextOpenFinds()
    {
        try (OffHeapStore store = open(Durability.FAST, FileLayer.system()))
        {
            for (int i = 0; i < 100; i++)
            {
                store.set(b("k" + i), b("v" + i));
            }
            final CheckpointStatus before = store.checkpointStatus();
            assertEquals(0, before.lastCheckpointMillis());
            assertEquals(-1, before.lastDurationMillis());
            assertEquals(-1, before.changesSinceCheckpoint(), "FAST keeps no log to count changes in");

            clock.update(TestStores.START_MS + 5_000);
            assertTrue(store.checkpointInBackground());
            awaitCheckpointEnd(store);

            final CheckpointStatus after = store.checkpointStatus();
            assertEquals(TestStores.START_MS + 5_000, after.lastCheckpointMillis());
            assertFalse(after.lastCheckpointFailed());
            assertTrue(after.lastDurationMillis() >= 0, after.toString());
            assertEquals(-1, after.currentDurationMillis());
            store.set(b("after"), b("the snapshot"));
            store.closeWithoutCheckpoint();
        }
        try (OffHeapStore store = open(Durability.FAST, FileLayer.system()))
        {
            for (int i = 0; i < 100; i++)
            {
                assertArrayEquals(b("v" + i), store.get(b("k" + i)));
            }
            assertEquals(100, store.size(), "FAST keeps what the snapshot held, nothing written after it");
            assertEquals(TestStores.START_MS + 5_000, store.checkpointStatus().lastCheckpointMillis());
        }
    }

    @Test
    void aSecondBackgroundCheckpointWhileOneRunsIsRefusedAndTheStatusShowsTheRunningOne() throws Exception
    {
        final HoldingFileLayer files =
            new HoldingFileLayer((call, path) -> call == HoldingFileLayer.Call.CREATE_WRITABLE);
        try (OffHeapStore store = open(Durability.DURABLE, files))
        {
            store.set(b("a"), b("1"));
            assertTrue(store.checkpointInBackground());
            assertTrue(files.entered.await(30, TimeUnit.SECONDS), "the checkpoint reached its snapshot file");
            final CheckpointStatus running = store.checkpointStatus();
            assertTrue(running.inProgress());
            assertTrue(running.currentDurationMillis() >= 0, running.toString());

            assertFalse(store.checkpointInBackground(), "one checkpoint at a time");

            files.release.countDown();
            awaitCheckpointEnd(store);
            assertFalse(store.checkpointStatus().lastCheckpointFailed());
            assertTrue(store.checkpointInBackground(), "the next one may start once it ended");
            awaitCheckpointEnd(store);
        }
    }

    @Test
    void theChangesSinceTheLastCheckpointAreTheRecordsLoggedSinceItBegan()
    {
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertEquals(0, store.checkpointStatus().changesSinceCheckpoint());
            store.set(b("a"), b("1"));
            store.set(b("b"), b("2"));
            store.delete(b("a"));
            store.setAll(java.util.List.of(b("x"), b("y")), java.util.List.of(b("1"), b("2")),
                io.agni.api.SetCondition.ALWAYS);
            assertEquals(4, store.checkpointStatus().changesSinceCheckpoint(), "three writes and one batch");
            store.checkpoint();
            assertEquals(0, store.checkpointStatus().changesSinceCheckpoint());
            store.set(b("c"), b("3"));
            assertEquals(1, store.checkpointStatus().changesSinceCheckpoint());
        }
    }

    @Test
    void theStoreCheckpointsByItselfOnceTheLogHasGrownByCheckpointLogBytes()
    {
        try (OffHeapStore store = TestStores.builder(4, clock).directory(directory).durability(Durability.DURABLE)
            .checkpointLogBytes(1024 * 1024).build())
        {
            final byte[] value = new byte[1000];
            for (int i = 0; i < 900; i++)
            {
                store.set(b("k" + i), value);
            }
            assertEquals(0, store.checkpointStatus().lastCheckpointMillis(), "under 1 MiB of log: no checkpoint yet");
            clock.update(TestStores.START_MS + 7_000);
            for (int i = 900; i < 1200; i++)
            {
                store.set(b("k" + i), value);
            }
            awaitTrue(() -> store.checkpointStatus().lastCheckpointMillis() == TestStores.START_MS + 7_000,
                "the background thread checkpointed past 1 MiB of log");
            assertTrue(store.checkpointStatus().changesSinceCheckpoint() < 1200,
                store.checkpointStatus().toString());
        }
    }

    @Test
    void checkpointLogBytesUnderOneMebibyteIsRefused()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OffHeapStore.builder().checkpointLogBytes(1024 * 1024 - 1));
        assertEquals("checkpointLogBytes must be at least 1 MiB: 1048575", ex.getMessage());
    }

    @Test
    void aFailedCheckpointShowsInTheStatusUntilOneSucceeds()
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.FAST, files))
        {
            store.set(b("a"), b("1"));
            files.failNextSync(new IOException("Input/output error"));
            assertTrue(store.checkpointInBackground());
            awaitCheckpointEnd(store);
            assertTrue(store.checkpointStatus().lastCheckpointFailed());
            assertEquals(0, store.checkpointStatus().lastCheckpointMillis());

            store.checkpoint();
            assertFalse(store.checkpointStatus().lastCheckpointFailed());
            assertEquals(TestStores.START_MS, store.checkpointStatus().lastCheckpointMillis());
        }
    }

    @Test
    void aStoreWithoutADirectoryHasNoCheckpoints()
    {
        try (OffHeapStore store = TestStores.builder(2, clock).build())
        {
            assertSame(CheckpointStatus.NONE, store.checkpointStatus());
            assertThrows(IllegalStateException.class, store::checkpointInBackground);
            assertThrows(IllegalStateException.class, store::checkpoint);
        }
    }

    private static void awaitCheckpointEnd(final OffHeapStore store)
    {
        awaitTrue(() -> !store.checkpointStatus().inProgress(), "the background checkpoint ended");
    }

    private static void awaitTrue(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out waiting until " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    private OffHeapStore open(final Durability durability, final FileLayer files)
    {
        return TestStores.builder(4, clock).directory(directory).durability(durability).fileLayer(files).build();
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
