package io.agni.store.log;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Gives a segment's pages their blocks before the log writes them through the mapping. A new segment is a sparse
 * file ({@link SegmentFiles#FIRST_ALLOCATION} written); a write through the mapping to a hole of a full disk would
 * fault in the middle of the copy (SIGBUS), where zeros written through the file first fail a call and the log
 * fails cleanly. The background thread keeps {@link #ALLOCATION_AHEAD} bytes ready past the records; a writer that
 * catches up writes {@link #ALLOCATION_STEP} itself. One lock guards the allocation and the closing of a segment's
 * file, so that no thread writes into a file being closed; it is taken after the log's append lock, never before.
 */
final class SegmentPages
{
    /**
     * How much a writer that finds no pages ready past its record allocates at once: four writes of 64 KiB.
     */
    static final int ALLOCATION_STEP = 256 * 1024;

    /**
     * How far past the records the background thread keeps pages ready: more than a busy writer appends between
     * two of its ticks (100 ms).
     */
    static final int ALLOCATION_AHEAD = 16 * 1024 * 1024;

    private static final int PAGE = 4096;

    private final ReentrantLock lock = new ReentrantLock();

    /**
     * Gives the pages of {@code segment} up to {@code end} their blocks, from where its records end, at least
     * {@link #ALLOCATION_STEP} at a time. The caller holds the append lock.
     *
     * @param segment the segment being written.
     * @param end     the byte after the last one the caller writes.
     * @throws IOException when the zeros cannot be written.
     */
    void allocate(final LogSegment segment, final long end) throws IOException
    {
        lock.lock();
        try
        {
            if (end <= segment.allocated)
            {
                return;
            }
            final long from = Math.max(segment.allocated, segment.position);
            final long to = Math.min(segment.capacity(), roundUp(Math.max(end, from + ALLOCATION_STEP)));
            segment.file.allocate(from, to);
            segment.allocated = to;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Gives the pages of {@code segment} their blocks up to {@link #ALLOCATION_AHEAD} past its records, unless a
     * writer is allocating or it is no longer the segment being written.
     *
     * @param segment the segment being written when the caller looked.
     * @param current the segment being written now.
     * @throws IOException when the zeros cannot be written.
     */
    void allocateAhead(final LogSegment segment, final Supplier<LogSegment> current) throws IOException
    {
        if (!lock.tryLock())
        {
            return;
        }
        try
        {
            if (segment != current.get())
            {
                return;
            }
            // position is the writers' (under the append lock): a stale value only allocates less far ahead.
            final long to = Math.min(segment.capacity(), roundUp((long)segment.position + ALLOCATION_AHEAD));
            final long from = segment.allocated;
            if (from < to)
            {
                segment.file.allocate(from, to);
                segment.allocated = to;
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Closes a segment's file once no thread is giving its pages blocks.
     *
     * @param segment the segment.
     */
    void close(final LogSegment segment)
    {
        lock.lock();
        try
        {
            segment.file.close();
        }
        finally
        {
            lock.unlock();
        }
    }

    private static long roundUp(final long bytes)
    {
        return (bytes + PAGE - 1) / PAGE * PAGE;
    }
}
