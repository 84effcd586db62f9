package io.agni.store.log;

import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import io.agni.store.file.ForwardingFileLayer;
import io.agni.store.file.MappedFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Segments a checkpoint frees are reused with their old records in them: no zeros are written for them, and replay
 * never takes an old record for a new one, nor the end of the new records for damage.
 */
class LogRecyclingTest
{
    @TempDir
    Path directory;

    @Test
    void aFreedSegmentIsReusedWithoutZerosAndItsOldRecordsAreNeverReplayed() throws IOException
    {
        final CountingFiles files = new CountingFiles(FileLayer.system());
        final LogWriter log = Logs.open(directory, files);
        final List<Logs.Entry> written = new ArrayList<>();
        write(log, written, 0, 150);
        final long checkpoint = written.get(written.size() - 1).sequence();
        assertTrue(log.deleteSegmentsBefore(checkpoint) >= 2, "segments were freed");
        assertEquals(SegmentFiles.MAX_RECYCLED, recycledFiles().size(), "the freed segments kept for reuse");

        final int createsBefore = files.creates.get();
        // Shorter records than the first life's, so the new records end in the middle of old ones.
        for (int i = 0; i < 30; i++)
        {
            final String key = "new-" + i;
            Logs.set(log, key, "n");
            written.add(new Logs.Entry(LogLayout.SET, written.size() + 1, key, "n", LogLayout.NO_EXPIRY));
        }
        assertEquals(createsBefore, files.creates.get(), "the rolls took the reused segments");
        assertTrue(recycledFiles().size() < SegmentFiles.MAX_RECYCLED, "a reused segment got a segment's name");

        // As after a crash: the writer is not closed, its mappings are the page cache.
        final List<Logs.Entry> replayed = new ArrayList<>();
        final LogReader.Replay replay = LogReader.replay(directory, FileLayer.system(), Logs.SMALL_SEGMENT,
            checkpoint, (type, sequence, buffer, offset, length) ->
                replayed.add(Logs.decode(type, sequence, buffer, offset)));
        replay.writer().close();
        assertEquals(-1, replay.tornOffset(), "the end of the new records is not a torn write");
        assertEquals(written.subList((int)checkpoint - 1, written.size()), replayed);
        assertTrue(recycledFiles().isEmpty(), "an open deletes the segments kept for reuse");
        log.close();
    }

    @Test
    void aCleanCloseKeepsOneSegmentThatTheNextOpenReuses() throws IOException
    {
        final List<Logs.Entry> written = new ArrayList<>();
        final LogWriter first = Logs.open(directory, FileLayer.system());
        write(first, written, 0, 150);
        first.close();
        final long next = written.size() + 1;
        assertTrue(first.deleteAllIfBefore(next, true));
        assertEquals(1, recycledFiles().size(), "the last segment is kept for reuse");

        final CountingFiles files = new CountingFiles(FileLayer.system());
        final LogReader.Replay reopened = LogReader.replay(directory, files, Logs.SMALL_SEGMENT, next,
            (type, sequence, buffer, offset, length) -> { });
        assertEquals(0, reopened.recordsReplayed());
        final LogWriter second = reopened.writer();
        Logs.set(second, "after", "the reopen");
        assertEquals(0, files.creates.get(), "the first segment after the reopen is the kept one");
        second.close();

        final List<Logs.Entry> replayed = Logs.replay(directory, FileLayer.system(), next);
        assertEquals(List.of(new Logs.Entry(LogLayout.SET, next, "after", "the reopen", LogLayout.NO_EXPIRY)),
            replayed);
    }

    @Test
    void aTornRecordInAReusedSegmentIsCut() throws IOException
    {
        final List<Logs.Entry> written = new ArrayList<>();
        final long checkpoint;
        final long lastEnd;
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            write(log, written, 0, 150);
            checkpoint = written.get(written.size() - 1).sequence();
            log.deleteSegmentsBefore(checkpoint);
            long end = 0;
            for (int i = 0; i < 20; i++)
            {
                end = Logs.set(log, "new-" + i, "value " + i);
                written.add(new Logs.Entry(LogLayout.SET, written.size() + 1, "new-" + i, "value " + i,
                    LogLayout.NO_EXPIRY));
            }
            lastEnd = end;
        }
        final long segmentId = lastEnd >>> 40;
        final int offset = (int)(lastEnd & ((1L << 40) - 1));
        try (RandomAccessFile file = new RandomAccessFile(
            directory.resolve(LogLayout.segmentFileName(segmentId)).toFile(), "rw"))
        {
            file.seek(offset - 10);
            file.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        }

        final List<Logs.Entry> replayed = Logs.replay(directory, FileLayer.system(), checkpoint);
        assertEquals(written.subList((int)checkpoint - 1, written.size() - 1), replayed);
    }

    /**
     * Checkpoints that free and reuse segments, then a power loss that keeps a random half of the unsynced pages:
     * what comes back from the last checkpoint on is a prefix with every awaited record in it.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void aPowerLossAfterReuseGivesAPrefixWithEveryAwaitedRecord(final int seed) throws IOException
    {
        final Random random = new Random(seed);
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final LogWriter log = Logs.open(directory, files);
        final List<Logs.Entry> written = new ArrayList<>();
        long checkpoint = 1;
        int lastDurable = 0;
        final int records = 300 + random.nextInt(500);
        for (int i = 1; i <= records; i++)
        {
            final String key = "k" + i;
            final String value = "v".repeat(random.nextInt(250));
            final long end = Logs.set(log, key, value);
            written.add(new Logs.Entry(LogLayout.SET, i, key, value, LogLayout.NO_EXPIRY));
            if (random.nextInt(25) == 0)
            {
                log.awaitDurable(end);
                lastDurable = i;
            }
            if (random.nextInt(60) == 0)
            {
                // A checkpoint: a snapshot (not modelled) holds everything before i + 1.
                checkpoint = i + 1;
                log.deleteSegmentsBefore(checkpoint);
            }
        }
        files.powerLoss(random, 0.5);

        final List<Logs.Entry> recovered = Logs.replay(directory, FileLayer.system(), checkpoint);
        final List<Logs.Entry> expected = written.subList((int)checkpoint - 1, written.size());
        assertTrue(checkpoint - 1 + recovered.size() >= lastDurable,
            "recovered up to " + (checkpoint - 1 + recovered.size()) + ", " + lastDurable + " were durable");
        assertEquals(expected.subList(0, recovered.size()), recovered);
        assertEquals(recovered, Logs.replay(directory, FileLayer.system(), checkpoint), "a second open agrees");
    }

    private static void write(final LogWriter log, final List<Logs.Entry> written, final int from, final int count)
    {
        for (int i = from; i < from + count; i++)
        {
            final String key = "key-" + i;
            final String value = "value-" + "x".repeat(20 + i % 60);
            Logs.set(log, key, value);
            written.add(new Logs.Entry(LogLayout.SET, written.size() + 1, key, value, LogLayout.NO_EXPIRY));
        }
    }

    private List<Path> recycledFiles() throws IOException
    {
        try (Stream<Path> listing = Files.list(directory))
        {
            return listing.filter(p -> LogLayout.isRecycledFileName(p.getFileName().toString())).toList();
        }
    }

    /**
     * A file layer that counts the files it creates.
     */
    private static final class CountingFiles extends ForwardingFileLayer
    {
        final AtomicInteger creates = new AtomicInteger();

        CountingFiles(final FileLayer files)
        {
            super(files);
        }

        @Override
        public MappedFile create(final Path path, final long capacity, final long allocated) throws IOException
        {
            creates.incrementAndGet();
            return super.create(path, capacity, allocated);
        }
    }
}
