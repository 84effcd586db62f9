package io.agni.store;

import io.agni.api.StoreClosedException;
import io.agni.store.memory.OffHeapMemory;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The active expiry sweep of one store (docs/architecture.md, "Expiry"): a daemon thread that wakes every interval
 * and walks each shard's table in steps of {@value #SLOTS_PER_STEP} slots, running up to
 * {@value #STEPS_PER_TICK} steps per shard while more than a quarter of the slots examined held expired entries.
 *
 * <h2>Concurrency</h2>
 * The thread holds the store's {@link OperationGate} for each tick ({@code OperationGate.hold}), so {@code close()}
 * waits for a tick in progress; it leaves when it finds the gate closed. A hold, not an operation: the sweep reads a
 * shard only under its write lock, and as an operation a tick kept every buffer that writers retired while it waited
 * for a shard's lock in the budget, so a write evicting at the budget in that shard could be refused the memory it
 * had just freed. After each tick, outside the gate, it frees the
 * retired buffers no reader can reach any more ({@link OffHeapMemory#reclaim()}), so that memory retired just
 * before a store goes idle does not wait for its next write. {@link #stop()} is for the closing thread.
 *
 * <h2>Failures</h2>
 * A {@link RuntimeException} from one shard's sweep (a bug, or a clock that throws) ends that shard's part of the
 * tick, not the thread: the other shards are swept, and the next tick tries again, since stopping would leave
 * expired entries holding memory for good. The failure is logged at once, and then at most once per
 * {@value #FAILURE_LOG_INTERVAL_MS} ms with the number of failures in between, so a failure on every tick cannot
 * flood the log.
 */
final class ExpirySweeper
{
    private static final Logger LOG = LoggerFactory.getLogger(ExpirySweeper.class);

    /**
     * Slots one step examines under a shard's write lock.
     */
    static final int SLOTS_PER_STEP = 256;

    /**
     * Steps per shard per tick at most, while steps keep finding many expired entries.
     */
    static final int STEPS_PER_TICK = 16;

    /**
     * The least time between two log lines about failed sweeps, in milliseconds.
     */
    static final long FAILURE_LOG_INTERVAL_MS = 60_000;

    private final Shard[] shards;
    private final OperationGate gate;
    private final OffHeapMemory memory;
    private final long intervalNanos;
    private final String name;
    private final Thread thread;
    private long lastFailureLogNanos;
    private long failuresNotLogged;
    private boolean failedBefore;

    /**
     * Starts the sweep thread.
     *
     * @param shards     the store's shards, gate and memory (whose retired buffers each tick frees).
     * @param intervalMs milliseconds between ticks, at least 1.
     */
    ExpirySweeper(final Shards shards, final long intervalMs)
    {
        this.shards = shards.all;
        this.gate = shards.gate;
        this.memory = shards.memory;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        this.name = shards.name;
        this.thread = new Thread(this::run, name + " expiry sweep");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Wakes the thread and waits up to ten seconds for it to end. The gate must be closed already. The closing
     * thread.
     */
    void stop()
    {
        LockSupport.unpark(thread);
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void run()
    {
        while (!gate.isClosed())
        {
            LockSupport.parkNanos(this, intervalNanos);
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
                if (c.changes == null || !c.changes.failed())
                {
                    for (final Shard s : shards)
                    {
                        sweepShard(s, c);
                    }
                }
            }
            finally
            {
                gate.release(c);
            }
            memory.reclaim();
        }
    }

    private void sweepShard(final Shard s, final ThreadContext c)
    {
        try
        {
            int steps = 0;
            while (s.sweep(SLOTS_PER_STEP, c.entry, c.changes) > SLOTS_PER_STEP / 4 &&
                ++steps < STEPS_PER_TICK && !gate.isClosed())
            {
                Thread.onSpinWait();
            }
        }
        catch (final RuntimeException ex)
        {
            onFailure(ex);
        }
    }

    private void onFailure(final RuntimeException ex)
    {
        final long now = System.nanoTime();
        if (failedBefore && now - lastFailureLogNanos < TimeUnit.MILLISECONDS.toNanos(FAILURE_LOG_INTERVAL_MS))
        {
            failuresNotLogged++;
            return;
        }
        LOG.warn("{}: expiry sweep of a shard failed ({} more failures since the last report); sweeping goes on",
            name, failuresNotLogged, ex);
        failedBefore = true;
        lastFailureLogNanos = now;
        failuresNotLogged = 0;
    }
}
