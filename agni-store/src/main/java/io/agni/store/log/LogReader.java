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
 * <p>Where the records stop short of the log's end (a damaged record, or a segment that ends before the next one
 * begins), replay asks whether the log shows that the missing record had reached the device: a
 * {@link LogLayout#SYNCED} record anywhere in the log that puts the durable point past it.
 * <ul>
 *   <li>If it does, synced data is damaged: corruption. {@link LogCorruptedException} names the file and the
 *   offset.</li>
 *   <li>If not, and nothing intact follows, it is a torn write (the process stopped during an append): replay
 *   stops there, zeroes the rest of the segment, syncs, and logs a warning with the offset.</li>
 *   <li>If not, and intact records or segments follow, the device lost writes that were never synced and kept
 *   later ones (after a power loss, the operating system may have written dirty pages back in any order): replay
 *   stops at the first missing record, so that what comes back is a prefix of what was written, deletes what
 *   followed, and logs a warning that says how much.</li>
 * </ul>
 * A segment missing between two others is corruption when it may have held a record the replay needs; when the
 * segment after it starts at or below the sequence the replay needs, neither it nor the segments before it did
 * (a checkpoint deletes those segments one by one before it syncs the directory, so a crash in between can leave
 * such a hole): the segments before the hole are deleted. A damaged segment header, a log that starts after the
 * sequence the replay needs, or an intact record whose payload's lengths disagree with its length
 * ({@link LogPayloads}) is corruption.
 */
public final class LogReader
{
    /**
     * The suffix of a segment being created; one left over from a crash is deleted.
     */
    static final String TEMPORARY_SUFFIX = ".tmp";

    /**
     * The name of the segment made ahead of need ({@link SegmentFiles#prepareSpare()}); one left over is deleted.
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
        final List<Path> reusable = new ArrayList<>();
        final List<Long> ids = dropSegmentsBeforeUnneededHole(
            directory, files, segmentIds(directory, files, reusable), fromSequence);
        final Evidence evidence = new Evidence();
        long expected = fromSequence;
        long replayed = 0;
        long rewritten = 0;
        long torn = -1;
        // The segment read last, still open: the writer appends to it, or a cut needs it.
        LogSegment last = null;
        final TreeMap<Long, Long> firstSequences = new TreeMap<>();
        try
        {
            for (int i = 0; i < ids.size(); i++)
            {
                final long id = ids.get(i);
                final Path path = directory.resolve(LogLayout.segmentFileName(id));
                if (i > 0 && id != ids.get(i - 1) + 1)
                {
                    throw new LogCorruptedException(path, 0, "segment " + (ids.get(i - 1) + 1) + " is missing");
                }
                final MappedFile file = files.open(path);
                final long first;
                try
                {
                    final String headerProblem =
                        LogLayout.segmentHeaderProblem(file.buffer(), new Crc(file.memory()), id, file.capacity());
                    if (headerProblem != null)
                    {
                        throw new LogCorruptedException(path, 0, headerProblem);
                    }
                    first = LogLayout.firstSequence(file.buffer());
                    // The first segment may start before the snapshot; later ones continue the sequence, or skip
                    // only sequences the snapshot already holds (a log whose tail was lost while the snapshot was
                    // kept).
                    final boolean continues = i == 0 ? first <= fromSequence :
                        first == expected || first > expected && first <= fromSequence;
                    if (!continues)
                    {
                        final String problem = "the segment starts at sequence " + first + " where " + expected +
                            " was expected: records are missing";
                        if (i == 0 || first < expected)
                        {
                            throw new LogCorruptedException(path, 0, problem);
                        }
                        // The segment before stops short: its tail never reached the device, or was damaged.
                        file.close();
                        stopShort(directory, files, last, last.position, expected, evidence, ids, i,
                            "the segment ends at sequence " + expected + " where the next starts at " + first);
                        break;
                    }
                }
                catch (final IOException | RuntimeException ex)
                {
                    file.close();
                    throw ex;
                }
                if (last != null)
                {
                    // A crash can leave its pages unsynced; the writer's first sync covers only the last segment.
                    last.file.sync();
                    last.file.close();
                }
                final LogSegment segment =
                    new LogSegment(id, first, path, file, LogLayout.SEGMENT_HEADER_LENGTH, 0);
                last = segment;
                firstSequences.put(id, first);
                final Scan scan = scan(segment, fromSequence, handler, evidence);
                replayed += scan.replayed;
                expected = first + scan.records;
                if (scan.damagedAt >= 0)
                {
                    torn = scan.damagedAt;
                    stopShort(directory, files, segment, scan.damagedAt, expected, evidence, ids, i + 1,
                        scan.problem);
                }
                rewritten += rewriteUnproven(segment, Math.max(evidence.durableBelow, fromSequence));
                // Where its records end, pages have blocks; past that the writer gives them blocks before it writes.
                segment.allocated = segment.position;
                if (LogLayout.headerCapacity(file.buffer()) > file.capacity())
                {
                    // A truncated file: what it still holds is replayed, and nothing more is appended to it.
                    LOG.warn("Log segment {} is {} bytes long where it was created with {}; its records up to " +
                        "offset {} are kept", path, file.capacity(), LogLayout.headerCapacity(file.buffer()),
                        segment.position);
                    segment.position = segment.capacity();
                }
                if (scan.damagedAt >= 0)
                {
                    break;
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            if (last != null)
            {
                last.file.close();
            }
            throw ex;
        }
        if (last != null && expected < fromSequence)
        {
            // The log ends before the snapshot does (its tail was lost while the snapshot was kept): appending here
            // would leave a gap inside a segment, so the next record starts a segment of its own.
            last.position = last.capacity();
        }
        if (last != null)
        {
            // What was replayed is on the device before anything is appended: a SYNCED record will say so.
            last.file.sync();
        }
        if (rewritten > 0)
        {
            LOG.info("Rewrote {} bytes of log records in {} that no sync had proven on the device, so that the " +
                "sync before the first write makes them durable (a failed sync may have left their pages clean " +
                "in the page cache and never written)", rewritten, directory);
        }
        final long next = Math.max(expected, fromSequence);
        final LogWriter writer = new LogWriter(directory, files, segmentCapacity, last, next, firstSequences);
        for (final Path path : reusable)
        {
            writer.reuse(path);
        }
        return new Replay(writer, replayed, ids.size(), torn);
    }

    /**
     * The records stop short at {@code offset} of {@code segment}, where sequence {@code missing} was due: decides
     * whether that is corruption (throws), a torn write, or writes the device lost while keeping later ones, and
     * for the last two cuts the log there: zeroes the rest of the segment and deletes segments
     * {@code ids[later...]}.
     */
    private static void stopShort(
        final Path directory, final FileLayer files, final LogSegment segment, final int offset, final long missing,
        final Evidence evidence, final List<Long> ids, final int later, final String problem) throws IOException
    {
        final Evidence after = new Evidence();
        final int firstIntact = intactRecords(segment.buffer, segment.crc, offset + LogLayout.RECORD_ALIGNMENT,
            segment.capacity(), segment.firstSequence, after);
        for (int j = later; j < ids.size(); j++)
        {
            final MappedFile file = files.open(directory.resolve(LogLayout.segmentFileName(ids.get(j))));
            try
            {
                final Crc crc = new Crc(file.memory());
                if (LogLayout.segmentHeaderProblem(file.buffer(), crc, ids.get(j), file.capacity()) == null)
                {
                    intactRecords(file.buffer(), crc, LogLayout.SEGMENT_HEADER_LENGTH, (int)file.capacity(),
                        LogLayout.firstSequence(file.buffer()), after);
                }
            }
            finally
            {
                file.close();
            }
        }
        final long durableBelow = Math.max(evidence.durableBelow, after.durableBelow);
        if (durableBelow > missing)
        {
            throw new LogCorruptedException(segment.path, offset, problem + (firstIntact >= 0 ?
                ", an intact record follows at offset " + firstIntact : "") + ", and the log shows that every " +
                "record below sequence " + durableBelow + " had reached the device");
        }
        final int laterSegments = ids.size() - later;
        if (after.intact == 0 && laterSegments == 0)
        {
            LOG.warn("The write-ahead log ends in a torn write: {} from offset {} holds a record that was never " +
                "completed ({}); cutting it there (the writes it held were not acknowledged as durable)",
                segment.path, offset, problem);
        }
        else
        {
            LOG.warn("The write-ahead log stops short at {} offset {} ({}), with {} intact record(s) after it in " +
                "this and {} later segment(s): none of it had been synced, so the device lost some unsynced " +
                "writes and kept later ones (a power loss). Replay stops at sequence {}, so that the store is a " +
                "prefix of what was written; what follows is deleted", segment.path, offset, problem, after.intact,
                laterSegments, missing);
            for (int j = later; j < ids.size(); j++)
            {
                files.delete(directory.resolve(LogLayout.segmentFileName(ids.get(j))));
            }
            files.syncDirectory(directory);
        }
        zeroFrom(segment, offset);
        segment.file.sync();
        segment.position = offset;
    }

    /**
     * The segments from the last hole in {@code ids} (a segment missing between two others) after which the log
     * starts at or below {@code fromSequence}: those before it hold only records the replay does not need, and are
     * deleted. Any other hole is left for the replay to report.
     */
    private static List<Long> dropSegmentsBeforeUnneededHole(
        final Path directory, final FileLayer files, final List<Long> ids, final long fromSequence) throws IOException
    {
        int from = 0;
        for (int i = ids.size() - 1; i > 0 && from == 0; i--)
        {
            if (ids.get(i) != ids.get(i - 1) + 1)
            {
                // Both headers intact, and the segment before the hole starting before the one after it: else the
                // segments are not one log, and the replay reports them.
                final long after = firstSequence(directory, files, ids.get(i));
                final long before = after >= 0 && after <= fromSequence ?
                    firstSequence(directory, files, ids.get(i - 1)) : -1;
                if (before >= 0 && before < after)
                {
                    from = i;
                }
            }
        }
        if (from == 0)
        {
            return ids;
        }
        LOG.warn("Log segment(s) {} missing from {}, and the segment(s) before ({}) hold only records below " +
            "sequence {}, which the snapshot holds: a checkpoint that was deleting them stopped (a crash); deleting " +
            "the rest", range(ids.get(from - 1) + 1, ids.get(from) - 1), directory, range(ids.get(0),
            ids.get(from - 1)), fromSequence);
        for (int i = 0; i < from; i++)
        {
            files.delete(directory.resolve(LogLayout.segmentFileName(ids.get(i))));
        }
        files.syncDirectory(directory);
        return new ArrayList<>(ids.subList(from, ids.size()));
    }

    private static String range(final long first, final long last)
    {
        return first == last ? Long.toString(first) : first + " to " + last;
    }

    /**
     * The first sequence in segment {@code id}'s header, {@code -1} when the header is damaged.
     */
    private static long firstSequence(final Path directory, final FileLayer files, final long id) throws IOException
    {
        final MappedFile file = files.open(directory.resolve(LogLayout.segmentFileName(id)));
        try
        {
            return LogLayout.segmentHeaderProblem(file.buffer(), new Crc(file.memory()), id, file.capacity()) == null ?
                LogLayout.firstSequence(file.buffer()) : -1;
        }
        finally
        {
            file.close();
        }
    }

    /**
     * Zeroes {@code segment} from {@code offset} to its end, through the file and only the pages that hold anything
     * (a segment is a hole past what was written, and a write to a hole through the mapping would need a block).
     */
    private static void zeroFrom(final LogSegment segment, final int offset) throws IOException
    {
        final UnsafeBuffer buffer = segment.buffer;
        final int capacity = segment.capacity();
        final int page = 4096;
        int from = offset;
        while (from < capacity)
        {
            final int to = Math.min(capacity, (from / page + 1) * page);
            if (!allZero(buffer, from, to))
            {
                segment.file.write(java.nio.ByteBuffer.allocate(to - from), from);
            }
            from = to;
        }
    }

    private static boolean allZero(final UnsafeBuffer buffer, final int from, final int to)
    {
        for (int p = from; p < to; p++)
        {
            if (buffer.getByte(p) != 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes the records of {@code segment} from the first one at or after sequence {@code unprovenFrom} to its end
     * again, through the file: the PostgreSQL "fsyncgate" lesson. Nothing in the log proves those records reached the
     * device (no {@link LogLayout#SYNCED} record covers them), and after a failed sync Linux marks the pages it could
     * not write clean while they stay in the page cache: this open would read them, its sync would succeed without
     * writing them, and the next {@code SYNCED} record would certify records the device never had. A write dirties
     * the pages again, so the sync that follows (before anything is appended) writes them or fails.
     *
     * @return the bytes rewritten.
     */
    private static long rewriteUnproven(final LogSegment segment, final long unprovenFrom) throws IOException
    {
        final UnsafeBuffer buffer = segment.buffer;
        int offset = LogLayout.SEGMENT_HEADER_LENGTH;
        while (offset < segment.position && LogLayout.sequence(buffer, offset) < unprovenFrom)
        {
            offset += (int)LogLayout.recordLength(LogLayout.payloadLength(buffer, offset));
        }
        if (offset >= segment.position)
        {
            return 0;
        }
        final int length = segment.position - offset;
        segment.file.write(segment.file.memory().duplicate().limit(segment.position).position(offset), offset);
        return length;
    }

    /**
     * The ids of the segment files, in order; deletes temporary files, and adds to {@code reusable} the freed
     * segments a clean close kept for reuse.
     */
    private static List<Long> segmentIds(final Path directory, final FileLayer files, final List<Path> reusable)
        throws IOException
    {
        final List<Long> ids = new ArrayList<>();
        try (Stream<Path> listing = Files.list(directory))
        {
            for (final Path path : (Iterable<Path>)listing::iterator)
            {
                final String name = path.getFileName().toString();
                if (LogLayout.isRecycledFileName(name))
                {
                    reusable.add(path);
                    continue;
                }
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
        int damagedAt = -1;
        String problem;
    }

    /**
     * What intact records say: how many there are, and the highest durable point a {@link LogLayout#SYNCED} one
     * carries.
     */
    private static final class Evidence
    {
        long intact;
        long durableBelow;
    }

    private static Scan scan(
        final LogSegment segment, final long fromSequence, final LogRecordHandler handler, final Evidence evidence)
    {
        final Scan scan = new Scan();
        final UnsafeBuffer buffer = segment.buffer;
        final int capacity = segment.capacity();
        int offset = LogLayout.SEGMENT_HEADER_LENGTH;
        long sequence = segment.firstSequence;
        while (offset + LogLayout.RECORD_HEADER_LENGTH <= capacity)
        {
            if (LogLayout.isEndMarker(buffer, offset) || stale(segment, offset))
            {
                // The end of the records: a zero header, or a record from the segment's previous life.
                final int intact = intactRecords(buffer, segment.crc, offset + LogLayout.RECORD_ALIGNMENT, capacity,
                    segment.firstSequence, new Evidence());
                if (intact >= 0)
                {
                    scan.damagedAt = offset;
                    scan.problem = "the records end, but an intact one follows at offset " + intact;
                }
                break;
            }
            final String problem = recordProblem(segment, offset, sequence);
            if (problem != null)
            {
                scan.damagedAt = offset;
                scan.problem = problem;
                break;
            }
            final int length = LogLayout.payloadLength(buffer, offset);
            final byte type = LogLayout.type(buffer, offset);
            if (type == LogLayout.SYNCED)
            {
                evidence.durableBelow = Math.max(evidence.durableBelow, durableBelow(buffer, offset, length));
            }
            else
            {
                if (sequence >= fromSequence)
                {
                    checkPayload(segment, offset, type, sequence, length);
                    handler.onRecord(type, sequence, buffer, offset + LogLayout.RECORD_HEADER_LENGTH, length);
                    scan.replayed++;
                }
                scan.records++;
                sequence++;
            }
            offset += (int)LogLayout.recordLength(length);
        }
        segment.position = scan.damagedAt >= 0 ? scan.damagedAt : offset;
        return scan;
    }

    /**
     * Throws when the lengths in an intact record's payload do not agree with its length: its checksum matched, so
     * this is not a torn write but a writer's bug or a crafted file.
     */
    private static void checkPayload(
        final LogSegment segment, final int offset, final byte type, final long sequence, final int length)
    {
        final String problem =
            LogPayloads.problem(segment.buffer, type, offset + LogLayout.RECORD_HEADER_LENGTH, length);
        if (problem != null)
        {
            throw new LogCorruptedException(segment.path, offset, "the record of sequence " + sequence +
                " has a matching checksum, but " + problem);
        }
    }

    private static long durableBelow(final UnsafeBuffer buffer, final int offset, final int length)
    {
        return length == LogLayout.SYNCED_LENGTH ?
            buffer.getLong(offset + LogLayout.RECORD_HEADER_LENGTH, LogLayout.ORDER) : 0;
    }

    /**
     * Whether a whole record from the segment's previous life (a sequence below its first) starts at {@code offset}.
     */
    private static boolean stale(final LogSegment segment, final int offset)
    {
        return shapeProblem(segment.buffer, offset, segment.capacity()) == null &&
            LogLayout.sequence(segment.buffer, offset) < segment.firstSequence &&
            checksumMatches(segment.buffer, segment.crc, offset);
    }

    private static String recordProblem(final LogSegment segment, final int offset, final long expectedSequence)
    {
        final UnsafeBuffer buffer = segment.buffer;
        if (!intact(buffer, segment.crc, offset, segment.capacity(), segment.firstSequence))
        {
            final String shape = shapeProblem(buffer, offset, segment.capacity());
            return shape != null ? shape : "the record's checksum does not match";
        }
        final long sequence = LogLayout.sequence(buffer, offset);
        if (sequence != expectedSequence)
        {
            return "sequence " + sequence + " where " + expectedSequence + " was expected";
        }
        return null;
    }

    private static String shapeProblem(final UnsafeBuffer buffer, final int offset, final int capacity)
    {
        final int length = LogLayout.payloadLength(buffer, offset);
        if (length < 0 || LogLayout.recordLength(length) > capacity - (long)offset)
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
     * Whether a whole record of the segment's current life (a sequence from its first on) with a matching checksum
     * starts at {@code offset}.
     */
    private static boolean intact(
        final UnsafeBuffer buffer, final Crc crc, final int offset, final int capacity, final long firstSequence)
    {
        return !LogLayout.isEndMarker(buffer, offset) && shapeProblem(buffer, offset, capacity) == null &&
            LogLayout.sequence(buffer, offset) >= firstSequence && checksumMatches(buffer, crc, offset);
    }

    private static boolean checksumMatches(final UnsafeBuffer buffer, final Crc crc, final int offset)
    {
        return LogLayout.storedCrc(buffer, offset) ==
            LogLayout.recordCrc(crc, offset, LogLayout.payloadLength(buffer, offset));
    }

    /**
     * Counts the intact records from {@code from} (at every aligned offset, skipping over each one found) into
     * {@code evidence}.
     *
     * @return the offset of the first, or -1.
     */
    private static int intactRecords(
        final UnsafeBuffer buffer, final Crc crc, final int from, final int capacity, final long firstSequence,
        final Evidence evidence)
    {
        int first = -1;
        int p = from;
        while (p + LogLayout.RECORD_HEADER_LENGTH <= capacity)
        {
            if (buffer.getLong(p + LogLayout.TYPE_OFFSET) == 0)
            {
                // No record has type 0: the common case, a segment's unused zeros, is skipped at once.
                p += LogLayout.RECORD_ALIGNMENT;
            }
            else if (intact(buffer, crc, p, capacity, firstSequence))
            {
                first = first < 0 ? p : first;
                final int length = LogLayout.payloadLength(buffer, p);
                evidence.intact++;
                if (LogLayout.type(buffer, p) == LogLayout.SYNCED)
                {
                    evidence.durableBelow = Math.max(evidence.durableBelow, durableBelow(buffer, p, length));
                }
                p += (int)LogLayout.recordLength(length);
            }
            else
            {
                p += LogLayout.RECORD_ALIGNMENT;
            }
        }
        return first;
    }
}
