package io.agni.store.log;

import io.agni.api.StoreReadOnlyException;
import io.agni.store.file.Crc;
import io.agni.store.file.FileLayer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Appends records to the write-ahead log: one writer at a time (appends are short copies into a mapped segment, so
 * a crash can only tear the last record), a global sequence, and syncs shared by every writer waiting for one (group
 * commit, with no added delay: whoever finds no sync running starts one for everything appended so far).
 *
 * <p>An appended record is in the operating system's page cache when the append returns, so it survives the
 * process; {@link #awaitDurable} makes it survive a power loss too. Once a write or a sync fails, every later append
 * and wait throws {@link StoreReadOnlyException}: a failed sync is never retried.
 *
 * <p>Little file work happens under the append lock: a full segment is handed to the next sync (it is
 * {@linkplain #retired retired}, still mapped, and the next {@link #awaitDurable} syncs and closes it before the
 * current one), and the next segment was made ahead of need by {@link #prepareSpare()} or is a freed one reused
 * ({@link SegmentFiles}).
 */
public final class LogWriter implements AutoCloseable
{
    /**
     * The staging buffer of a write-through log: records gathered for one write; a record that does not fit in it
     * alone (with its end marker) is written into the mapping.
     */
    static final int MAX_STAGED = 1 << 20;



    private final Path directory;
    private final FileLayer files;
    private final int segmentCapacity;
    private final ReentrantLock appendLock = new ReentrantLock();
    /**
     * Gives the segments' pages their blocks ahead of the records, and closes segments' files.
     */
    private final SegmentPages pages = new SegmentPages();
    /**
     * Whether {@link #writeThrough()} was called: read by {@link #allocateAhead} outside the append lock.
     */
    private volatile boolean writeThroughSet;

    private volatile LogSegment current;
    /**
     * Guards the hand-over of {@link #current} and {@link #retired} between a roll and a sync: held only for that.
     */
    private final Object handOver = new Object();
    /**
     * Full segments not yet synced, oldest first; guarded by {@link #handOver}. The sync that takes them closes them.
     */
    private final List<LogSegment> retired = new ArrayList<>();
    private long nextSequence;
    private volatile long appended;
    /**
     * The sequence after the last record appended: written before {@link #appended}, so a reader that reads it
     * first knows every record below it lies before the position it reads next.
     */
    private volatile long appendedSequence;
    /**
     * The syncs, shared by every writer waiting for one.
     */
    private final GroupCommit commit;
    /**
     * The durable point the last {@link LogLayout#SYNCED} record carried; guarded by {@link #appendLock}.
     */
    private long durableBelowLogged;
    private volatile StoreReadOnlyException failure;
    private boolean closed;
    private volatile long bytesAppended;
    /**
     * The segment files not written to: the spare made ahead of need and the freed segments kept for reuse.
     */
    private final SegmentFiles segmentFiles;
    /**
     * Whether records are built in {@link #staged} and written through the file ({@link #writeThrough()}); guarded
     * by {@link #appendLock}, like every field below.
     */
    private boolean writeThrough;
    private final StagedRecords staged = new StagedRecords(MAX_STAGED);
    /**
     * Where the record being appended is built (the mapping at its offset, or {@link #staged} after the records
     * staged before it), and where in the segment it goes.
     */
    private UnsafeBuffer target;
    private Crc targetCrc;
    private int fileOffset;
    private boolean targetStaged;
    /**
     * The first sequence of every segment in the directory, by segment id; guarded by {@link #appendLock}.
     */
    private final TreeMap<Long, Long> segments;

    LogWriter(
        final Path directory, final FileLayer files, final int segmentCapacity, final LogSegment last,
        final long nextSequence, final TreeMap<Long, Long> segments)
    {
        this.segments = segments;
        this.directory = directory;
        this.files = files;
        this.segmentCapacity = segmentCapacity;
        this.segmentFiles = new SegmentFiles(directory, files, segmentCapacity);
        this.current = last;
        this.nextSequence = nextSequence;
        this.appendedSequence = nextSequence;
        this.appended = last == null ? 0 : LogSegment.logPosition(last.id, last.position);
        this.commit = new GroupCommit(new GroupCommit.Log()
        {
            @Override
            public void throwIfFailed()
            {
                LogWriter.this.throwIfFailed();
            }

            @Override
            public GroupCommit.SyncPoint prepare()
            {
                return prepareSync();
            }

            @Override
            public StoreReadOnlyException fail(final String message, final Throwable cause)
            {
                return LogWriter.this.fail(message, cause);
            }

            @Override
            public void close(final LogSegment segment)
            {
                closeSegment(segment);
            }
        }, appended);
    }

    /**
     * The sequence the next record will get.
     *
     * @return a sequence, from 1.
     */
    public long nextSequence()
    {
        appendLock.lock();
        try
        {
            return nextSequence;
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Record bytes appended since the log was opened.
     *
     * @return bytes, headers and padding included.
     */
    public long bytesAppended()
    {
        appendLock.lock();
        try
        {
            return bytesAppended;
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Drops the segments whose every record has a sequence below {@code sequence}, once a snapshot holds what they
     * did; the segment being appended to stays. Up to {@link SegmentFiles#MAX_RECYCLED} of them are kept for reuse (synced
     * first, so that what they hold is on the device before a new life starts in them), the rest are deleted. No
     * file is touched under the append lock.
     *
     * @param sequence the first sequence still needed.
     * @return how many segments were dropped.
     * @throws IOException when a file cannot be renamed, mapped or deleted, or the directory synced.
     */
    public int deleteSegmentsBefore(final long sequence) throws IOException
    {
        final List<Long> drop = new ArrayList<>();
        appendLock.lock();
        try
        {
            final LogSegment active = current;
            Long id = segments.isEmpty() ? null : segments.firstKey();
            while (id != null)
            {
                final Long next = segments.higherKey(id);
                if (next == null || segments.get(next) > sequence || active != null && id == active.id)
                {
                    break;
                }
                drop.add(id);
                id = next;
            }
            for (final Long dropped : drop)
            {
                segments.remove(dropped);
            }
        }
        finally
        {
            appendLock.unlock();
        }
        if (drop.isEmpty())
        {
            return 0;
        }
        boolean reuse = failure == null;
        if (reuse)
        {
            try
            {
                // Syncs and unmaps the dropped segments the writers handed over (every one of them was full before
                // the checkpoint began).
                sync();
            }
            catch (final StoreReadOnlyException ex)
            {
                reuse = false;
            }
        }
        segmentFiles.drop(drop, reuse, null);
        return drop.size();
    }

    /**
     * Drops every segment of a closed log whose records all come before {@code sequence}, after a snapshot that holds
     * everything, so that the directory reopens with nothing to replay. The last one is kept for the next open to
     * reuse ({@link LogLayout#recycledFileName}), so that it need not write a new segment's zeros, unless
     * {@code keepOne} is false.
     *
     * @param sequence the first sequence still needed.
     * @param keepOne  whether to keep the last segment for reuse.
     * @return whether every segment was dropped.
     * @throws IOException when a file cannot be renamed or deleted, or the directory synced.
     */
    public boolean deleteAllIfBefore(final long sequence, final boolean keepOne) throws IOException
    {
        appendLock.lock();
        try
        {
            if (!closed || nextSequence > sequence)
            {
                return false;
            }
            // The last segment, synced by close, holds only records that sequence makes old.
            segmentFiles.drop(segments.keySet(), false, keepOne && !segments.isEmpty() ? segments.lastKey() : null);
            segments.clear();
            return true;
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Takes a segment a clean close kept ({@link #deleteAllIfBefore}) for reuse, or deletes it when one is kept
     * already or its length is not a segment's.
     *
     * @param path the kept file.
     * @throws IOException when it cannot be mapped or deleted.
     */
    void reuse(final Path path) throws IOException
    {
        segmentFiles.reuse(path);
    }

    /**
     * Logs the value a key now has.
     *
     * @param key           the key's bytes.
     * @param keyOffset     where they start.
     * @param keyLength     how many.
     * @param value         the value's bytes.
     * @param valueOffset   where they start.
     * @param valueLength   how many.
     * @param expireAtMillis the absolute expiry time, {@link LogLayout#NO_EXPIRY} for none.
     * @return the record's end, for {@link #awaitDurable}.
     */
    public long appendSet(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength, final long expireAtMillis)
    {
        return appendSet(key, keyOffset, keyLength, value, valueOffset, valueLength, 0, value, 0, 0, value, 0, 0,
            expireAtMillis);
    }

    /**
     * Logs the value a key now has, given in parts so that it can be logged before the entry is written: the first,
     * {@code gap} zero bytes, the second and the third (as SETRANGE and APPEND build a value from the old one and the
     * new bytes).
     *
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param value1         the value's first part.
     * @param offset1        where it starts.
     * @param length1        its length.
     * @param gap            zero bytes after it.
     * @param value2         the value's second part.
     * @param offset2        where it starts.
     * @param length2        its length.
     * @param value3         the value's last part.
     * @param offset3        where it starts.
     * @param length3        its length.
     * @param expireAtMillis the absolute expiry time, {@link LogLayout#NO_EXPIRY} for none.
     * @return the record's end, for {@link #awaitDurable}.
     */
    public long appendSet(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value1, final int offset1, final int length1, final int gap,
        final DirectBuffer value2, final int offset2, final int length2,
        final DirectBuffer value3, final int offset3, final int length3, final long expireAtMillis)
    {
        final long payload = RecordPayloads.setLength(keyLength, (long)length1 + gap + length2 + length3);
        appendLock.lock();
        try
        {
            final int offset = begin(LogLayout.SET, payload);
            RecordPayloads.putSet(target, offset + LogLayout.RECORD_HEADER_LENGTH, key, keyOffset, keyLength,
                value1, offset1, length1, gap, value2, offset2, length2, value3, offset3, length3, expireAtMillis);
            return end(offset, (int)payload);
        }
        catch (final InternalError ex)
        {
            throw mappingFault(ex);
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Logs that a key is gone (deleted, expired or evicted).
     *
     * @param key       the key's bytes.
     * @param keyOffset where they start.
     * @param keyLength how many.
     * @return the record's end, for {@link #awaitDurable}.
     */
    public long appendDelete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final long payload = (long)LogLayout.DELETE_FIXED_LENGTH + keyLength;
        appendLock.lock();
        try
        {
            final int offset = begin(LogLayout.DELETE, payload);
            RecordPayloads.putDelete(target, offset + LogLayout.RECORD_HEADER_LENGTH, key, keyOffset, keyLength);
            return end(offset, (int)payload);
        }
        catch (final InternalError ex)
        {
            throw mappingFault(ex);
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Logs a key's new expiry time.
     *
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param expireAtMillis the absolute expiry time, {@link LogLayout#NO_EXPIRY} to remove it.
     * @return the record's end, for {@link #awaitDurable}.
     */
    public long appendExpire(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long expireAtMillis)
    {
        final long payload = (long)LogLayout.EXPIRE_FIXED_LENGTH + keyLength;
        appendLock.lock();
        try
        {
            final int offset = begin(LogLayout.EXPIRE, payload);
            RecordPayloads.putExpire(target, offset + LogLayout.RECORD_HEADER_LENGTH, key, keyOffset, keyLength,
                expireAtMillis);
            return end(offset, (int)payload);
        }
        catch (final InternalError ex)
        {
            throw mappingFault(ex);
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Logs that every entry was removed.
     *
     * @return the record's end, for {@link #awaitDurable}.
     */
    public long appendClear()
    {
        appendLock.lock();
        try
        {
            return end(begin(LogLayout.CLEAR, 0), 0);
        }
        catch (final InternalError ex)
        {
            throw mappingFault(ex);
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Logs a batch whose payload (operation count, then the operations, as {@link LogLayout} describes) is already
     * encoded.
     *
     * @param payload the encoded batch.
     * @param offset  where it starts.
     * @param length  its length.
     * @return the record's end, for {@link #awaitDurable}.
     */
    public long appendBatch(final DirectBuffer payload, final int offset, final int length)
    {
        appendLock.lock();
        try
        {
            final int recordOffset = begin(LogLayout.BATCH, length);
            target.putBytes(recordOffset + LogLayout.RECORD_HEADER_LENGTH, payload, offset, length);
            return end(recordOffset, length);
        }
        catch (final InternalError ex)
        {
            throw mappingFault(ex);
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Returns once everything up to {@code position} is on the device. Concurrent callers share one sync
     * ({@link GroupCommit}).
     *
     * @param position a value an append returned.
     * @throws StoreReadOnlyException when the log failed before or during the sync.
     */
    public void awaitDurable(final long position)
    {
        commit.awaitDurable(position);
    }

    /**
     * Under the append lock: writes the staged records to the file, and takes what a sync covers, everything
     * appended so far (a roll changes the current segment only under {@link #handOver}, so every record up to the
     * position taken is in the segment taken or in one retired before it).
     */
    private GroupCommit.SyncPoint prepareSync()
    {
        appendLock.lock();
        try
        {
            // Staged records reach the file first; under the append lock, so that what is counted is written.
            flushStaged();
            // A writer's flush may have failed since this thread last looked: its records were never written.
            throwIfFailed();
            synchronized (handOver)
            {
                final GroupCommit.SyncPoint point = new GroupCommit.SyncPoint(appendedSequence, appended, current,
                    retired.toArray(new LogSegment[0]));
                retired.clear();
                return point;
            }
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Makes the next segment ahead of need, off the write path: writing a segment's zeros and syncing them is the
     * slow part of starting one. Does nothing when a spare or a freed segment is ready, or the log is closed or
     * failed.
     *
     * @throws IOException when the file cannot be made (the next roll then tries itself, and fails the log if it
     *                     cannot either).
     */
    public void prepareSpare() throws IOException
    {
        if (failure == null)
        {
            segmentFiles.prepareSpare();
        }
    }

    /**
     * Starts the first segment now if there is none, so the first write does not pay for it.
     *
     * @throws StoreReadOnlyException when the segment cannot be made.
     */
    public void startSegment()
    {
        appendLock.lock();
        try
        {
            if (current == null && !closed)
            {
                roll(0);
            }
        }
        finally
        {
            appendLock.unlock();
        }
    }

    /**
     * Threads waiting for the append lock (for tests that order threads around it).
     *
     * @return an estimate, as {@link ReentrantLock#getQueueLength()}.
     */
    int appendLockQueueLength()
    {
        return appendLock.getQueueLength();
    }

    /**
     * Makes everything appended so far durable.
     *
     * @throws StoreReadOnlyException when the log failed before or during the sync.
     */
    public void sync()
    {
        awaitDurable(appended);
    }

    /**
     * Whether the log has failed, and why.
     *
     * @return the failure every append now throws, or {@code null}.
     */
    public StoreReadOnlyException failure()
    {
        return failure;
    }

    /**
     * Syncs what was appended and closes the current segment; appends fail afterwards.
     *
     * @throws StoreReadOnlyException when the final sync fails.
     */
    @Override
    public void close()
    {
        appendLock.lock();
        try
        {
            if (closed)
            {
                return;
            }
            closed = true;
        }
        finally
        {
            appendLock.unlock();
        }
        // Not under the append lock: a sync takes it after the sync lock.
        try
        {
            if (failure == null)
            {
                sync();
            }
        }
        finally
        {
            appendLock.lock();
            try
            {
                final LogSegment segment = current;
                if (segment != null)
                {
                    closeSegment(segment);
                }
                synchronized (handOver)
                {
                    // Left unsynced only when the log failed.
                    for (final LogSegment full : retired)
                    {
                        closeSegment(full);
                    }
                    retired.clear();
                }
                segmentFiles.close();
                staged.free();
            }
            finally
            {
                appendLock.unlock();
            }
        }
    }

    private int begin(final byte type, final long payloadLength)
    {
        throwIfFailed();
        if (closed)
        {
            throw new IllegalStateException("the log is closed");
        }
        if (payloadLength > Integer.MAX_VALUE - LogLayout.SEGMENT_HEADER_LENGTH - 2L * LogLayout.RECORD_ALIGNMENT -
            LogLayout.RECORD_HEADER_LENGTH)
        {
            throw new IllegalArgumentException("a log record holds less than 2 GiB: " + payloadLength);
        }
        final long durable = commit.durableBelow();
        if (durable > durableBelowLogged)
        {
            final int offset = place(LogLayout.SYNCED, LogLayout.SYNCED_LENGTH);
            target.putLong(offset + LogLayout.RECORD_HEADER_LENGTH, durable, LogLayout.ORDER);
            seal(offset, LogLayout.SYNCED_LENGTH);
            durableBelowLogged = durable;
        }
        return place(type, payloadLength);
    }

    /**
     * Starts a record at the current segment's end, in the next segment if it does not fit: in the mapping, or in
     * {@link #staged} for a write-through log.
     *
     * @return the record's offset in {@link #target}.
     */
    private int place(final byte type, final long payloadLength)
    {
        final long recordLength = LogLayout.recordLength((int)payloadLength);
        LogSegment segment = current;
        if (segment == null || segment.position + recordLength > segment.capacity())
        {
            flushStaged();
            segment = roll(recordLength);
        }
        fileOffset = segment.position;
        // An end marker after the record, written with it: a reused segment holds old records there.
        final boolean marker = fileOffset + recordLength + LogLayout.RECORD_HEADER_LENGTH <= segment.capacity();
        final long length = recordLength + (marker ? LogLayout.RECORD_HEADER_LENGTH : 0);
        final int offset;
        if (writeThrough && length <= MAX_STAGED)
        {
            if (!staged.fits((int)length))
            {
                flushStaged();
            }
            offset = staged.place(fileOffset, marker);
            targetStaged = true;
            target = staged.buffer();
            targetCrc = staged.crc();
        }
        else
        {
            // Staged records first: their end marker would otherwise land on this record later.
            flushStaged();
            allocate(segment, fileOffset + length);
            offset = fileOffset;
            targetStaged = false;
            target = segment.buffer;
            targetCrc = segment.crc;
        }
        if (marker)
        {
            target.setMemory(offset + (int)recordLength, LogLayout.RECORD_HEADER_LENGTH, (byte)0);
        }
        LogLayout.writeRecordHeader(target, offset, (int)payloadLength, type, nextSequence);
        return offset;
    }

    /**
     * Gives the pages of {@code segment} up to {@code end} their blocks before the mapping is written there
     * ({@link SegmentPages#allocate}).
     *
     * @throws StoreReadOnlyException when the pages cannot be written.
     */
    private void allocate(final LogSegment segment, final long end)
    {
        if (end <= segment.allocated)
        {
            return;
        }
        try
        {
            pages.allocate(segment, end);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw fail("writing to " + segment.path + " failed" + (DiskSpace.isFull(ex, directory,
                SegmentPages.ALLOCATION_STEP, files::usableSpace) ? ": the disk is full" : ""), ex);
        }
    }

    /**
     * Gives the pages of the segment being written their blocks ahead of its records, off the write path (the
     * background thread's work, every tick: {@link SegmentPages#allocateAhead}); nothing for a log written through
     * the file ({@link #writeThrough()}), whose writes give their pages blocks. A failure is left to the writer,
     * which fails the log if it cannot allocate either.
     *
     * @throws IOException when the pages cannot be written.
     */
    public void allocateAhead() throws IOException
    {
        final LogSegment segment = current;
        if (segment != null && failure == null && !writeThroughSet)
        {
            pages.allocateAhead(segment, () -> current);
        }
    }

    private void closeSegment(final LogSegment segment)
    {
        pages.close(segment);
    }

    /**
     * Writes the staged records through the file, with one system call.
     *
     * @throws StoreReadOnlyException when the write fails.
     */
    private void flushStaged()
    {
        if (staged.isEmpty())
        {
            return;
        }
        final LogSegment segment = current;
        final int length = staged.pendingBytes();
        try
        {
            staged.write(segment.file);
        }
        catch (final IOException | RuntimeException | InternalError ex)
        {
            throw fail("writing to " + segment.path + " failed" +
                (DiskSpace.isFull(ex, directory, length, files::usableSpace) ? ": the disk is full" : ""), ex);
        }
    }

    private long end(final int offset, final int payloadLength)
    {
        seal(offset, payloadLength);
        nextSequence++;
        appendedSequence = nextSequence;
        final LogSegment segment = current;
        final long position = LogSegment.logPosition(segment.id, segment.position);
        appended = position;
        return position;
    }

    /**
     * Writes a placed record's checksum and moves the segment's end past it.
     */
    private void seal(final int offset, final int payloadLength)
    {
        final LogSegment segment = current;
        LogLayout.sealRecord(target, targetCrc, offset, payloadLength);
        final int recordLength = (int)LogLayout.recordLength(payloadLength);
        if (targetStaged)
        {
            staged.sealed(offset + recordLength);
        }
        segment.position = fileOffset + recordLength;
        bytesAppended += recordLength;
    }

    /**
     * From now on, gathers records in a buffer and writes them through the file with one system call when they are
     * synced (or the buffer fills), rather than into the mapping: for a log synced after nearly every write
     * ({@code PARANOID}), where a sync of pages written through a mapping costs about twice as much. A record not
     * yet synced is then not in the page cache either: a crash of the process loses it, as a power loss would; it
     * was never acknowledged. A log synced seldom is faster written into the mapping.
     */
    public void writeThrough()
    {
        appendLock.lock();
        try
        {
            writeThrough = true;
            writeThroughSet = true;
        }
        finally
        {
            appendLock.unlock();
        }
    }

    private LogSegment roll(final long recordLength)
    {
        final LogSegment old = current;
        final long id = old == null ? 1 : old.id + 1;
        final long capacity = Math.max(segmentCapacity, LogLayout.SEGMENT_HEADER_LENGTH + recordLength);
        final LogSegment next;
        try
        {
            next = segmentFiles.next(id, nextSequence, capacity);
        }
        catch (final IOException | RuntimeException | InternalError ex)
        {
            throw fail("creating log segment " + LogLayout.segmentFileName(id) + " in " + directory + " failed" +
                (DiskSpace.isFull(ex, directory, capacity, files::usableSpace) ? ": the disk is full" : ""), ex);
        }
        synchronized (handOver)
        {
            // The full segment is synced (and closed) by the next sync, outside the append lock.
            if (old != null)
            {
                retired.add(old);
            }
            current = next;
        }
        segments.put(next.id, next.firstSequence);
        return next;
    }

    /**
     * A fault in the mapping of the segment being written (SIGBUS, which the JVM turns into an {@link InternalError}):
     * on a copy-on-write file system (btrfs, ZFS) a write to a mapped page may need a new block, and a full disk then
     * faults. The record is half written; the log fails, so that nothing is appended after it.
     */
    private StoreReadOnlyException mappingFault(final InternalError fault)
    {
        final LogSegment segment = current;
        return fail("writing to " + (segment == null ? directory : segment.path) + " failed: a fault in its mapping " +
            "(on a copy-on-write file system a full disk shows this way)", fault);
    }

    private StoreReadOnlyException fail(final String message, final Throwable cause)
    {
        StoreReadOnlyException failed = failure;
        if (failed == null)
        {
            failed = new StoreReadOnlyException(message + "; the store is read-only until it is reopened", cause);
            failure = failed;
        }
        return failed;
    }

    /**
     * Throws when the log has failed: a new exception each time, with this caller's stack and the first failure as
     * its cause.
     *
     * @throws StoreReadOnlyException when the log has failed.
     */
    public void throwIfFailed()
    {
        final StoreReadOnlyException failed = failure;
        if (failed != null)
        {
            throw new StoreReadOnlyException("the store's log failed earlier: " + failed.getMessage(),
                failed.getCause());
        }
    }
}
