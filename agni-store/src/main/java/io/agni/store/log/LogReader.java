package io.agni.store.log;

import io.agni.store.LogCorruptedException;
import io.agni.store.file.Crc;
import io.agni.store.file.FileLayer;
import io.agni.store.file.MappedFile;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Replays the write-ahead log when a store opens, and leaves a {@link LogWriter} at its end.
 *
 * <p>A damaged record at the tail of the last segment, with nothing intact after it, is a write the process did not
 * finish (or the device did not keep): replay stops there, zeroes the rest of the segment, syncs, and logs a warning
 * with the offset. A damaged record anywhere else, or followed by an intact one, a segment missing between two
 * others, or a gap in the sequences the replay needs, is corruption: {@link LogCorruptedException} names the file
 * and the offset.
 */
public final class LogReader
{
    /**
     * The suffix of a segment being created; one left over from a crash is deleted.
     */
    static final String TEMPORARY_SUFFIX = ".tmp";

    /**
     * The name of the segment made ahead of need ({@link LogWriter#prepareSpare()}); one left over is deleted.
     */
    static final String SPARE_NAME = "wal-spare.tmp";

    private static final Logger LOG = LoggerFactory.getLogger(LogReader.class);

    private LogReader()
    {
    }

    /**
     * What a replay found.
     *
     * @param writer           the writer, at the log's end.
     * @param recordsReplayed  records handed to the handler.
     * @param segments         segment files read.
     * @param tornOffset       where a torn tail was cut, {@code -1} if none was.
     */
    public record Replay(LogWriter writer, long recordsReplayed, int segments, long tornOffset)
    {
    }

    /**
     * Replays every record from {@code fromSequence} on, in order.
     *
     * @param directory       the log's directory.
     * @param files           the file layer.
     * @param segmentCapacity the length of new segments.
     * @param fromSequence    the first sequence the caller needs (the one a snapshot is consistent from, or 1).
     * @param handler         receives the records.
     * @return the writer and what was read.
     * @throws IOException           when a file cannot be read, listed or repaired.
     * @throws LogCorruptedException when the log is damaged other than at its tail.
     */
    public static Replay replay(
        final Path directory, final FileLayer files, final int segmentCapacity, final long fromSequence,
        final LogRecordHandler handler) throws IOException
    {
        final List<Long> ids = segmentIds(directory, files);
        long expected = fromSequence;
        long replayed = 0;
        long torn = -1;
        LogSegment last = null;
        final TreeMap<Long, Long> firstSequences = new TreeMap<>();
        for (int i = 0; i < ids.size(); i++)
        {
            final long id = ids.get(i);
            final Path path = directory.resolve(LogLayout.segmentFileName(id));
            if (i > 0 && id != ids.get(i - 1) + 1)
            {
                throw new LogCorruptedException(path, 0, "segment " + (ids.get(i - 1) + 1) + " is missing");
            }
            final boolean isLast = i == ids.size() - 1;
            final MappedFile file = files.open(path);
            LogSegment segment = null;
            try
            {
                final Crc crc = new Crc(file.memory());
                final String headerProblem = LogLayout.segmentHeaderProblem(file.buffer(), crc, id, file.capacity());
                if (headerProblem != null)
                {
                    throw new LogCorruptedException(path, 0, headerProblem);
                }
                final long first = LogLayout.firstSequence(file.buffer());
                // The first segment may start before the snapshot; later ones continue the sequence, or skip only
                // sequences the snapshot already holds (a log whose tail was lost while the snapshot was kept).
                final boolean continues = i == 0 ? first <= fromSequence :
                    first == expected || first > expected && first <= fromSequence;
                if (!continues)
                {
                    throw new LogCorruptedException(path, 0, "the segment starts at sequence " + first +
                        " where " + expected + " was expected: records are missing");
                }
                segment = new LogSegment(id, first, path, file, LogLayout.SEGMENT_HEADER_LENGTH);
                firstSequences.put(id, first);
                final Scan scan = scan(segment, isLast, fromSequence, handler);
                replayed += scan.replayed;
                expected = first + scan.records;
                if (scan.tornAt >= 0)
                {
                    torn = scan.tornAt;
                    cutTornTail(segment, scan.tornAt);
                }
                if (LogLayout.headerCapacity(file.buffer()) > file.capacity())
                {
                    // A truncated file: what it still holds is replayed, and nothing more is appended to it.
                    LOG.warn("Log segment {} is {} bytes long where it was created with {}; its records up to " +
                        "offset {} are kept", path, file.capacity(), LogLayout.headerCapacity(file.buffer()),
                        segment.position);
                    segment.position = segment.capacity();
                }
            }
            finally
            {
                if (!isLast || segment == null)
                {
                    file.close();
                }
            }
            if (isLast)
            {
                last = segment;
            }
        }
        if (last != null && expected < fromSequence)
        {
            // The log ends before the snapshot does (its tail was lost while the snapshot was kept): appending here
            // would leave a gap inside a segment, so the next record starts a segment of its own.
            last.position = last.capacity();
        }
        final long next = Math.max(expected, fromSequence);
        return new Replay(new LogWriter(directory, files, segmentCapacity, last, next, firstSequences), replayed, ids.size(), torn);
    }

    private static List<Long> segmentIds(final Path directory, final FileLayer files) throws IOException
    {
        final List<Long> ids = new ArrayList<>();
        try (Stream<Path> listing = Files.list(directory))
        {
            for (final Path path : (Iterable<Path>)listing::iterator)
            {
                final String name = path.getFileName().toString();
                if (name.equals(SPARE_NAME) || name.endsWith(TEMPORARY_SUFFIX) &&
                    LogLayout.segmentIdOf(name.substring(0, name.length() - TEMPORARY_SUFFIX.length())) > 0)
                {
                    files.delete(path);
                    continue;
                }
                final long id = LogLayout.segmentIdOf(name);
                if (id > 0)
                {
                    ids.add(id);
                }
            }
        }
        ids.sort(Long::compare);
        return ids;
    }

    private static final class Scan
    {
        long records;
        long replayed;
        int tornAt = -1;
    }

    private static Scan scan(
        final LogSegment segment, final boolean isLast, final long fromSequence, final LogRecordHandler handler)
    {
        final Scan scan = new Scan();
        final UnsafeBuffer buffer = segment.buffer;
        final int capacity = segment.capacity();
        int offset = LogLayout.SEGMENT_HEADER_LENGTH;
        long sequence = segment.firstSequence;
        while (offset + LogLayout.RECORD_HEADER_LENGTH <= capacity)
        {
            if (LogLayout.isEndMarker(buffer, offset))
            {
                if (isLast && !zeroFrom(buffer, offset, capacity))
                {
                    damaged(segment, offset, "bytes after the last record", isLast, scan);
                }
                break;
            }
            final String problem = recordProblem(segment, offset, sequence);
            if (problem != null)
            {
                damaged(segment, offset, problem, isLast, scan);
                break;
            }
            final int length = LogLayout.payloadLength(buffer, offset);
            if (sequence >= fromSequence)
            {
                handler.onRecord(LogLayout.type(buffer, offset), sequence, buffer,
                    offset + LogLayout.RECORD_HEADER_LENGTH, length);
                scan.replayed++;
            }
            scan.records++;
            sequence++;
            offset += (int)LogLayout.recordLength(length);
        }
        segment.position = scan.tornAt >= 0 ? scan.tornAt : offset;
        return scan;
    }

    /**
     * A damaged record at {@code offset}: a torn tail when nothing intact follows in the last segment, else
     * corruption.
     */
    private static void damaged(
        final LogSegment segment, final int offset, final String problem, final boolean isLast, final Scan scan)
    {
        if (!isLast)
        {
            throw new LogCorruptedException(segment.path, offset, problem + ", and later segments follow");
        }
        final int intact = intactRecordAfter(segment, offset);
        if (intact >= 0)
        {
            throw new LogCorruptedException(segment.path, offset,
                problem + ", and an intact record follows at offset " + intact);
        }
        scan.tornAt = offset;
    }

    private static String recordProblem(final LogSegment segment, final int offset, final long expectedSequence)
    {
        final UnsafeBuffer buffer = segment.buffer;
        final String shape = shapeProblem(segment, offset);
        if (shape != null)
        {
            return shape;
        }
        if (LogLayout.storedCrc(buffer, offset) !=
            LogLayout.recordCrc(segment.crc, offset, LogLayout.payloadLength(buffer, offset)))
        {
            return "the record's checksum does not match";
        }
        final long sequence = LogLayout.sequence(buffer, offset);
        if (sequence != expectedSequence)
        {
            return "sequence " + sequence + " where " + expectedSequence + " was expected";
        }
        return null;
    }

    private static String shapeProblem(final LogSegment segment, final int offset)
    {
        final UnsafeBuffer buffer = segment.buffer;
        final int length = LogLayout.payloadLength(buffer, offset);
        if (length < 0 || LogLayout.recordLength(length) > segment.capacity() - (long)offset)
        {
            return "record length " + length + " does not fit in the segment";
        }
        if (!LogLayout.isRecordType(LogLayout.type(buffer, offset)) || !LogLayout.reservedClear(buffer, offset))
        {
            return "unknown record type " + LogLayout.type(buffer, offset);
        }
        return null;
    }

    /**
     * The offset of the first intact record (right shape, matching checksum) after {@code offset}, or -1.
     */
    private static int intactRecordAfter(final LogSegment segment, final int offset)
    {
        final UnsafeBuffer buffer = segment.buffer;
        for (int p = offset + LogLayout.RECORD_ALIGNMENT;
            p + LogLayout.RECORD_HEADER_LENGTH <= segment.capacity();
            p += LogLayout.RECORD_ALIGNMENT)
        {
            if (!LogLayout.isEndMarker(buffer, p) && shapeProblem(segment, p) == null &&
                LogLayout.storedCrc(buffer, p) ==
                LogLayout.recordCrc(segment.crc, p, LogLayout.payloadLength(buffer, p)))
            {
                return p;
            }
        }
        return -1;
    }

    private static boolean zeroFrom(final UnsafeBuffer buffer, final int from, final int capacity)
    {
        int p = from;
        for (; p + Long.BYTES <= capacity; p += Long.BYTES)
        {
            if (buffer.getLong(p) != 0)
            {
                return false;
            }
        }
        for (; p < capacity; p++)
        {
            if (buffer.getByte(p) != 0)
            {
                return false;
            }
        }
        return true;
    }

    private static void cutTornTail(final LogSegment segment, final int offset) throws IOException
    {
        LOG.warn("The write-ahead log ends in a torn write: {} from offset {} holds a record that was never " +
            "completed; cutting it there (the writes it held were not acknowledged as durable)", segment.path,
            offset);
        segment.buffer.setMemory(offset, segment.capacity() - offset, (byte)0);
        segment.file.sync();
    }
}
