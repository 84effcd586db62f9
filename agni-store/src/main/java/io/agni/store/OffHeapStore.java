package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.CheckpointStatus;
import io.agni.api.Checkpointing;
import io.agni.api.DeferredDurability;
import io.agni.api.Durability;
import io.agni.api.Evicting;
import io.agni.api.EvictionPolicy;
import io.agni.api.ScanResult;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreStats;
import io.agni.api.Transactional;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The in-process {@link AgniStore}: entries live off-heap in Agrona buffers, split over a power-of-two number of
 * shards, each an index table and an entry arena behind one {@link java.util.concurrent.locks.StampedLock}.
 * Open one with {@link #open()} or {@link #builder()}; close it when done. See docs/architecture.md for the storage
 * and locking protocol of every operation.
 *
 * <h2>Threads</h2>
 * Every method may be called from any thread. Reads are optimistic and take no lock unless they race with a writer
 * of the same shard. A store with one shard is one lock around one map: the baseline the sharded store is measured
 * against.
 *
 * <h2>Memory</h2>
 * Nothing is sized up front: index tables double and segments are added as entries arrive, within the memory
 * budget. {@link #stats()} reports the bytes held and the bytes of live entries.
 *
 * <h2>Durability</h2>
 * Opened with a directory, the store keeps its data across restarts (docs/durability.md). As {@link Checkpointing}
 * it takes snapshots on demand, in the caller's thread or its own, and reports their status; as
 * {@link DeferredDurability} it lets a thread that serves many clients wait once for the syncs of all its writes.
 * As {@link Transactional} it runs transactions (docs/architecture.md, "Exclusive sections").
 */
public final class OffHeapStore extends StoreWrites
    implements AgniStore, Checkpointing, DeferredDurability, Transactional, Evicting
{
    /**
     * The JVM flag every JVM that loads agni (through Agrona 2.x) needs.
     */
    public static final String REQUIRED_JVM_FLAG = "--add-opens java.base/jdk.internal.misc=ALL-UNNAMED";

    private static final Logger LOG = LoggerFactory.getLogger(OffHeapStore.class);
    private final ExpirySweeper sweeper;
    /**
     * The store's directory, snapshot and log; {@code null} for {@link Durability#NONE}.
     */
    private final StoreDurability durability;

    OffHeapStore(final StoreConfig config)
    {
        super(config);
        // Before recovery: the replayed entries are laid out anew and may not fit the budget as they did, so recovery
        // evicts too (unlogged; the directory is then checkpointed at once, so they stay evicted).
        for (final Shard s : shards)
        {
            s.evictionPolicyLocked(config.evictionPolicy());
            s.recovering(true);
        }
        this.durability = config.durability() == Durability.NONE ? null : openDirectory(config);
        for (final Shard s : shards)
        {
            s.recovering(false);
        }
        if (config.expirySweepIntervalMs() > 0)
        {
            sweeper = new ExpirySweeper(shards, gate, memory, config.expirySweepIntervalMs(), name);
        }
        else
        {
            sweeper = null;
        }
        if (durability != null)
        {
            durability.startBackground(gate, name);
        }
        LOG.debug("{} opened: shards={}, budget={} bytes", name, shards.length, budget.limit());
    }

    /**
     * Rebuilds the store from its directory through its own operations, then gives every thread its way into the
     * log; on failure frees what the store holds and throws.
     */
    private StoreDurability openDirectory(final StoreConfig config)
    {
        try
        {
            final StoreDurability opened = StoreDurability.open(this, shards, config);
            if (opened.persistence().log() != null)
            {
                gate.attachLog(opened.persistence().log(), config.durability() == Durability.PARANOID);
            }
            return opened;
        }
        catch (final IOException | RuntimeException | Error ex)
        {
            for (final Shard s : shards)
            {
                s.free();
            }
            memory.freeRetired();
            throw DurabilityErrors.onOpen(config.directory(), ex);
        }
    }
    /**
     * Writes a snapshot of the store now and drops the log it makes unnecessary (docs/durability.md). Writers go on
     * while it is taken; with {@link Durability#FAST}, each shard's writers wait while it is copied. Checkpoints also
     * run by themselves once the log has grown to the size of the last snapshot, and at {@link #close()}.
     *
     * @throws IllegalStateException if the store keeps nothing on disk ({@link Durability#NONE}).
     * @throws io.agni.api.AgniException if the snapshot cannot be written; the previous one and the log stay.
     */
    @Override
    public void checkpoint()
    {
        if (durability == null)
        {
            throw new IllegalStateException(name + " has no directory (Durability.NONE): nothing to checkpoint");
        }
        exclusive.refuseInside("checkpoint", name);
        // a hold, not an operation: the snapshot reads each shard under its lock, and writers' retired memory must
        // go back to the budget while it runs
        final ThreadContext c = gate.hold();
        try
        {
            durability.checkpoint();
        }
        catch (final IOException ex)
        {
            throw DurabilityErrors.onCheckpoint(durability.persistence().directory(), ex);
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
     * @throws IllegalStateException if the store keeps nothing on disk ({@link Durability#NONE}).
     * @throws StoreClosedException  if the store is closed.
     */
    @Override
    public boolean checkpointInBackground()
    {
        if (durability == null)
        {
            throw new IllegalStateException(name + " has no directory (Durability.NONE): nothing to checkpoint");
        }
        final ThreadContext c = gate.enter();
        try
        {
            return durability.checkpointInBackground(gate, name);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public CheckpointStatus checkpointStatus()
    {
        return durability == null ? CheckpointStatus.NONE : durability.status();
    }

    @Override
    public boolean writesAwaitDurable()
    {
        return durability() == Durability.PARANOID;
    }

    @Override
    public void deferDurability(final boolean defer)
    {
        gate.deferDurability(defer);
    }

    @Override
    public void awaitDurable()
    {
        gate.awaitDurable();
    }

    /**
     * Closes the store as a crash would leave its directory: no checkpoint, the log as it is (synced, so the test
     * that uses this sees the page cache's content). For tests of recovery within one JVM.
     */
    void closeWithoutCheckpoint()
    {
        if (!gate.close())
        {
            return;
        }
        if (sweeper != null)
        {
            sweeper.stop();
        }
        if (durability != null)
        {
            durability.stopBackground();
            durability.persistence().close();
        }
        for (final Shard s : shards)
        {
            s.free();
        }
        memory.freeRetired();
    }

    /**
     * Makes every write acknowledged so far survive a power loss: syncs the log ({@link Durability#DURABLE},
     * {@link Durability#PARANOID}), or takes a snapshot ({@link Durability#FAST}, which has no log).
     *
     * @throws IllegalStateException if the store keeps nothing on disk ({@link Durability#NONE}).
     * @throws io.agni.api.StoreReadOnlyException if the log has failed.
     */
    public void sync()
    {
        if (durability == null)
        {
            throw new IllegalStateException(name + " has no directory (Durability.NONE): nothing to sync");
        }
        if (durability.persistence().log() == null)
        {
            checkpoint();
            return;
        }
        final ThreadContext c = gate.enter();
        try
        {
            durability.persistence().log().sync();
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * What the store keeps across a restart.
     *
     * @return the preset it was opened with.
     */
    @Override
    public Durability durability()
    {
        return durability == null ? Durability.NONE : durability.durability();
    }

    /**
     * Opens a store with every default: {@link OffHeapStoreBuilder#defaultShards()} shards, a budget of
     * {@link OffHeapStoreBuilder#defaultMaxMemory()}, 512 MiB key and value limits, the system clock and a
     * background expiry sweep.
     *
     * @return the open store; close it when done.
     * @throws IllegalStateException if the JVM lacks {@link #REQUIRED_JVM_FLAG}.
     */
    public static OffHeapStore open()
    {
        return builder().build();
    }

    /**
     * A builder for a configured store.
     *
     * @return a new builder with every default.
     */
    public static OffHeapStoreBuilder builder()
    {
        return new OffHeapStoreBuilder();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Whole store
    // ------------------------------------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     * <p>
     * The cursor holds the shard index in its high 32 bits and a position among that shard's home buckets, in
     * reverse-binary order, in its low bits (docs/architecture.md, "Scan"). As Redis's SCAN, one step stops at the
     * end of the bucket in which it has seen {@code count} live keys (matching {@code pattern} or not), or after
     * {@code 10 * count} buckets but at least 4,096, going on into the next shards when one ends first: a default
     * step (count 10) returns about ten keys when the store has that many. A cursor with a bit this store has never
     * returned (a shard it does not have, a bucket bit no cursor of that shard had) is refused, without a stack
     * trace; every cursor it returned is taken back.
     */
    @Override
    public ScanResult scan(final long cursor, final byte[] pattern, final int count)
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("count must be at least 1: count=" + count);
        }
        return scanStep(cursor, pattern, StoreScan.bucketsFor(count), count);
    }

    /**
     * A scan step that stops after {@code buckets} buckets however many keys it sees: for tests of the cursor.
     *
     * @param cursor  0 to start, else a cursor a step returned.
     * @param pattern glob pattern or null.
     * @param buckets the buckets to visit, at least 1.
     * @return the keys found and the next cursor.
     */
    ScanResult scanBuckets(final long cursor, final byte[] pattern, final int buckets)
    {
        return scanStep(cursor, pattern, buckets, Integer.MAX_VALUE);
    }

    private ScanResult scanStep(final long cursor, final byte[] pattern, final int buckets, final int liveKeys)
    {
        final ThreadContext c = gate.enter();
        try
        {
            return scan.step(cursor, pattern, buckets, liveKeys, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * A few probes from a random slot of a random shard; only when they find nothing does it walk every shard's
     * table once from a random shard (docs/architecture.md, "randomKey").
     */
    @Override
    public byte[] randomKey()
    {
        final ThreadContext c = gate.enter();
        try
        {
            final ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int attempt = 0; attempt < RANDOM_KEY_SAMPLES; attempt++)
            {
                final Shard s = shards[random.nextInt(shards.length)];
                if (s.count() > 0)
                {
                    final byte[] key = s.liveKeyFrom(random.nextInt(), RANDOM_KEY_PROBES, c.entry);
                    if (key != null)
                    {
                        return key;
                    }
                }
            }
            final int first = random.nextInt(shards.length);
            for (int j = 0; j < shards.length; j++)
            {
                final byte[] key = shards[(first + j) & shardMask].liveKeyFrom(random.nextInt(), Integer.MAX_VALUE,
                    c.entry);
                if (key != null)
                {
                    return key;
                }
            }
            return null;
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long size()
    {
        final ThreadContext c = gate.enter();
        try
        {
            long sum = 0;
            for (final Shard s : shards)
            {
                sum += s.count();
            }
            return sum;
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public void clear()
    {
        final ThreadContext c = gate.enter();
        try
        {
            if (c.changes == null)
            {
                for (final Shard s : shards)
                {
                    s.clear();
                }
            }
            else
            {
                clearLogged(c);
            }
        }
        finally
        {
            gate.exit(c);
        }
        memory.reclaim();
    }

    @Override
    public StoreStats stats()
    {
        final ThreadContext c = gate.enter();
        try
        {
            memory.reclaim();
            long entries = 0;
            long expiring = 0;
            long expired = 0;
            long evicted = 0;
            long rejected = 0;
            long live = 0;
            for (final Shard s : shards)
            {
                entries += s.count();
                expiring += s.expiringCount();
                expired += s.expiredCount();
                evicted += s.evictedCount();
                rejected += s.rejectedCount();
                live += s.liveBytes();
            }
            return StoreStats.builder()
                .entries(entries)
                .entriesWithExpiry(expiring)
                .hits(gate.hits())
                .misses(gate.misses())
                .expired(expired)
                .evicted(evicted)
                .rejectedWrites(rejected)
                .offHeapBytes(budget.reserved())
                .liveEntryBytes(live)
                .budgetBytes(budget.limit())
                .build();
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * What a write does when the budget cannot hold it ({@link OffHeapStoreBuilder#evictionPolicy}).
     *
     * @return the policy.
     */
    @Override
    public EvictionPolicy evictionPolicy()
    {
        return evictionPolicy;
    }

    /**
     * Changes what a write does when the budget cannot hold it, for every write that starts after this returns. Takes
     * each shard's write lock in turn. A policy that evicts adds one byte per index slot for the read marks
     * (docs/eviction.md); if the budget refuses them, eviction in that shard goes on without them until its index
     * next grows.
     *
     * @param policy the policy.
     */
    @Override
    public void evictionPolicy(final EvictionPolicy policy)
    {
        Objects.requireNonNull(policy, "policy");
        final ThreadContext c = gate.enter();
        try
        {
            for (final Shard s : shards)
            {
                final long stamp = s.lockWrite(null);
                try
                {
                    s.evictionPolicyLocked(policy);
                }
                finally
                {
                    s.unlockWrite(stamp);
                }
            }
            evictionPolicy = policy;
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * The memory budget ({@link OffHeapStoreBuilder#maxMemory}, or as last changed by {@link #maxMemory(long)}).
     *
     * @return the budget in bytes.
     */
    @Override
    public long maxMemory()
    {
        return budget.limit();
    }

    /**
     * Changes the memory budget while the store runs (docs/architecture.md, "A budget lowered at run time"). Raising
     * it takes effect at once. Lowering it below what the store holds refuses new memory until the store is back
     * within it; each write of a value meanwhile (and each tick of the expiry sweep, and each batch) takes a bounded
     * step towards it in its shard: it releases the spare segment, moves a step of entries out of the segment with
     * the fewest live bytes and, if the policy evicts, evicts by the policy beyond its own need to make room for
     * them, so segments empty and are released. Without eviction, only garbage is reclaimed. The index tables do not
     * shrink, and each shard keeps its head segment: a budget below those is never reached. The key and value limits
     * stay as the store was opened with. Any thread.
     *
     * @param bytes the new budget in bytes: at least {@link OffHeapStoreBuilder#MIN_BUDGET_PER_SHARD} per shard, at
     *              most the JVM's direct-memory limit.
     * @throws IllegalArgumentException if {@code bytes} is out of that range; nothing changed.
     * @throws StoreClosedException     if the store is closed.
     */
    @Override
    public void maxMemory(final long bytes)
    {
        OffHeapStoreBuilder.checkBudget(bytes, shards.length);
        final ThreadContext c = gate.enter();
        try
        {
            final long before = budget.limit();
            budget.limit(bytes);
            memory.reclaim();
            LOG.debug("{}: budget changed from {} to {} bytes, {} held", name, before, bytes, budget.reserved());
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * Reads the clock the store was built with ({@link OffHeapStoreBuilder#clock}). Reading it needs nothing the
     * store holds, so it answers after {@link #close()} too.
     */
    @Override
    public long currentTimeMillis()
    {
        return clock.time();
    }

    /**
     * Runs one full pass of the expiry sweep over every shard now, on the calling thread. Any thread.
     *
     * @return the number of expired entries reclaimed.
     * @throws StoreClosedException if the store is closed.
     */
    public int sweepExpired()
    {
        final ThreadContext c = gate.enter();
        try
        {
            int removed = 0;
            for (final Shard s : shards)
            {
                removed += s.sweep(Integer.MAX_VALUE, c.entry, c.changes);
            }
            return removed;
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * Checks every shard's structural invariants (entry and expiry counts, live and held byte accounting, every key
     * reachable exactly once) and that the budget holds. For agni-store's tests, so package-private: not API. Takes
     * each shard's write lock in turn.
     *
     * @throws IllegalStateException naming the first broken invariant.
     */
    void verifyIntegrity()
    {
        final ThreadContext c = gate.enter();
        try
        {
            long held = 0;
            for (final Shard s : shards)
            {
                s.verifyIntegrity(c.entry, c);
                held += s.heldBytes();
            }
            memory.verifyAccounting(held);
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * The number of shards.
     *
     * @return a power of two.
     */
    public int shardCount()
    {
        return shards.length;
    }



    @Override
    public void close()
    {
        exclusive.refuseInside("close", name);
        if (!gate.close())
        {
            return;
        }
        if (sweeper != null)
        {
            sweeper.stop();
        }
        RuntimeException failure = null;
        if (durability != null)
        {
            durability.stopBackground();
            try
            {
                durability.close();
            }
            catch (final IOException | RuntimeException ex)
            {
                failure = DurabilityErrors.onClose(durability.persistence().directory(), ex);
            }
        }
        for (final Shard s : shards)
        {
            s.free();
        }
        memory.freeRetired();
        LOG.debug("{} closed", name);
        if (failure != null)
        {
            throw failure;
        }
    }

    @Override
    public String toString()
    {
        return name + "{shards=" + shards.length + ", budget=" + budget.limit() + ", closed=" + gate.isClosed() + "}";
    }

    /**
     * Clears under every shard's write lock at once, so that no write of another thread falls between the logged
     * clear and the clearing of its shard (replay would keep it, the store would not).
     */
    private void clearLogged(final ThreadContext c)
    {
        final long[] stamps = new long[shards.length];
        int locked = 0;
        try
        {
            for (; locked < shards.length; locked++)
            {
                stamps[locked] = shards[locked].lockWrite(c.changes);
            }
            c.changes.clear();
            for (final Shard s : shards)
            {
                s.clearLocked();
            }
        }
        finally
        {
            for (int i = locked - 1; i >= 0; i--)
            {
                shards[i].unlockWrite(stamps[i]);
            }
        }
    }
}
