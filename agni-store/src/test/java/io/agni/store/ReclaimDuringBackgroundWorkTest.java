package io.agni.store;

import io.agni.api.Durability;
import io.agni.api.EvictionPolicy;
import io.agni.store.file.FileLayer;
import io.agni.store.file.HoldingFileLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory that eviction frees goes back to the budget while the store's background work (the log's sync and
 * spare segments, a checkpoint) takes its time: that work keeps the store open without being a reader of its memory
 * (OperationGate's class comment). It used to be an operation, so a slow fsync or snapshot kept every buffer writers
 * retired meanwhile in the budget, and a cache at its budget refused entries that eviction had made room for (the
 * first test of a fresh JVM did, while the log's first spare segment was being made).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReclaimDuringBackgroundWorkTest
{
    private static final long BUDGET = 1 << 20;

    @TempDir
    Path directory;

    @Test
    void aCacheAtItsBudgetTakesLargeEntriesWhileTheLogsBackgroundThreadIsBusy() throws Exception
    {
        final HoldingFileLayer files = new HoldingFileLayer((call, path) -> call == HoldingFileLayer.Call.CREATE &&
            Thread.currentThread().getName().endsWith(" persistence"));
        try (OffHeapStore store = evictingStore(files, Durability.DURABLE))
        {
            assertTrue(files.entered.await(30, TimeUnit.SECONDS), "the background thread began a spare segment");
            try
            {
                fillAndWriteLargeEntries(store);
            }
            finally
            {
                files.release.countDown();
            }
        }
    }

    @Test
    void aCacheAtItsBudgetTakesLargeEntriesWhileABackgroundCheckpointIsBusy() throws Exception
    {
        // FAST: no log, so no background thread besides the checkpoint's
        final HoldingFileLayer files =
            new HoldingFileLayer((call, path) -> call == HoldingFileLayer.Call.CREATE_WRITABLE);
        try (OffHeapStore store = evictingStore(files, Durability.FAST))
        {
            assertTrue(store.checkpointInBackground());
            assertTrue(files.entered.await(30, TimeUnit.SECONDS), "the checkpoint began its snapshot file");
            try
            {
                fillAndWriteLargeEntries(store);
            }
            finally
            {
                files.release.countDown();
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (store.checkpointStatus().inProgress() && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
                Thread.yield();
            }
            assertFalse(store.checkpointStatus().inProgress(), "the checkpoint ended");
            assertFalse(store.checkpointStatus().lastCheckpointFailed(), store.checkpointStatus().toString());
        }
    }

    private OffHeapStore evictingStore(final FileLayer files, final Durability durability)
    {
        return TestStores.builder(4, TestStores.clock()).maxMemory(BUDGET).maxKeyLength(64)
            .maxValueLength(700 * 1024).evictionPolicy(EvictionPolicy.ALL_KEYS).directory(directory)
            .durability(durability).fileLayer(files).build();
    }

    /**
     * Fills the store until it has evicted 2,000 small entries, then writes entries of 400 KiB, which fit only in
     * memory that eviction in other shards gives back.
     */
    private static void fillAndWriteLargeEntries(final OffHeapStore store)
    {
        int id = 0;
        while (store.stats().evicted() < 2_000)
        {
            store.set(key(id), SelfCheckingValue.encode(id, 1, 100));
            id++;
        }
        for (int big = 0; big < 4; big++)
        {
            final byte[] value = SelfCheckingValue.encode(id + big, 1, 400 * 1024);
            store.set(key(id + big), value);
            assertArrayEquals(value, store.get(key(id + big)));
            assertTrue(store.stats().offHeapBytes() <= BUDGET, store.stats().toString());
        }
        store.verifyIntegrity();
    }

    private static byte[] key(final int id)
    {
        return ("key:" + id).getBytes(StandardCharsets.US_ASCII);
    }
}
