package io.agni.store.log;

import io.agni.store.file.Crc;
import io.agni.store.file.MappedFile;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The records a write-through log ({@code PARANOID}) has built and not yet written: contiguous, for one segment
 * from one offset, followed by an end marker when the last has room for one, written to the file with one system
 * call. Guarded by the log's append lock.
 */
final class StagedRecords
{
    private final int capacity;
    private ByteBuffer memory;
    private UnsafeBuffer buffer;
    private Crc crc;
    private int from;
    private int bytes;
    private boolean marker;

    /**
     * An empty stage; its buffer is allocated by the first record.
     *
     * @param capacity the most bytes gathered for one write.
     */
    StagedRecords(final int capacity)
    {
        this.capacity = capacity;
    }

    /**
     * Whether {@code length} more bytes fit after what is staged.
     *
     * @param length a record's length with its end marker.
     * @return whether they fit.
     */
    boolean fits(final int length)
    {
        return bytes + length <= capacity;
    }

    /**
     * Whether nothing is staged.
     *
     * @return whether a write would have nothing to write.
     */
    boolean isEmpty()
    {
        return bytes == 0;
    }

    /**
     * Makes room for a record after those staged.
     *
     * @param fileOffset where in the segment the record goes.
     * @param endMarker  whether an end marker follows it.
     * @return its offset in {@link #buffer()}.
     */
    int place(final int fileOffset, final boolean endMarker)
    {
        if (buffer == null)
        {
            memory = ByteBuffer.allocateDirect(capacity);
            buffer = new UnsafeBuffer(memory);
            crc = new Crc(memory);
        }
        if (bytes == 0)
        {
            from = fileOffset;
        }
        marker = endMarker;
        return bytes;
    }

    /**
     * Counts a record placed and sealed.
     *
     * @param end its end in {@link #buffer()}.
     */
    void sealed(final int end)
    {
        bytes = end;
    }

    /**
     * Where staged records are built.
     *
     * @return the buffer.
     */
    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * A checksum over {@link #buffer()}'s memory.
     *
     * @return the checksum.
     */
    Crc crc()
    {
        return crc;
    }

    /**
     * The bytes {@link #write} would write now.
     *
     * @return bytes, 0 when nothing is staged.
     */
    int pendingBytes()
    {
        return bytes == 0 ? 0 : bytes + (marker ? LogLayout.RECORD_HEADER_LENGTH : 0);
    }

    /**
     * Writes what is staged to the segment's file and forgets it, also when the write fails (the log fails then).
     *
     * @param file the current segment's file.
     * @throws IOException when the write fails.
     */
    void write(final MappedFile file) throws IOException
    {
        final int length = bytes + (marker ? LogLayout.RECORD_HEADER_LENGTH : 0);
        bytes = 0;
        file.write(memory.duplicate().limit(length).position(0), from);
    }

    /**
     * Frees the buffer.
     */
    void free()
    {
        if (memory != null)
        {
            buffer.wrap(new byte[0]);
            BufferUtil.free(memory);
            memory = null;
            buffer = null;
        }
    }
}
