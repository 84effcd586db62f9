package io.agni.store;

import io.agni.api.CheckpointStatus;
import io.agni.api.Durability;
import io.agni.api.StoreClosedException;
import io.agni.store.arena.EntryCursor;
import io.agni.store.log.LogWriter;
import io.agni.store.persist.Persistence;
import io.agni.store.persist.PersistentState;
import io.agni.store.shard.EntryVisitor;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import io.agni.store.snapshot.SnapshotWriter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * An {@link OffHeapStore}'s side of its directory: rebuilds the store from a snapshot and the log while it opens,
 * through the store's own operations before the log is attached (so nothing is logged twice), and lists its entries
 * for snapshots, shard by shard under each shard's read lock (every shard at once for a snapshot with no log behind
 * it). Runs the checkpoints asked for in the background on a thread of their own, one at a time, and reports their
 * status.
 * <p>
 * Its background threads and checkpoints <em>hold</em> the store's gate rather than enter it as operations
 * ({@code OperationGate.hold}): close waits for them, but the memory writers retire meanwhile goes back to the
 * budget. That is sound only because nothing here reads the store's memory outside a shard's lock: the snapshot
 * walks each shard under its read lock, and a buffer is retired only under the write lock of its shard.
 */
final class StoreDurability implements PersistentState
{
    private static final long SYNC_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long BACKGROUND_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final Logger LOG = LoggerFactory.getLogger(StoreDurability.class);

    private final OffHeapStore store;
    private final Shard[] shards;
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

    private StoreDurability(
        final OffHeapStore store, final Shard[] shards, final EpochClock clock, final long checkpointLogBytes)
    {
        this.checkpointLogBytes = checkpointLogBytes;
        this.store = store;
        this.shards = shards;
        this.clock = clock;
    }

    /**
     * Opens the store's directory and rebuilds its content.
     */
    static StoreDurability open(final OffHeapStore store, final Shard[] shards, final StoreConfig config)
        throws IOException
    {
        final StoreDurability durability = new StoreDurability(store, shards, config.clock(), config.checkpointLogBytes());
        durability.persistence = Persistence.open(config.directory(), config.durability(), config.files(),
            config.logSegmentBytes(), durability, config.clock());
        return durability;
    }

    Persistence persistence()
    {
        return persistence;
    }

    /**
     * Starts the thread that syncs a {@code DURABLE} log every second (so a power loss loses at most about that much)
     * and checkpoints once the log has grown to the last snapshot's size (at least
     * the builder's {@code checkpointLogBytes}).
     */
    void startBackground(final OperationGate gate, final String name)
    {
        if (persistence.log() == null)
        {
            return;
        }
        background = new Thread(() -> runBackground(gate), name + " persistence");
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

    private void runBackground(final OperationGate gate)
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
                if (persistence.checkpointDue(checkpointLogBytes))
                {
                    persistence.checkpoint(this);
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

    Durability durability()
    {
        return persistence.durability();
    }

    /**
     * Takes a snapshot now; see {@link Persistence#checkpoint}.
     */
    void checkpoint() throws IOException
    {
        persistence.checkpoint(this);
    }

    /**
     * Starts a checkpoint on a new thread, unless one is running.
     *
     * @return whether one was started.
     */
    boolean checkpointInBackground(final OperationGate gate, final String name)
    {
        if (persistence.checkpointRunning() || !backgroundCheckpoint.compareAndSet(false, true))
        {
            return false;
        }
        try
        {
            final Thread thread = new Thread(() -> runBackgroundCheckpoint(gate), name + " checkpoint");
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

    private void runBackgroundCheckpoint(final OperationGate gate)
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

    /**
     * What the checkpoints have done and whether one is running.
     */
    CheckpointStatus status()
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
            .build();
    }

    private static long toMillis(final long nanos)
    {
        return nanos < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /**
     * A last snapshot, then gives the directory up; no operation may be in flight.
     */
    void close() throws IOException
    {
        persistence.close(this);
    }

    @Override
    public void recoverSet(final DirectBuffer buffer, final int keyOffset, final int keyLength,
        final int valueOffset, final int valueLength, final long expireAtMillis)
    {
        // As the record says, even when its time has passed: a later record may have extended it (an EXPIRE logged
        // while the key was live), and an entry left expired is reclaimed like any other.
        final long hash = store.hash(buffer, keyOffset, keyLength);
        store.shard(hash).recoverSet(hash, buffer, keyOffset, keyLength, buffer, valueOffset, valueLength,
            expireAtMillis, cursor);
    }

    @Override
    public void recoverDelete(final DirectBuffer buffer, final int keyOffset, final int keyLength)
    {
        store.delete(buffer, keyOffset, keyLength);
    }

    @Override
    public void recoverExpire(final DirectBuffer buffer, final int keyOffset, final int keyLength,
        final long expireAtMillis)
    {
        final long hash = store.hash(buffer, keyOffset, keyLength);
        store.shard(hash).recoverExpire(hash, buffer, keyOffset, keyLength, expireAtMillis, cursor);
    }

    @Override
    public long recoveryEvictions()
    {
        long evicted = 0;
        for (final Shard s : shards)
        {
            evicted += s.evictedCount();
        }
        return evicted;
    }

    @Override
    public void recoverClear()
    {
        store.clear();
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
