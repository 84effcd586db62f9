package io.agni.store;

import io.agni.api.Durability;
import io.agni.api.EvictionPolicy;
import io.agni.store.file.FileLayer;
import io.agni.store.file.ForwardingFileLayer;
import io.agni.store.file.MappedFile;
import io.agni.store.file.WritableFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
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
        final BlockedFiles files = new BlockedFiles(true);
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
        final BlockedFiles files = new BlockedFiles(false);
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

    /**
     * Holds up the first log segment that the store's background thread creates, or the first snapshot file, until
     * the test releases it.
     */
    private static final class BlockedFiles extends ForwardingFileLayer
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final boolean logSegments;

        BlockedFiles(final boolean logSegments)
        {
            super(FileLayer.system());
            this.logSegments = logSegments;
        }

        @Override
        public MappedFile create(final Path path, final long capacity) throws IOException
        {
            if (logSegments && Thread.currentThread().getName().endsWith(" persistence"))
            {
                holdUp();
            }
            return super.create(path, capacity);
        }

        @Override
        public WritableFile createWritable(final Path path) throws IOException
        {
            if (!logSegments)
            {
                holdUp();
            }
            return super.createWritable(path);
        }

        private void holdUp() throws IOException
        {
            if (entered.getCount() == 0)
            {
                return;
            }
            entered.countDown();
            try
            {
                if (!release.await(30, TimeUnit.SECONDS))
                {
                    throw new IOException("the test never released the file");
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
