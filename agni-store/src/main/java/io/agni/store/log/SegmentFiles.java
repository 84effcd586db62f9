package io.agni.store.log;

import io.agni.store.file.Crc;
import io.agni.store.file.FileLayer;
import io.agni.store.file.MappedFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collection;

/**
 * The segment files a log is not writing to: the next segment made ahead of need (its first pages written and
 * synced), the segments a checkpoint freed and kept for reuse (old records and all: replay tells them from new ones
 * by their lower sequences), and the making of a new segment from one of these or from scratch. Guarded by this
 * object's monitor, held only for the hand-over, never while a file is made.
 */
final class SegmentFiles
{
    /**
     * Freed segments kept for reuse: every page of a reused segment has its block already, so the writer writes no
     * zeros ahead of its records.
     */
    static final int MAX_RECYCLED = 2;

    /**
     * The bytes of a new segment written (as zeros) when it is made: its header and the first records. The rest is
     * a hole that the writer fills ahead of its appends ({@link LogWriter}), so that making a segment writes and syncs
     * a page rather than the whole segment, and the device is not written twice (zeros, then records).
     */
    static final int FIRST_ALLOCATION = 256 * 1024;

    private final Path directory;
    private final FileLayer files;
    private final int segmentCapacity;
    private MappedFile spare;
    /**
     * Whether a roll took the spare and is renaming its file: until it is done, the spare's path is that roll's,
     * and {@link #prepareSpare} must not delete or make a file there.
     */
    private boolean spareInHand;
    private final ArrayDeque<Recycled> recycled = new ArrayDeque<>();
    private boolean closed;

    SegmentFiles(final Path directory, final FileLayer files, final int segmentCapacity)
    {
        this.directory = directory;
        this.files = files;
        this.segmentCapacity = segmentCapacity;
    }

    /**
     * Makes the next segment's file and publishes it under the segment's name with a header: a reused segment if
     * one is kept, else the spare, else a new one (its first pages written and synced now).
     *
     * @param id            the segment's id.
     * @param firstSequence the sequence of its first record.
     * @param capacity      the length it needs at least.
     * @return the segment, mapped.
     * @throws IOException when no file can be made or published.
     */
    LogSegment next(final long id, final long firstSequence, final long capacity) throws IOException
    {
        final Recycled reused;
        final MappedFile ready;
        synchronized (this)
        {
            reused = recycled.poll();
            final MappedFile fits = spare != null && spare.capacity() >= capacity ? spare : null;
            ready = fits != null && (reused == null || reused.file.capacity() < capacity) ? fits : null;
            if (ready != null)
            {
                spare = null;
                spareInHand = true;
            }
        }
        if (reused != null && reused.file.capacity() >= capacity)
        {
            // Written in full in its last life: every page has its block.
            return publishSegment(directory, files, reused.file, reused.path, id, firstSequence,
                reused.file.capacity());
        }
        if (reused != null)
        {
            reused.file.close();
            files.delete(reused.path);
        }
        if (ready != null)
        {
            try
            {
                return publishSegment(directory, files, ready, directory.resolve(LogReader.SPARE_NAME), id,
                    firstSequence, Math.min(ready.capacity(), FIRST_ALLOCATION));
            }
            finally
            {
                synchronized (this)
                {
                    spareInHand = false;
                }
            }
        }
        return createSegment(directory, files, id, firstSequence, capacity);
    }

    /**
     * Makes the next segment ahead of need; does nothing when a spare is ready or reuse has one.
     *
     * @throws IOException when the file cannot be made.
     */
    void prepareSpare() throws IOException
    {
        synchronized (this)
        {
            if (spare != null || spareInHand || !recycled.isEmpty() || closed)
            {
                return;
            }
        }
        final Path path = directory.resolve(LogReader.SPARE_NAME);
        files.delete(path);
        final MappedFile made = create(files, path, segmentCapacity);
        synchronized (this)
        {
            if (spare == null && !closed)
            {
                spare = made;
                return;
            }
        }
        made.close();
        files.delete(path);
    }

    /**
     * Removes segments the log no longer needs: each is renamed to be kept for reuse while fewer than
     * {@link #MAX_RECYCLED} are (when {@code reuse}; they must be synced), renamed to wait for the next open (the
     * one {@code keep} names), or deleted. The renames are made durable (a directory sync) before a kept one is
     * handed to a writer and before anything is deleted; the directory is synced again after the deletes.
     *
     * @param ids   the segments' ids.
     * @param reuse whether they may be kept for reuse now.
     * @param keep  the id of a segment to leave for the next open, or {@code null}.
     * @throws IOException when a file cannot be renamed, mapped or deleted, or the directory synced.
     */
    void drop(final Collection<Long> ids, final boolean reuse, final Long keep) throws IOException
    {
        final java.util.List<Path> reused = new java.util.ArrayList<>();
        final java.util.List<Path> deleted = new java.util.ArrayList<>();
        int room = reuse ? recycledRoom() : 0;
        for (final Long id : ids)
        {
            final Path path = directory.resolve(LogLayout.segmentFileName(id));
            if (id.equals(keep))
            {
                files.move(path, directory.resolve(LogLayout.recycledFileName(id)));
            }
            else if (room > 0)
            {
                room--;
                final Path recycled = directory.resolve(LogLayout.recycledFileName(id));
                files.move(path, recycled);
                reused.add(recycled);
            }
            else
            {
                deleted.add(path);
            }
        }
        // The renames are durable before a writer reuses a file (a header it wrote could otherwise come back under
        // the old name after a power loss) and before any segment is deleted (a kept delete with lost renames would
        // leave a hole among the segments).
        files.syncDirectory(directory);
        for (final Path path : reused)
        {
            reuse(path);
        }
        for (final Path path : deleted)
        {
            files.delete(path);
        }
        if (!deleted.isEmpty())
        {
            files.syncDirectory(directory);
        }
    }

    /**
     * How many more freed segments would be kept for reuse.
     */
    private synchronized int recycledRoom()
    {
        return closed ? 0 : MAX_RECYCLED - recycled.size();
    }

    /**
     * Whether one more freed segment would be kept for reuse.
     *
     * @return whether fewer than {@link #MAX_RECYCLED} are kept.
     */
    synchronized boolean wantsRecycled()
    {
        return !closed && recycled.size() < MAX_RECYCLED;
    }

    /**
     * Takes a file waiting for reuse, or deletes it when enough are kept or its length is not a segment's.
     *
     * @param path the file.
     * @throws IOException when it cannot be mapped or deleted.
     */
    void reuse(final Path path) throws IOException
    {
        if (wantsRecycled())
        {
            final MappedFile file = files.open(path);
            synchronized (this)
            {
                if (!closed && recycled.size() < MAX_RECYCLED && file.capacity() == segmentCapacity)
                {
                    recycled.add(new Recycled(file, path));
                    return;
                }
            }
            file.close();
        }
        files.delete(path);
    }

    /**
     * Unmaps and deletes the files waiting; later calls make and keep nothing.
     */
    void close()
    {
        final MappedFile unusedSpare;
        final Recycled[] unused;
        synchronized (this)
        {
            closed = true;
            unusedSpare = spare;
            spare = null;
            unused = recycled.toArray(new Recycled[0]);
            recycled.clear();
        }
        for (final Recycled file : unused)
        {
            file.file.close();
            deleteQuietly(file.path);
        }
        if (unusedSpare != null)
        {
            unusedSpare.close();
            deleteQuietly(directory.resolve(LogReader.SPARE_NAME));
        }
    }

    private void deleteQuietly(final Path path)
    {
        try
        {
            files.delete(path);
        }
        catch (final IOException ignored)
        {
            // Deleted at the next open.
        }
    }

    /**
     * Creates a segment under a temporary name, its first pages written and synced with its header, then renames it
     * and syncs the directory, so a segment file under its final name always has a whole header.
     */
    static LogSegment createSegment(
        final Path directory, final FileLayer files, final long id, final long firstSequence, final long capacity)
        throws IOException
    {
        final Path temporary = directory.resolve(LogLayout.segmentFileName(id) + LogReader.TEMPORARY_SUFFIX);
        files.delete(temporary);
        return publishSegment(directory, files, create(files, temporary, capacity), temporary, id, firstSequence,
            Math.min(capacity, FIRST_ALLOCATION));
    }

    /**
     * Makes a file, and deletes what a failure left: a file system writes a new file's zeros until the disk is full,
     * and that partial file would hold the room (up to a segment's length) until the next open.
     */
    private static MappedFile create(final FileLayer files, final Path path, final long capacity) throws IOException
    {
        try
        {
            return files.create(path, capacity, Math.min(capacity, FIRST_ALLOCATION));
        }
        catch (final IOException | RuntimeException | InternalError ex)
        {
            try
            {
                files.delete(path);
            }
            catch (final IOException | RuntimeException suppressed)
            {
                ex.addSuppressed(suppressed);
            }
            throw ex;
        }
    }

    /**
     * Writes a segment header into a file made (or kept) under a temporary name, syncs it, and renames it to the
     * segment's name; on failure the file is closed and deleted.
     */
    private static LogSegment publishSegment(
        final Path directory, final FileLayer files, final MappedFile file, final Path temporary, final long id,
        final long firstSequence, final long allocated) throws IOException
    {
        final Path path = directory.resolve(LogLayout.segmentFileName(id));
        try
        {
            LogLayout.writeSegmentHeader(file.buffer(), new Crc(file.memory()), id, firstSequence, file.capacity());
            file.sync();
            files.move(temporary, path);
            files.syncDirectory(directory);
        }
        catch (final IOException | RuntimeException | InternalError ex)
        {
            file.close();
            files.delete(temporary);
            throw ex;
        }
        return new LogSegment(id, firstSequence, path, file, LogLayout.SEGMENT_HEADER_LENGTH, allocated);
    }

    /**
     * A freed segment mapped for reuse, under its temporary name.
     */
    private record Recycled(MappedFile file, Path path)
    {
    }
}
