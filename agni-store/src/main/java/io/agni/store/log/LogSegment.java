package io.agni.store.log;

import io.agni.store.file.Crc;
import io.agni.store.file.MappedFile;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * One mapped segment file of the log and where its records end.
 */
final class LogSegment
{
    final long id;
    final long firstSequence;
    final Path path;
    final MappedFile file;
    final UnsafeBuffer buffer;
    final Crc crc;
    int position;
    /**
     * The bytes from the start that have blocks on the device (written, as zeros if nothing else): the mapping is
     * written only below it ({@link MappedFile#allocate}). Guarded by the log's append lock once the segment is
     * being written.
     */
    volatile long allocated;

    LogSegment(
        final long id, final long firstSequence, final Path path, final MappedFile file, final int position,
        final long allocated)
    {
        this.allocated = allocated;
        this.id = id;
        this.firstSequence = firstSequence;
        this.path = path;
        this.file = file;
        this.buffer = file.buffer();
        this.crc = new Crc(file.memory());
        this.position = position;
    }

    int capacity()
    {
        return (int)file.capacity();
    }

    /**
     * A position in the whole log, ordered across segments.
     */
    static long logPosition(final long segmentId, final int offset)
    {
        return segmentId << 40 | offset;
    }
}
