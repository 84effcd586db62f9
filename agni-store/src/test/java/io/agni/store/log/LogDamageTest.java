package io.agni.store.log;

import io.agni.store.LogCorruptedException;
import io.agni.store.file.FileLayer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged logs: a torn tail (truncated, zeroed or garbage) gives back the records before it, and the log goes on
 * from there; damage anywhere else stops the open with the file and offset, and never yields a wrong record.
 */
class LogDamageTest
{
    private static final int RECORDS = 120;

    @TempDir
    Path directory;

    private final List<Logs.Entry> written = new ArrayList<>();
    private final List<Long> ends = new ArrayList<>();

    /**
     * A log synced after every record, as a {@code PARANOID} store's is: each record but the first follows a
     * {@link LogLayout#SYNCED} record that says the one before it reached the device.
     */
    @BeforeEach
    void writeLog() throws IOException
    {
        writeLog(directory, true);
        assertTrue(segments().size() >= 3, "the log spans several segments");
    }

    private void writeLog(final Path into, final boolean syncEach) throws IOException
    {
        written.clear();
        ends.clear();
        try (LogWriter log = Logs.open(into, FileLayer.system()))
        {
            for (int i = 0; i < RECORDS; i++)
            {
                final String key = "key-" + i;
                final String value = "value-" + i + "-" + "y".repeat(i % 40);
                final long end = Logs.set(log, key, value);
                ends.add(end);
                written.add(new Logs.Entry(LogLayout.SET, i + 1, key, value, LogLayout.NO_EXPIRY));
                if (syncEach)
                {
                    log.awaitDurable(end);
                }
            }
        }
    }

    @Test
    void anUndamagedLogReplaysWhole() throws IOException
    {
        assertEquals(written, Logs.replay(directory, FileLayer.system(), 1));
    }

    @Test
    void aTruncatedLastSegmentKeepsItsWholeRecords() throws IOException
    {
        final Path last = lastSegment();
        final int lastEnd = endInLastSegment();
        try (RandomAccessFile file = new RandomAccessFile(last.toFile(), "rw"))
        {
            file.setLength(lastEnd - 5);
        }

        final List<Logs.Entry> replayed = Logs.replay(directory, FileLayer.system(), 1);
        assertEquals(written.subList(0, RECORDS - 1), replayed);
        appendThenReplayTwice(replayed);
    }

    @Test
    void aZeroedTailIsCut() throws IOException
    {
        final int lastEnd = endInLastSegment();
        overwrite(lastSegment(), lastEnd - 12, new byte[12]);

        final List<Logs.Entry> replayed = Logs.replay(directory, FileLayer.system(), 1);
        assertEquals(written.subList(0, RECORDS - 1), replayed);
        appendThenReplayTwice(replayed);
    }

    @Test
    void garbageAfterTheLastRecordIsCut() throws IOException
    {
        final byte[] garbage = new byte[300];
        new Random(7).nextBytes(garbage);
        overwrite(lastSegment(), endInLastSegment(), garbage);

        final List<Logs.Entry> replayed = Logs.replay(directory, FileLayer.system(), 1);
        assertEquals(written, replayed);
        appendThenReplayTwice(replayed);
    }

    @Test
    void aGarbledLastRecordIsCut() throws IOException
    {
        final byte[] garbage = new byte[20];
        new Random(11).nextBytes(garbage);
        overwrite(lastSegment(), endInLastSegment() - 20, garbage);

        assertEquals(written.subList(0, RECORDS - 1), Logs.replay(directory, FileLayer.system(), 1));
    }

    @Test
    void aFlippedBitInAnEarlierSegmentIsCorruption() throws IOException
    {
        final Path first = segments().get(0);
        final int offset = LogLayout.SEGMENT_HEADER_LENGTH + 100;
        flipBit(first, offset);

        final LogCorruptedException ex = assertThrows(LogCorruptedException.class,
            () -> Logs.replay(directory, FileLayer.system(), 1));
        assertEquals(first, ex.file());
        assertTrue(ex.offset() <= offset && ex.offset() >= LogLayout.SEGMENT_HEADER_LENGTH, "offset " + ex.offset());
        assertTrue(ex.getMessage().contains(first.getFileName().toString()), ex.getMessage());
    }

    @Test
    void aFlippedBitBeforeIntactRecordsOfTheLastSegmentIsCorruption() throws IOException
    {
        final Path last = lastSegment();
        flipBit(last, LogLayout.SEGMENT_HEADER_LENGTH + 30);

        final LogCorruptedException ex = assertThrows(LogCorruptedException.class,
            () -> Logs.replay(directory, FileLayer.system(), 1));
        assertEquals(last, ex.file());
        assertEquals(LogLayout.SEGMENT_HEADER_LENGTH, ex.offset());
        assertTrue(ex.getMessage().contains("intact record follows"), ex.getMessage());
    }

    @Test
    void aFlippedBitBeforeRecordsThatWereNeverSyncedCutsTheLogThere() throws IOException
    {
        // Without syncs, nothing says the damaged record reached the device: after a power loss the operating
        // system may have written later pages back and not this one, so replay keeps the prefix before it.
        final Path unsynced = Files.createDirectory(directory.resolve("unsynced"));
        writeLog(unsynced, false);
        final List<Path> segments = segments(unsynced);
        assertTrue(segments.size() >= 3, "the log spans several segments");
        flipBit(segments.get(1), LogLayout.SEGMENT_HEADER_LENGTH + 30);

        final List<Logs.Entry> replayed = Logs.replay(unsynced, FileLayer.system(), 1);
        assertTrue(replayed.size() > 0 && replayed.size() < RECORDS - 10, "replayed " + replayed.size());
        assertEquals(written.subList(0, replayed.size()), replayed);
        assertEquals(2, segments(unsynced).size(), "the segments after the cut are deleted");
        final Logs.Entry cutAt = written.get(replayed.size());
        try (LogWriter log = Logs.open(unsynced, FileLayer.system()))
        {
            assertEquals(cutAt.sequence(), log.nextSequence());
            Logs.set(log, "after", "cut");
        }
        final List<Logs.Entry> expected = new ArrayList<>(replayed);
        expected.add(new Logs.Entry(LogLayout.SET, cutAt.sequence(), "after", "cut", LogLayout.NO_EXPIRY));
        assertEquals(expected, Logs.replay(unsynced, FileLayer.system(), 1));
    }

    @Test
    void damageBeforeASyncedPointIsCorruptionEvenWhenTheSyncRecordIsInALaterSegment() throws IOException
    {
        final Path dir = Files.createDirectory(directory.resolve("late-sync"));
        try (LogWriter log = Logs.open(dir, FileLayer.system()))
        {
            long end = 0;
            for (int i = 0; i < 100; i++)
            {
                end = Logs.set(log, "key-" + i, "value-" + i + "-" + "z".repeat(40));
            }
            log.awaitDurable(end);
            Logs.set(log, "after", "the sync");
        }
        final List<Path> segments = segments(dir);
        assertTrue(segments.size() >= 2, "the log spans several segments");
        flipBit(segments.get(0), LogLayout.SEGMENT_HEADER_LENGTH + 30);

        final LogCorruptedException ex = assertThrows(LogCorruptedException.class,
            () -> Logs.replay(dir, FileLayer.system(), 1));
        assertEquals(segments.get(0), ex.file());
        assertTrue(ex.getMessage().contains("every record below sequence 101 had reached the device"),
            ex.getMessage());
    }

    @Test
    void aMissingSegmentIsCorruption() throws IOException
    {
        Files.delete(segments().get(1));

        final LogCorruptedException ex = assertThrows(LogCorruptedException.class,
            () -> Logs.replay(directory, FileLayer.system(), 1));
        assertTrue(ex.getMessage().contains("segment 2 is missing"), ex.getMessage());
    }

    @Test
    void aMissingSegmentBelowTheSnapshotIsNotNeededAndTheSegmentsBeforeItAreDeleted() throws IOException
    {
        // A checkpoint deletes the segments whose records all precede the snapshot's sequence one by one, then
        // syncs the directory: a crash in between can leave segment 1 with segment 2 gone.
        final List<Path> before = segments();
        final long snapshotFrom = firstSequenceOf(before.get(2));
        Files.delete(before.get(1));

        final List<Logs.Entry> replayed = Logs.replay(directory, FileLayer.system(), snapshotFrom);
        assertEquals(written.subList((int)snapshotFrom - 1, RECORDS), replayed);
        assertFalse(Files.exists(before.get(0)), "the segment before the hole is deleted");
        assertEquals(before.subList(2, before.size()), segments());
        assertEquals(replayed, Logs.replay(directory, FileLayer.system(), snapshotFrom));
    }

    @Test
    void aMissingSegmentThatHeldARecordTheSnapshotLacksIsCorruption() throws IOException
    {
        final List<Path> before = segments();
        final long snapshotFrom = firstSequenceOf(before.get(2)) - 1;
        Files.delete(before.get(1));
        final List<Path> left = segments();

        final LogCorruptedException ex = assertThrows(LogCorruptedException.class,
            () -> Logs.replay(directory, FileLayer.system(), snapshotFrom));
        assertTrue(ex.getMessage().contains("segment 2 is missing"), ex.getMessage());
        assertEquals(left, segments(), "nothing is deleted");
    }

    @Test
    void aDamagedSegmentHeaderIsCorruption() throws IOException
    {
        final Path second = segments().get(1);
        flipBit(second, 20);

        final LogCorruptedException ex = assertThrows(LogCorruptedException.class,
            () -> Logs.replay(directory, FileLayer.system(), 1));
        assertEquals(second, ex.file());
        assertEquals(0, ex.offset());
    }

    @Test
    void aLogThatStartsAfterTheNeededSequenceIsCorruption() throws IOException
    {
        Files.delete(segments().get(0));

        assertThrows(LogCorruptedException.class, () -> Logs.replay(directory, FileLayer.system(), 1));
        // A snapshot that covers the deleted segment's records needs only what is left.
        final long firstLeft = Logs.replay(directory, FileLayer.system(), RECORDS).get(0).sequence();
        assertEquals(RECORDS, firstLeft);
    }

    @Test
    void aLeftoverTemporarySegmentIsRemoved() throws IOException
    {
        final Path temporary = directory.resolve(LogLayout.segmentFileName(99) + LogReader.TEMPORARY_SUFFIX);
        Files.write(temporary, new byte[100]);

        assertEquals(written, Logs.replay(directory, FileLayer.system(), 1));
        assertFalse(Files.exists(temporary));
    }

    /**
     * The log goes on after a cut tail, and two more opens find the same records.
     */
    private void appendThenReplayTwice(final List<Logs.Entry> replayed) throws IOException
    {
        try (LogWriter log = Logs.open(directory, FileLayer.system()))
        {
            assertEquals(replayed.size() + 1, log.nextSequence());
            Logs.set(log, "after", "cut");
        }
        final List<Logs.Entry> expected = new ArrayList<>(replayed);
        expected.add(new Logs.Entry(LogLayout.SET, replayed.size() + 1, "after", "cut", LogLayout.NO_EXPIRY));
        assertEquals(expected, Logs.replay(directory, FileLayer.system(), 1));
        assertEquals(expected, Logs.replay(directory, FileLayer.system(), 1));
    }

    private int endInLastSegment()
    {
        return (int)(ends.get(RECORDS - 1) & ((1L << 40) - 1));
    }

    private Path lastSegment() throws IOException
    {
        final List<Path> all = segments();
        return all.get(all.size() - 1);
    }

    private List<Path> segments() throws IOException
    {
        return segments(directory);
    }

    private static List<Path> segments(final Path directory) throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.filter(p -> LogLayout.segmentIdOf(p.getFileName().toString()) > 0).sorted().toList();
        }
    }

    private static long firstSequenceOf(final Path segment) throws IOException
    {
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "r"))
        {
            f.seek(LogLayout.FIRST_SEQUENCE_OFFSET);
            return Long.reverseBytes(f.readLong());
        }
    }

    private static void overwrite(final Path file, final long offset, final byte[] bytes) throws IOException
    {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw"))
        {
            f.seek(offset);
            f.write(bytes);
        }
    }

    private static void flipBit(final Path file, final long offset) throws IOException
    {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw"))
        {
            f.seek(offset);
            final int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x10);
        }
    }
}
