package io.agni.store.log;

import io.agni.api.StoreReadOnlyException;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogWriterTest
{
    @TempDir
    Path directory;

    @Test
    void recordsComeBackInOrderAcrossSegments() throws IOException
    {
        final List<Logs.Entry> written = new ArrayList<>();
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            for (int i = 0; i < 200; i++)
            {
                final String key = "key-" + i;
                if (i % 7 == 3)
                {
                    Logs.delete(log, key);
                    written.add(new Logs.Entry(LogLayout.DELETE, i + 1, key, null, 0));
                }
                else
                {
                    final String value = "value-" + "x".repeat(i % 50);
                    Logs.set(log, key, value, i % 5 == 0 ? 1_000_000L + i : LogLayout.NO_EXPIRY);
                    written.add(new Logs.Entry(LogLayout.SET, i + 1, key, value,
                        i % 5 == 0 ? 1_000_000L + i : LogLayout.NO_EXPIRY));
                }
            }
        }

        assertTrue(segmentFiles().size() > 2, "segments: " + segmentFiles());
        assertEquals(written, Logs.replay(directory, FileLayer.system(), 1));
        assertEquals(written.subList(100, 200), Logs.replay(directory, FileLayer.system(), 101));
    }

    @Test
    void aWriteThroughLogReadsBackTheSameRecordsLargeOnesIncluded() throws IOException
    {
        final List<Logs.Entry> written = new ArrayList<>();
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            log.writeThrough();
            for (int i = 0; i < 60; i++)
            {
                final String key = "key-" + i;
                // Every 20th record is over LogWriter.MAX_STAGED, so it is written into the mapping.
                final String value = i % 20 == 19 ? "L".repeat(LogWriter.MAX_STAGED + 10) : "value-" + i;
                final long end = Logs.set(log, key, value);
                written.add(new Logs.Entry(LogLayout.SET, i + 1, key, value, LogLayout.NO_EXPIRY));
                if (i % 7 == 0)
                {
                    log.awaitDurable(end);
                }
            }
        }
        assertEquals(written, Logs.replay(directory, FileLayer.system(), 1));
    }

    @Test
    void aStagedRecordWhoseWriteFailedIsNeverReportedDurable() throws Exception
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final LogWriter log = Logs.open(directory, files);
        log.writeThrough();
        final long staged = Logs.set(log, "staged", "not yet written");
        final CountDownLatch writing = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        files.holdNextWrite(writing, release);
        files.failNextWrite(new IOException("Input/output error"));
        final ExecutorService threads = Executors.newFixedThreadPool(2);
        try
        {
            // A record too large to stage makes this writer flush the staged one first, under the append lock; that
            // write is held, then fails.
            final Future<?> writer = threads.submit(() -> Logs.set(log, "large", "L".repeat(LogWriter.MAX_STAGED + 1)));
            assertTrue(writing.await(30, TimeUnit.SECONDS));
            // A thread waiting for the staged record finds no failure yet and waits for the append lock.
            final Future<?> waiter = threads.submit(() ->
            {
                log.awaitDurable(staged);
                return null;
            });
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!waitsForAppendLock(log) && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            release.countDown();
            final ExecutionException writeFailed = assertThrows(ExecutionException.class, writer::get);
            assertTrue(writeFailed.getCause() instanceof StoreReadOnlyException, writeFailed.toString());
            final ExecutionException waitFailed = assertThrows(ExecutionException.class, waiter::get,
                "the staged record was never written, so its wait must not succeed");
            assertTrue(waitFailed.getCause() instanceof StoreReadOnlyException, waitFailed.toString());
        }
        finally
        {
            release.countDown();
            threads.shutdownNow();
            log.close();
        }
    }

    private static boolean waitsForAppendLock(final LogWriter log)
    {
        return log.appendLockQueueLength() > 0;
    }

    @Test
    void appendsContinueAfterAReopen() throws IOException
    {
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            Logs.set(log, "a", "1");
        }
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            assertEquals(2, log.nextSequence());
            Logs.set(log, "b", "2");
        }
        assertEquals(List.of("a", "b"), keys(Logs.replay(directory, FileLayer.system(), 1)));
        assertEquals(1, segmentFiles().size());
    }

    @Test
    void aRecordLargerThanASegmentGetsASegmentOfItsOwn() throws IOException
    {
        final String big = "v".repeat(3 * Logs.SMALL_SEGMENT);
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            Logs.set(log, "small", "1");
            Logs.set(log, "big", big);
            Logs.set(log, "after", "2");
        }
        assertEquals(List.of("1", big, "2"),
            Logs.replay(directory, FileLayer.system(), 1).stream().map(Logs.Entry::value).toList());
    }

    @Test
    void aSpareMadeAheadBecomesTheNextSegmentAndALeftoverOneIsRemoved() throws IOException
    {
        final Path spare = directory.resolve(LogReader.SPARE_NAME);
        int written = 0;
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            log.startSegment();
            log.prepareSpare();
            assertTrue(Files.exists(spare));
            while (Files.exists(spare) && written < 1_000)
            {
                Logs.set(log, "key-" + written, "v".repeat(200));
                written++;
            }
            assertTrue(!Files.exists(spare), "the roll took the spare");
            assertEquals(2, segmentFiles().size());
            log.prepareSpare();
            assertTrue(Files.exists(spare));
        }
        assertTrue(!Files.exists(spare), "close deletes an unused spare");
        Files.write(spare, new byte[100]);

        assertEquals(written, Logs.replay(directory, FileLayer.system(), 1).size());
        assertTrue(!Files.exists(spare), "open deletes a leftover spare");
    }

    @Test
    void concurrentWritersShareSyncs() throws Exception
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final int threads = 8;
        final int perThread = 200;
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (LogWriter log = LogReader.replay(directory, files, 1 << 20, 1, (t, s, b, o, l) -> { }).writer())
        {
            final int syncsBefore = files.fileSyncs();
            final CountDownLatch start = new CountDownLatch(1);
            final List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int thread = t;
                done.add(pool.submit(() ->
                {
                    start.await();
                    for (int i = 0; i < perThread; i++)
                    {
                        log.awaitDurable(Logs.set(log, thread + "-" + i, "v"));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (final Future<?> f : done)
            {
                f.get(60, TimeUnit.SECONDS);
            }
            // Every append waited for a sync that covered it; with 8 writers most syncs covered several of them.
            final int syncs = files.fileSyncs() - syncsBefore;
            assertTrue(syncs >= 1 && syncs <= threads * perThread, "syncs: " + syncs);
        }
        finally
        {
            pool.shutdownNow();
        }
        assertEquals(threads * perThread, Logs.replay(directory, FileLayer.system(), 1).size());
    }

    @Test
    void aFailedSyncFailsEveryLaterWrite() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final LogWriter log = Logs.open(directory, files);
        final long first = Logs.set(log, "a", "1");
        files.failNextSync(new IOException("Input/output error"));

        final StoreReadOnlyException failed = assertThrows(StoreReadOnlyException.class, () -> log.awaitDurable(first));
        assertTrue(failed.getMessage().contains("syncing"), failed.getMessage());
        assertEquals("Input/output error", failed.getCause().getMessage());
        // A second sync would succeed on this layer, as it may on Linux after the kernel dropped the dirty pages:
        // the log must not trust it.
        assertThrows(StoreReadOnlyException.class, () -> Logs.set(log, "b", "2"));
        assertThrows(StoreReadOnlyException.class, log::sync);
        log.close();
    }

    @Test
    void aFullDiskWhenASegmentIsCreatedSaysSo() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final LogWriter log = Logs.open(directory, files);
        files.failNextCreate(new IOException("No space left on device"));

        final StoreReadOnlyException full = assertThrows(StoreReadOnlyException.class, () -> Logs.set(log, "a", "1"));
        assertTrue(full.getMessage().contains("the disk is full"), full.getMessage());
        assertThrows(StoreReadOnlyException.class, () -> Logs.set(log, "a", "1"));
        log.close();
        assertEquals(List.of(), segmentFiles());
    }

    private static List<String> keys(final List<Logs.Entry> entries)
    {
        return entries.stream().map(Logs.Entry::key).toList();
    }

    private List<Path> segmentFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.filter(p -> LogLayout.segmentIdOf(p.getFileName().toString()) > 0).toList();
        }
    }
}
