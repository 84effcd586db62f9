package io.agni.store.persist;

import io.agni.api.Durability;
import io.agni.store.file.DirectoryLock;
import io.agni.store.file.FileLayer;
import io.agni.store.log.LogReader;
import io.agni.store.log.LogWriter;
import io.agni.store.snapshot.ParallelSnapshotLoad;
import io.agni.store.snapshot.SnapshotLayout;
import io.agni.store.snapshot.SnapshotReader;
import io.agni.store.snapshot.SnapshotWriter;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A store's directory: the lock that makes it the only owner, its snapshot, and its write-ahead log.
 *
 * <h2>Opening</h2>
 * Takes the directory, removes half-written files, loads the snapshot (there is at most one), then replays the log
 * from the sequence the snapshot is consistent from. A {@link Durability#FAST} store opened on a directory that
 * still has a log (it was {@code DURABLE} before) replays it, writes a snapshot and drops the log.
 *
 * <h2>Checkpoints</h2>
 * A checkpoint notes the log's next sequence S, writes every entry to a new snapshot (writers of other shards go on,
 * and a shard's writers wait only while it is copied, except with {@link Durability#FAST}; a later record
 * repairs an entry the snapshot caught mid-change, since replay from S applies whole values and absolute times),
 * publishes it, then deletes the older snapshot and the log segments whose records all precede S. So the directory
 * holds one snapshot, the log since it, and during a checkpoint the next snapshot: at most about three times the
 * live data when checkpoints run once the log has grown by as much as the live data.
 *
 * <h2>Closing</h2>
 * A last checkpoint, then the log is closed and, since the snapshot holds every record, deleted: the directory
 * reopens from the snapshot alone.
 */
public final class Persistence implements AutoCloseable
{
    /**
     * The length of a new log segment.
     */
    public static final int DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;

    /**
     * The delay before the first automatic retry of a failed checkpoint; it doubles with every failure in a row.
     */
    static final long FIRST_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * The longest delay between automatic retries of a failing checkpoint.
     */
    static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(60);

    /**
     * Log segments' worth of room a checkpoint leaves on the disk for the log: the segment made ahead of need and
     * the one after it, so that a snapshot never takes the room the log needs to go on (a log that cannot make its
     * next segment fails, and the store becomes read-only).
     */
    static final int SEGMENTS_KEPT_FREE = 2;

    private static final Logger LOG = LoggerFactory.getLogger(Persistence.class);

    private final Path directory;
    private final Durability durability;
    private final FileLayer files;
    private final EpochClock clock;
    private final int segmentCapacity;
    private final DirectoryLock lock;
    private final LogWriter log;
    private final Object checkpointLock = new Object();
    /**
     * The sequence the newest snapshot is consistent from; written under {@link #checkpointLock}, read by
     * {@link #changesSinceSnapshot()} without it.
     */
    private volatile long snapshotSequence;
    private volatile long snapshotBytes;
    private volatile long lastSnapshotMillis;
    /**
     * The checkpoint's status for INFO: written under {@link #checkpointLock} by the checkpoint, read without it (a
     * status may mix moments).
     */
    private volatile boolean checkpointRunning;
    private volatile long checkpointStartNanos;
    private volatile long lastCheckpointNanos = -1;
    private volatile boolean lastCheckpointFailed;
    /**
     * Checkpoints failed in a row, and when an automatic one may be tried again: written under
     * {@link #checkpointLock}, {@link #retryAtNanos} first.
     */
    private volatile int failuresInARow;
    private volatile long retryAtNanos;
    /**
     * The log's length when the newest snapshot began; with {@link #snapshotBytes}, written under
     * {@link #checkpointLock} and read by {@link #checkpointDue} without it.
     */
    private volatile long logBytesAtSnapshot;
    private boolean closed;

    private Persistence(
        final Path directory, final Durability durability, final FileLayer files, final EpochClock clock,
        final int segmentCapacity, final DirectoryLock lock, final LogWriter log, final long snapshotSequence,
        final long snapshotBytes, final long lastSnapshotMillis)
    {
        this.directory = directory;
        this.durability = durability;
        this.files = files;
        this.clock = clock;
        this.segmentCapacity = segmentCapacity;
        this.lock = lock;
        this.log = log;
        this.snapshotSequence = snapshotSequence;
        this.snapshotBytes = snapshotBytes;
        this.lastSnapshotMillis = lastSnapshotMillis;
    }

    /**
     * Opens a directory and rebuilds the state it holds into {@code target}.
     *
     * @param directory       the directory, created if missing.
     * @param durability      {@link Durability#FAST}, {@link Durability#DURABLE} or {@link Durability#PARANOID}.
     * @param files           the file layer.
     * @param segmentCapacity the length of new log segments.
     * @param target          receives the recovered entries; nothing else may use it yet.
     * @param source          the entries for the checkpoint that follows a recovery that evicted.
     * @param clock           the store's clock, for snapshot times.
     * @return the open persistence.
     * @throws IOException when the directory cannot be read or written.
     */
    public static Persistence open(
        final Path directory, final Durability durability, final FileLayer files, final int segmentCapacity,
        final RecoveryTarget target, final SnapshotSource source, final EpochClock clock) throws IOException
    {
        if (durability == Durability.NONE)
        {
            throw new IllegalArgumentException("a store with Durability.NONE has no directory");
        }
        createDirectories(directory, files);
        final DirectoryLock lock = DirectoryLock.acquire(directory);
        try
        {
            final long startNanos = System.nanoTime();
            final List<Path> snapshots = cleanAndListSnapshots(directory, files);
            long fromSequence = 1;
            long snapshotBytes = 0;
            long snapshotMillis = 0;
            if (!snapshots.isEmpty())
            {
                final Path newest = snapshots.get(snapshots.size() - 1);
                final SnapshotReader.Summary summary =
                    ParallelSnapshotLoad.read(newest, target.snapshotHandlers(), directory.getFileName().toString());
                fromSequence = summary.fromSequence();
                snapshotBytes = Files.size(newest);
                snapshotMillis = summary.createdAt();
                for (int i = 0; i < snapshots.size() - 1; i++)
                {
                    // An older snapshot left by a crash between publishing a new one and deleting the old.
                    files.delete(snapshots.get(i));
                }
            }
            final long snapshotNanos = System.nanoTime();
            final LogReader.Replay replay = LogReader.replay(
                directory, files, segmentCapacity, fromSequence, new RecordApplier(target));
            if (!snapshots.isEmpty() || replay.recordsReplayed() > 0 || replay.tornOffset() >= 0)
            {
                final long now = System.nanoTime();
                LOG.info("Recovered {} in {} ms: the snapshot in {} ms, then {} log record(s) from sequence {} in " +
                    "{} ms", directory, (now - startNanos) / 1_000_000, (snapshotNanos - startNanos) / 1_000_000,
                    replay.recordsReplayed(), fromSequence, (now - snapshotNanos) / 1_000_000);
            }
            final Persistence persistence = new Persistence(directory, durability, files, clock, segmentCapacity, lock,
                durability == Durability.FAST ? null : replay.writer(), fromSequence, snapshotBytes, snapshotMillis);
            if (durability == Durability.PARANOID)
            {
                replay.writer().writeThrough();
            }
            if (durability != Durability.FAST)
            {
                // The first segment now, so the first write does not wait for its zeros.
                replay.writer().startSegment();
            }
            final long evicted = target.recoveryEvictions();
            if (evicted > 0)
            {
                LOG.info("Recovery of {} evicted {} entries to stay inside the budget; checkpointing so that they " +
                    "stay evicted", directory, evicted);
            }
            if (durability == Durability.FAST)
            {
                final long next = replay.writer().nextSequence();
                replay.writer().close();
                if (replay.segments() > 0 || evicted > 0)
                {
                    persistence.snapshotSequence = next - 1;
                    persistence.checkpoint(source);
                    replay.writer().deleteAllIfBefore(persistence.snapshotSequence, false);
                }
            }
            else if (evicted > 0)
            {
                persistence.checkpoint(source);
            }
            return persistence;
        }
        catch (final IOException | RuntimeException | Error ex)
        {
            lock.close();
            throw ex;
        }
    }

    /**
     * The write-ahead log, when the durability has one.
     *
     * @return the log, or {@code null} for {@link Durability#FAST}.
     */
    public LogWriter log()
    {
        return log;
    }

    /**
     * The durability the directory was opened with.
     *
     * @return the preset.
     */
    public Durability durability()
    {
        return durability;
    }

    /**
     * The directory.
     *
     * @return its real path.
     */
    public Path directory()
    {
        return lock.directory();
    }

    /**
     * When the last snapshot was published.
     *
     * @return milliseconds since the epoch, 0 when there is none.
     */
    public long lastSnapshotMillis()
    {
        return lastSnapshotMillis;
    }

    /**
     * Whether a checkpoint is being written now.
     *
     * @return whether one is running.
     */
    public boolean checkpointRunning()
    {
        return checkpointRunning;
    }

    /**
     * How long the running checkpoint has been running.
     *
     * @return nanoseconds, {@code -1} when none is running.
     */
    public long currentCheckpointNanos()
    {
        final long started = checkpointStartNanos;
        return checkpointRunning ? Math.max(0, System.nanoTime() - started) : -1;
    }

    /**
     * How long the last checkpoint that ended took, failed or not.
     *
     * @return nanoseconds, {@code -1} when none ended since the directory was opened.
     */
    public long lastCheckpointNanos()
    {
        return lastCheckpointNanos;
    }

    /**
     * Whether the last checkpoint that ended failed.
     *
     * @return {@code false} also when none ended yet.
     */
    public boolean lastCheckpointFailed()
    {
        return lastCheckpointFailed;
    }

    /**
     * Checkpoints failed in a row.
     *
     * @return a count, 0 after one succeeded.
     */
    public int failuresInARow()
    {
        return failuresInARow;
    }

    /**
     * How long until an automatic checkpoint may be tried again after failures.
     *
     * @return nanoseconds, {@code -1} when none failed last.
     */
    public long retryInNanos()
    {
        return failuresInARow == 0 ? -1 : Math.max(0, retryAtNanos - System.nanoTime());
    }

    /**
     * Log records appended since the newest snapshot began: each one key's change or one atomic batch.
     *
     * @return the count, {@code -1} without a log ({@link Durability#FAST}).
     */
    public long changesSinceSnapshot()
    {
        return log == null ? -1 : Math.max(0, log.nextSequence() - snapshotSequence);
    }

    /**
     * Whether the log has grown enough since the last snapshot that a checkpoint is due: by as much as the store's
     * live data, and at least {@code minimumBytes}. So the log never holds more than about the data (what a replay
     * reads after a crash stays about what a snapshot would), and a store that only grows (a fill) writes no
     * snapshot until it stops: with the last snapshot's size as the measure, each checkpoint of a growing store
     * rewrote all of it, and the snapshots of a fill added up to about as much again as its data.
     *
     * @param minimumBytes the log growth below which no checkpoint is due.
     * @param liveBytes    the store's live data now ({@link SnapshotSource#estimatedSnapshotBytes()}).
     * @return whether to checkpoint.
     */
    public boolean checkpointDue(final long minimumBytes, final long liveBytes)
    {
        if (log == null || checkpointRunning || failuresInARow > 0 && System.nanoTime() - retryAtNanos < 0)
        {
            return false;
        }
        // Without the checkpoint lock, which a checkpoint holds throughout: the caller is the thread that syncs the
        // log every second. The two fields may be of different checkpoints; the next call sees them settled.
        return log.bytesAppended() - logBytesAtSnapshot >= Math.max(minimumBytes, liveBytes);
    }

    /**
     * Writes a snapshot of {@code state}, publishes it, and deletes what it makes unnecessary. One checkpoint runs
     * at a time; each shard's writers wait while that shard is copied (with {@link Durability#FAST}, every writer
     * waits for the whole snapshot).
     *
     * @param state the store.
     * @throws IOException when the snapshot cannot be written; the previous one stays.
     */
    public void checkpoint(final SnapshotSource state) throws IOException
    {
        synchronized (checkpointLock)
        {
            if (closed)
            {
                throw new IllegalStateException("the store's directory is closed");
            }
            final long started = System.nanoTime();
            checkpointStartNanos = started;
            checkpointRunning = true;
            boolean published = false;
            try
            {
                checkRoom(state);
                writeSnapshot(state);
                published = true;
            }
            finally
            {
                final long ended = System.nanoTime();
                lastCheckpointNanos = ended - started;
                lastCheckpointFailed = !published;
                if (published)
                {
                    failuresInARow = 0;
                }
                else
                {
                    final int failures = failuresInARow + 1;
                    retryAtNanos = ended + Math.min(MAX_RETRY_NANOS, FIRST_RETRY_NANOS << Math.min(failures - 1, 20));
                    failuresInARow = failures;
                }
                checkpointRunning = false;
            }
        }
    }

    /**
     * Refuses a checkpoint, before it writes anything, when the disk has no room for its snapshot beside
     * {@link #SEGMENTS_KEPT_FREE} segments for the log: a snapshot that filled the disk would make the log's next
     * segment fail, and the store read-only.
     */
    private void checkRoom(final SnapshotSource state) throws IOException
    {
        final long snapshot =
            state.estimatedSnapshotBytes() + SnapshotLayout.HEADER_LENGTH + SnapshotLayout.FOOTER_LENGTH;
        final long forLog = log == null ? 0 : (long)SEGMENTS_KEPT_FREE * segmentCapacity;
        final long usable = files.usableSpace(directory);
        if (usable - forLog < snapshot)
        {
            throw new IOException("not enough room on the disk for a snapshot: " + usable + " bytes usable, about " +
                snapshot + " needed for the snapshot and " + forLog + " kept free for the log");
        }
    }

    /**
     * The checkpoint, under {@link #checkpointLock}.
     */
    private void writeSnapshot(final SnapshotSource state) throws IOException
    {
        final long fromSequence = log != null ? log.nextSequence() : snapshotSequence + 1;
        final long logBytes = log != null ? log.bytesAppended() : 0;
        final long now = clock.time();
        final Path published;
        try (SnapshotWriter writer = SnapshotWriter.create(directory, files, fromSequence, now))
        {
            state.snapshot(writer, log == null);
            if (log != null)
            {
                // Everything the snapshot may hold is in the log on the device before the snapshot is published:
                // otherwise a crash could keep a snapshot that caught part of a batch whose record was lost.
                log.sync();
            }
            published = writer.commit();
        }
        final long previous = snapshotSequence;
        snapshotSequence = fromSequence;
        snapshotBytes = Files.size(published);
        logBytesAtSnapshot = logBytes;
        lastSnapshotMillis = now;
        if (previous != fromSequence)
        {
            files.delete(directory.resolve(SnapshotLayout.fileName(previous)));
            files.syncDirectory(directory);
        }
        if (log != null)
        {
            log.deleteSegmentsBefore(fromSequence);
        }
    }

    /**
     * A last checkpoint of {@code state} (none when nothing was logged since the newest snapshot began), then closes
     * the log (deleting it, since the snapshot holds all of it) and gives the directory up. When the log has failed,
     * no checkpoint is written: the directory keeps the last snapshot and the log up to the failure.
     *
     * @param state the store, with no writer left.
     * @throws IOException when the checkpoint fails; the directory is given up all the same.
     */
    public void close(final SnapshotSource state) throws IOException
    {
        try
        {
            if (log == null || log.failure() == null && !unchangedSinceSnapshot())
            {
                checkpoint(state);
            }
            if (log != null)
            {
                log.close();
                log.deleteAllIfBefore(snapshotSequence, true);
            }
        }
        finally
        {
            synchronized (checkpointLock)
            {
                closed = true;
            }
            try
            {
                if (log != null)
                {
                    // Still open when the checkpoint failed: synced (unless it failed) and closed, it is what the
                    // next open replays.
                    log.close();
                }
            }
            finally
            {
                lock.close();
            }
        }
    }

    /**
     * Whether the log holds no record since the newest snapshot began, so that a snapshot now would hold the same
     * entries (a store reopened and closed again without a write need not rewrite its snapshot).
     */
    private boolean unchangedSinceSnapshot()
    {
        synchronized (checkpointLock)
        {
            return log.nextSequence() == snapshotSequence;
        }
    }

    /**
     * Gives the directory up without a checkpoint, as a crash would (for tests and for a store whose open failed).
     */
    @Override
    public void close()
    {
        synchronized (checkpointLock)
        {
            closed = true;
        }
        try
        {
            if (log != null)
            {
                log.close();
            }
        }
        finally
        {
            lock.close();
        }
    }

    /**
     * Creates the directory and any missing parent, and syncs the parent of each one created: a directory's entry is
     * durable only once its parent is synced, and without it a power loss could lose the whole store directory
     * after its first checkpoint said the data was safe.
     */
    private static void createDirectories(final Path directory, final FileLayer files) throws IOException
    {
        Path firstMissing = null;
        for (Path p = directory.toAbsolutePath(); p != null && !Files.isDirectory(p); p = p.getParent())
        {
            firstMissing = p;
        }
        Files.createDirectories(directory);
        if (firstMissing == null)
        {
            return;
        }
        final Path absolute = directory.toAbsolutePath();
        for (Path p = absolute; ; p = p.getParent())
        {
            files.syncDirectory(p.getParent());
            if (p.equals(firstMissing))
            {
                break;
            }
        }
    }

    private static List<Path> cleanAndListSnapshots(final Path directory, final FileLayer files) throws IOException
    {
        final List<Path> snapshots = new ArrayList<>();
        try (Stream<Path> listing = Files.list(directory))
        {
            for (final Path path : (Iterable<Path>)listing::iterator)
            {
                final String name = path.getFileName().toString();
                if (SnapshotLayout.isTemporary(name))
                {
                    files.delete(path);
                }
                else if (SnapshotLayout.fromSequenceOf(name) > 0)
                {
                    snapshots.add(path);
                }
            }
        }
        snapshots.sort((a, b) -> Long.compare(
            SnapshotLayout.fromSequenceOf(a.getFileName().toString()),
            SnapshotLayout.fromSequenceOf(b.getFileName().toString())));
        return snapshots;
    }
}
