package io.agni.store;

import io.agni.api.CheckpointStatus;
import io.agni.api.Checkpointing;
import io.agni.api.Durability;
import io.agni.api.StoreClosedException;
import io.agni.store.arena.EntryCursor;
import io.agni.store.log.LogWriter;
import io.agni.store.persist.Persistence;
import io.agni.store.persist.SnapshotSource;
import io.agni.store.shard.EntryVisitor;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import io.agni.store.snapshot.SnapshotWriter;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A store's side of its directory once it is open, and its {@link Checkpointing} capability: lists its entries for
 * snapshots, shard by shard under each shard's read lock (every shard at once for a snapshot with no log behind it);
 * runs the thread that syncs the log every second, prepares its spare segment and starts automatic checkpoints; runs
 * the checkpoints asked for in the background on a thread of their own, one at a time, and reports their status.
 * {@link Recovery} rebuilds the store from the directory while it opens ({@link #open}).
 * <p>
 * Its background threads and checkpoints <em>hold</em> the store's gate rather than enter it as operations
 * ({@code OperationGate.hold}): close waits for them, but the memory writers retire meanwhile goes back to the
 * budget. That is sound only because nothing here reads the store's memory outside a shard's lock: the snapshot
 * walks each shard under its read lock, and a buffer is retired only under the write lock of its shard.
 */
final class Checkpoints implements Checkpointing, SnapshotSource
{
    private static final long SYNC_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long BACKGROUND_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final Logger LOG = LoggerFactory.getLogger(Checkpoints.class);

    private final Shard[] shards;
    private final OperationGate gate;
    private final ExclusiveSection exclusive;
    private final String name;
    private final EpochClock clock;
    private final long checkpointLogBytes;
    private final EntryCursor cursor = new EntryCursor();
    private Persistence persistence;
    private Thread background;
    private long lastWarningNanos;
    /**
     * Set while a checkpoint asked for with {@link #checkpointInBackground} is starting or running; a CAS from
     * {@code false} is what lets a caller start one.
     */
    private final AtomicBoolean backgroundCheckpoint = new AtomicBoolean();

    private Checkpoints(final Shards shards, final ExclusiveSection exclusive, final long checkpointLogBytes)
    {
        this.shards = shards.all;
        this.gate = shards.gate;
        this.name = shards.name;
        this.clock = shards.clock;
        this.exclusive = exclusive;
        this.checkpointLogBytes = checkpointLogBytes;
    }

    /**
     * Opens the store's directory and rebuilds its content into the shards through {@link Recovery}; the log is not
     * attached to the gate yet.
     */
    static Checkpoints open(final Shards shards, final ExclusiveSection exclusive, final StoreConfig config)
        throws IOException
    {
        final Checkpoints checkpoints = new Checkpoints(shards, exclusive, config.checkpointLogBytes());
        checkpoints.persistence = Persistence.open(config.directory(), config.durability(), config.files(),
            config.logSegmentBytes(), new Recovery(shards), checkpoints, config.clock());
        return checkpoints;
    }

    Persistence persistence()
    {
        return persistence;
    }

    /**
     * Starts the thread that syncs a {@code DURABLE} log every second (so a power loss loses at most about that much,
     * also while a checkpoint runs: nothing it does waits for one) and starts a checkpoint in the background once the
     * log has grown to the last snapshot's size (at least the builder's {@code checkpointLogBytes}).
     */
    void startBackground()
    {
        if (persistence.log() == null)
        {
            return;
        }
        background = new Thread(this::runBackground, name + " persistence");
        background.setDaemon(true);
        background.start();
    }

    /**
     * Stops the background thread; the gate is closed already.
     */
    void stopBackground()
    {
        final Thread thread = background;
        if (thread != null)
        {
            LockSupport.unpark(thread);
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void runBackground()
    {
        long lastSync = System.nanoTime();
        while (!gate.isClosed())
        {
            LockSupport.parkNanos(this, BACKGROUND_TICK_NANOS);
            final ThreadContext c;
            try
            {
                c = gate.hold();
            }
            catch (final StoreClosedException ex)
            {
                return;
            }
            try
            {
                final LogWriter log = persistence.log();
                if (log.failure() != null)
                {
                    continue;
                }
                final long now = System.nanoTime();
                if (persistence.durability() == Durability.DURABLE && now - lastSync >= SYNC_INTERVAL_NANOS)
                {
                    // Often enough that a power loss costs about a second of writes (more while the device cannot
                    // keep up: syncs then run back to back, and writers do not wait for them).
                    log.sync();
                    lastSync = now;
                }
                log.prepareSpare();
                log.allocateAhead();
                if (persistence.checkpointDue(checkpointLogBytes, estimatedSnapshotBytes()))
                {
                    // On a thread of its own, as checkpointInBackground: a checkpoint of a large store takes
                    // seconds, and this thread's syncs are what bounds DURABLE's loss at a power failure.
                    startBackgroundCheckpoint();
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                final long now = System.nanoTime();
                if (now - lastWarningNanos >= SYNC_INTERVAL_NANOS * 10)
                {
                    lastWarningNanos = now;
                    LOG.warn("{}: background sync or checkpoint failed; the log stays the record", persistence
                        .directory(), ex);
                }
            }
            finally
            {
                gate.release(c);
            }
        }
    }

    @Override
    public Durability durability()
    {
        return persistence.durability();
    }

    /**
     * Writes a snapshot of the store now and drops the log it makes unnecessary (docs/durability.md). Each shard's
     * writers wait while that shard is copied; with {@link Durability#FAST}, which has no log to repair a snapshot
     * taken while writers run, every writer waits for the whole snapshot. Checkpoints also run by themselves once
     * the log has grown to the size of the last snapshot, and at close.
     *
     * @throws IllegalStateException inside an exclusive section.
     * @throws io.agni.api.AgniException if the snapshot cannot be written; the previous one and the log stay.
     */
    @Override
    public void checkpoint()
    {
        exclusive.refuseInside("checkpoint", name);
        // a hold, not an operation: the snapshot reads each shard under its lock, and writers' retired memory must
        // go back to the budget while it runs
        final ThreadContext c = gate.hold();
        try
        {
            persistence.checkpoint(this);
        }
        catch (final IOException ex)
        {
            throw DurabilityErrors.onCheckpoint(persistence.directory(), ex);
        }
        finally
        {
            gate.release(c);
        }
    }

    /**
     * Starts a checkpoint on a thread of the store's own, unless one is running (docs/durability.md); a failure is
     * logged and shows in {@link #checkpointStatus()}.
     *
     * @return whether a checkpoint was started.
     * @throws StoreClosedException if the store is closed.
     */
    @Override
    public boolean checkpointInBackground()
    {
        final ThreadContext c = gate.enter();
        try
        {
            return startBackgroundCheckpoint();
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * Makes every write acknowledged so far survive a power loss: syncs the log ({@link Durability#DURABLE},
     * {@link Durability#PARANOID}), or takes a snapshot ({@link Durability#FAST}, which has no log).
     *
     * @throws io.agni.api.StoreReadOnlyException if the log has failed.
     */
    void sync()
    {
        final LogWriter log = persistence.log();
        if (log == null)
        {
            checkpoint();
            return;
        }
        final ThreadContext c = gate.enter();
        try
        {
            log.sync();
        }
        finally
        {
            gate.exit(c);
        }
    }

    private boolean startBackgroundCheckpoint()
    {
        if (persistence.checkpointRunning() || !backgroundCheckpoint.compareAndSet(false, true))
        {
            return false;
        }
        try
        {
            final Thread thread = new Thread(this::runBackgroundCheckpoint, name + " checkpoint");
            thread.setDaemon(true);
            thread.start();
            return true;
        }
        catch (final RuntimeException | Error ex)
        {
            backgroundCheckpoint.set(false);
            throw ex;
        }
    }

    private void runBackgroundCheckpoint()
    {
        try
        {
            final ThreadContext c;
            try
            {
                c = gate.hold();
            }
            catch (final StoreClosedException ex)
            {
                return;
            }
            try
            {
                persistence.checkpoint(this);
            }
            catch (final IOException | RuntimeException ex)
            {
                LOG.warn("{}: the background checkpoint failed; the previous snapshot and the log stay",
                    persistence.directory(), ex);
            }
            finally
            {
                gate.release(c);
            }
        }
        finally
        {
            backgroundCheckpoint.set(false);
        }
    }

    @Override
    public CheckpointStatus checkpointStatus()
    {
        final LogWriter log = persistence.log();
        return CheckpointStatus.builder()
            .inProgress(backgroundCheckpoint.get() || persistence.checkpointRunning())
            .lastCheckpointMillis(Math.max(0, persistence.lastSnapshotMillis()))
            .lastCheckpointFailed(persistence.lastCheckpointFailed())
            .lastDurationMillis(toMillis(persistence.lastCheckpointNanos()))
            .currentDurationMillis(toMillis(persistence.currentCheckpointNanos()))
            .changesSinceCheckpoint(persistence.changesSinceSnapshot())
            .logFailed(log != null && log.failure() != null)
            .failuresInARow(persistence.failuresInARow())
            .retryInMillis(toMillis(persistence.retryInNanos()))
            .build();
    }

    private static long toMillis(final long nanos)
    {
        return nanos < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /**
     * Gives the directory up, after a last snapshot if {@code lastCheckpoint} (a clean close), else leaving the log as
     * it is (as a crash would, for tests of recovery); the background thread is stopped and no operation may be in
     * flight.
     *
     * @return what the caller throws once it has freed the store's memory, or {@code null}.
     */
    RuntimeException close(final boolean lastCheckpoint)
    {
        if (!lastCheckpoint)
        {
            persistence.close();
            return null;
        }
        try
        {
            persistence.close(this);
            return null;
        }
        catch (final IOException | RuntimeException ex)
        {
            return DurabilityErrors.onClose(persistence.directory(), ex);
        }
    }

    @Override
    public long estimatedSnapshotBytes()
    {
        long bytes = 0;
        for (final Shard shard : shards)
        {
            // The arena's live entries: the snapshot holds each with a header of about the same length.
            bytes += shard.liveBytes();
        }
        return bytes;
    }

    @Override
    public void snapshot(final SnapshotWriter writer, final boolean consistent) throws IOException
    {
        final long now = clock.time();
        final EntryVisitor add = (buffer, keyOffset, keyLength, valueOffset, valueLength, expireAt) ->
            writer.add(buffer, keyOffset, keyLength, buffer, valueOffset, valueLength, expireAt);
        if (consistent)
        {
            final long[] stamps = new long[shards.length];
            int locked = 0;
            try
            {
                for (; locked < shards.length; locked++)
                {
                    stamps[locked] = shards[locked].lockRead();
                }
                for (final Shard shard : shards)
                {
                    shard.forEachLiveLocked(now, cursor, add);
                }
            }
            finally
            {
                for (int i = locked - 1; i >= 0; i--)
                {
                    shards[i].unlockRead(stamps[i]);
                }
            }
            return;
        }
        for (final Shard shard : shards)
        {
            final long stamp = shard.lockRead();
            try
            {
                shard.forEachLiveLocked(now, cursor, add);
            }
            finally
            {
                shard.unlockRead(stamp);
            }
        }
    }
}
