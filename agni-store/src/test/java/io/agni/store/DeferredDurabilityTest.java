package io.agni.store;

import io.agni.api.Durability;
import io.agni.api.StoreReadOnlyException;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@link io.agni.api.DeferredDurability} capability of a {@code PARANOID} {@link OffHeapStore}: a thread
 * that defers makes writes that return before their sync, and {@code awaitDurable} makes them survive a power loss
 * with one sync for all; other threads keep waiting for their own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeferredDurabilityTest
{
    private static final int SEGMENT = 1024 * 1024;

    @TempDir
    Path directory;

    private final CachedEpochClock clock = TestStores.clock();

    @Test
    void deferredWritesReturnBeforeTheirSyncAndOneAwaitMakesThemAllSurviveAPowerLoss() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.PARANOID, files))
        {
            store.set(b("first"), b("creates the log's segment, which syncs it"));
            store.deferDurability(true);
            final int syncsBefore = files.fileSyncs();
            for (int i = 0; i < 50; i++)
            {
                store.set(b("kept-" + i), b("v" + i));
            }
            assertEquals(syncsBefore, files.fileSyncs(), "a deferred write waited for a sync");
            store.awaitDurable();
            assertEquals(syncsBefore + 1, files.fileSyncs(), "one sync for all the deferred writes");
            store.awaitDurable();
            assertEquals(syncsBefore + 1, files.fileSyncs(), "nothing new to wait for");
            for (int i = 0; i < 10; i++)
            {
                store.set(b("lost-" + i), b("v" + i));
            }
            files.powerLoss();
            assertThrows(RuntimeException.class, store::close);
        }
        try (OffHeapStore store = open(Durability.PARANOID, FileLayer.system()))
        {
            for (int i = 0; i < 50; i++)
            {
                assertArrayEquals(b("v" + i), store.get(b("kept-" + i)), "kept-" + i);
            }
            for (int i = 0; i < 10; i++)
            {
                assertNull(store.get(b("lost-" + i)), "lost-" + i + " was never synced");
            }
        }
    }

    @Test
    void withoutDeferringEveryWriteWaitsForItsSyncAndSwitchingBackRestoresThat()
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.PARANOID, files))
        {
            store.set(b("first"), b("creates the log's segment, which syncs it"));
            final int start = files.fileSyncs();
            store.set(b("a"), b("1"));
            store.set(b("b"), b("2"));
            assertEquals(start + 2, files.fileSyncs());

            store.deferDurability(true);
            store.set(b("c"), b("3"));
            assertEquals(start + 2, files.fileSyncs());
            store.deferDurability(false);
            store.set(b("d"), b("4"));
            assertEquals(start + 3, files.fileSyncs(), "the write waits again, and its sync covers c too");
            store.awaitDurable();
            assertEquals(start + 3, files.fileSyncs());
        }
    }

    @Test
    void theDeferralBelongsToTheThreadThatAskedForIt() throws Exception
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.PARANOID, files))
        {
            store.set(b("first"), b("creates the log's segment, which syncs it"));
            store.deferDurability(true);
            store.set(b("deferred"), b("1"));
            final int before = files.fileSyncs();
            CompletableFuture.runAsync(() -> store.set(b("other"), b("2"))).get(30, TimeUnit.SECONDS);
            assertEquals(before + 1, files.fileSyncs(), "another thread's write still waits for its sync");
        }
    }

    @Test
    void aFailedSyncIsReportedToTheThreadThatAwaitsIt()
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.PARANOID, files))
        {
            store.deferDurability(true);
            store.set(b("a"), b("1"));
            files.failNextSync(new IOException("Input/output error"));
            final StoreReadOnlyException failed = assertThrows(StoreReadOnlyException.class, store::awaitDurable);
            assertTrue(failed.getMessage().contains("syncing"), failed.getMessage());
            assertThrows(StoreReadOnlyException.class, () -> store.set(b("b"), b("2")));
            assertTrue(store.checkpointStatus().logFailed());
        }
    }

    /**
     * A sync that failed leaves the records it should have covered in doubt: every later {@code awaitDurable} says
     * so (it returned normally the second time once), while reads, which wait for nothing, go on.
     */
    @Test
    void afterAFailedSyncEveryAwaitThrowsAndReadsGoOn()
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.PARANOID, files))
        {
            store.deferDurability(true);
            store.set(b("a"), b("1"));
            files.failNextSync(new IOException("Input/output error"));
            assertThrows(StoreReadOnlyException.class, store::awaitDurable);
            assertThrows(StoreReadOnlyException.class, store::awaitDurable, "the write is still not durable");
            assertArrayEquals(b("1"), store.get(b("a")));
            assertThrows(StoreReadOnlyException.class, store::awaitDurable);
        }
    }

    /**
     * Without deferring, the failed sync is the write's own failure, reported once by the write; the thread's
     * reads go on, and an explicit wait still reports the write as not durable.
     */
    @Test
    void aWriteWhoseSyncFailedThrowsOnceAndTheThreadsReadsGoOn()
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.PARANOID, files))
        {
            store.set(b("first"), b("creates the log's segment, which syncs it"));
            files.failNextSync(new IOException("Input/output error"));
            assertThrows(StoreReadOnlyException.class, () -> store.set(b("a"), b("1")));
            assertArrayEquals(b("creates the log's segment, which syncs it"), store.get(b("first")));
            assertTrue(store.exists(b("first")));
            assertThrows(StoreReadOnlyException.class, store::awaitDurable);
        }
    }

    @Test
    void onlyAParanoidStoreWaitsForSyncsAndTheOthersIgnoreTheDeferral()
    {
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertFalse(store.writesAwaitDurable());
            store.deferDurability(true);
            store.set(b("a"), b("1"));
            store.awaitDurable();
        }
        try (OffHeapStore store = open(Durability.PARANOID, FileLayer.system()))
        {
            assertTrue(store.writesAwaitDurable());
        }
        try (OffHeapStore store = TestStores.builder(2, clock).build())
        {
            assertFalse(store.writesAwaitDurable());
            store.deferDurability(true);
            store.set(b("a"), b("1"));
            store.awaitDurable();
            assertArrayEquals(b("1"), store.get(b("a")));
        }
    }

    private OffHeapStore open(final Durability durability, final FileLayer files)
    {
        return TestStores.builder(4, clock).directory(directory).durability(durability).fileLayer(files)
            .logSegmentBytes(SEGMENT).build();
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
