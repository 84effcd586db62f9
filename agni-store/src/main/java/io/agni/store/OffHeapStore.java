package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.CheckpointStatus;
import io.agni.api.Checkpointing;
import io.agni.api.DeferredDurability;
import io.agni.api.Durability;
import io.agni.api.Evicting;
import io.agni.api.EvictionPolicy;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreStats;
import io.agni.api.Transactional;
import io.agni.api.WriteBatch;
import io.agni.store.shard.Shard;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-process {@link AgniStore}: entries live off-heap in Agrona buffers, split over a power-of-two number of
 * shards, each an index table and an entry arena behind one {@link java.util.concurrent.locks.StampedLock}.
 * Open one with {@link #open()} or {@link #builder()}; close it when done. See docs/architecture.md for the storage
 * and locking protocol of every operation, and for how this facade is put together ("Structure").
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
 * <h2>Capabilities</h2>
 * A store always has {@link #transactional()} (docs/architecture.md, "Exclusive sections") and {@link #evicting()}.
 * Opened with a directory, it keeps its data across restarts (docs/durability.md) and has {@link #checkpointing()};
 * opened {@link Durability#PARANOID}, it has {@link #deferredDurability()}, so that a thread that serves many
 * clients waits once for the syncs of all its writes. Check the accessors, not the class. The capabilities' methods
 * are also methods of this class, as they were before the accessors, for code that holds an {@code OffHeapStore}.
 */
public final class OffHeapStore implements AgniStore
{
    /** The JVM flag every JVM that loads agni (through Agrona 2.x) needs. */
    public static final String REQUIRED_JVM_FLAG = "--add-opens java.base/jdk.internal.misc=ALL-UNNAMED";

    private static final Logger LOG = LoggerFactory.getLogger(OffHeapStore.class);
    private static final AtomicInteger STORE_IDS = new AtomicInteger();

    private final Shards shards;
    private final StringReads reads;
    private final StringWrites writes;
    private final WholeStore whole;
    private final ExclusiveSection exclusive;
    /** The store's directory, snapshot and log; {@code null} for {@link Durability#NONE}. */
    private final Checkpoints checkpoints;
    private final ExpirySweeper sweeper;
    private final Optional<Checkpointing> checkpointing;
    private final Optional<Transactional> transactional;
    private final Optional<Evicting> evicting;
    private final Optional<DeferredDurability> deferredDurability;

    OffHeapStore(final StoreConfig config)
    {
        AgronaAccess.check(REQUIRED_JVM_FLAG);
        this.shards = new Shards(config, "agni store #" + STORE_IDS.incrementAndGet());
        this.exclusive = new ExclusiveSection(shards);
        this.reads = new StringReads(shards);
        this.writes = new StringWrites(shards, exclusive);
        this.whole = new WholeStore(shards);
        // Before recovery: the replayed entries are laid out anew and may not fit the budget as they did, so recovery
        // evicts too (unlogged; the directory is then checkpointed at once, so they stay evicted).
        for (final Shard s : shards.all)
        {
            s.evictionPolicyLocked(config.evictionPolicy());
            s.recovering(true);
        }
        this.checkpoints = config.durability() == Durability.NONE ? null : openDirectory(config);
        for (final Shard s : shards.all)
        {
            s.recovering(false);
        }
        this.sweeper = config.expirySweepIntervalMs() > 0 ?
            new ExpirySweeper(shards, config.expirySweepIntervalMs()) : null;
        if (checkpoints != null)
        {
            checkpoints.startBackground();
        }
        this.checkpointing = Optional.ofNullable(checkpoints);
        this.transactional = Optional.of(writes);
        this.evicting = Optional.of(whole);
        this.deferredDurability = config.durability() == Durability.PARANOID ?
            Optional.of(shards.gate) : Optional.empty();
        LOG.debug("{} opened: shards={}, budget={} bytes", shards.name, shards.all.length, shards.budget.limit());
    }

    /**
     * Rebuilds the shards from the directory, then gives every thread its way into the log; on failure frees what
     * the store holds and throws.
     */
    private Checkpoints openDirectory(final StoreConfig config)
    {
        try
        {
            final Checkpoints opened = Checkpoints.open(shards, exclusive, config);
            if (opened.persistence().log() != null)
            {
                shards.gate.attachLog(opened.persistence().log(), config.durability() == Durability.PARANOID);
            }
            return opened;
        }
        catch (final IOException | RuntimeException | Error ex)
        {
            shards.free();
            throw DurabilityErrors.onOpen(config.directory(), ex);
        }
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

    @Override
    public byte[] get(final byte[] key)
    {
        return reads.get(key);
    }

    @Override
    public int get(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        return reads.get(key, keyOffset, keyLength, dst, dstOffset);
    }

    @Override
    public boolean exists(final byte[] key)
    {
        return reads.exists(shards.gate.wrapKey(key), 0, key.length);
    }

    @Override
    public boolean exists(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return reads.exists(key, keyOffset, keyLength);
    }

    @Override
    public List<byte[]> getAll(final List<byte[]> keys)
    {
        return reads.getAll(keys);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Reads the keys in place and copies each value once, from the arena into {@code dst}, under the read locks of
     * the shards involved; allocates nothing for a batch of up to a thousand keys in steady state.
     */
    @Override
    public int getAll(
        final DirectBuffer keys, final int[] keyOffsets, final int[] keyLengths, final int count,
        final MutableDirectBuffer dst, final int dstOffset, final int[] valueLengths)
    {
        return reads.getAll(keys, keyOffsets, keyLengths, count, dst, dstOffset, valueLengths);
    }

    @Override
    public long ttlMillis(final byte[] key)
    {
        return reads.ttlMillis(shards.gate.wrapKey(key), 0, key.length);
    }

    @Override
    public long ttlMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return reads.ttlMillis(key, keyOffset, keyLength);
    }

    @Override
    public long expireTimeMillis(final byte[] key)
    {
        return reads.expireTimeMillis(shards.gate.wrapKey(key), 0, key.length);
    }

    @Override
    public long expireTimeMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return reads.expireTimeMillis(key, keyOffset, keyLength);
    }

    @Override
    public int valueLength(final byte[] key)
    {
        return reads.valueLength(shards.gate.wrapKey(key), 0, key.length);
    }

    @Override
    public int valueLength(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return reads.valueLength(key, keyOffset, keyLength);
    }

    @Override
    public byte[] getRange(final byte[] key, final long start, final long end)
    {
        return reads.getRange(key, start, end);
    }

    @Override
    public int getRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long start, final long end,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        return reads.getRange(key, keyOffset, keyLength, start, end, dst, dstOffset);
    }

    @Override
    public void set(final byte[] key, final byte[] value)
    {
        set(key, value, SetCondition.ALWAYS, ExpiryMode.CLEAR, 0);
    }

    @Override
    public boolean set(
        final byte[] key, final byte[] value,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        return writes.set(shards.gate.wrapKey(key), 0, key.length, shards.gate.wrapValue(value), 0, value.length,
            condition, expiryMode, expiryMillis);
    }

    @Override
    public boolean set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        return writes.set(key, keyOffset, keyLength, value, valueOffset, valueLength, condition, expiryMode,
            expiryMillis);
    }

    @Override
    public byte[] getAndSet(
        final byte[] key, final byte[] value,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        return writes.getAndSet(key, value, condition, expiryMode, expiryMillis);
    }

    @Override
    public int getAndSet(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis,
        final MutableDirectBuffer previous, final int previousOffset)
    {
        return writes.getAndSet(key, keyOffset, keyLength, value, valueOffset, valueLength, condition, expiryMode,
            expiryMillis, previous, previousOffset);
    }

    @Override
    public boolean setAll(final List<byte[]> keys, final List<byte[]> values, final SetCondition condition)
    {
        return writes.setAll(keys, values, condition);
    }

    @Override
    public boolean setAll(
        final DirectBuffer buffer, final int[] offsets, final int[] lengths, final int pairs,
        final SetCondition condition)
    {
        return writes.setAll(buffer, offsets, lengths, pairs, condition);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Every shard the batch touches is write-locked, in ascending order, from before its first change to after its
     * last (docs/architecture.md, "Batch write"); with a directory, the batch is one log record.
     */
    @Override
    public void write(final WriteBatch batch)
    {
        writes.write(batch, null);
    }

    /**
     * The {@link Transactional#write(WriteBatch, byte[])} of {@link #transactional()}.
     *
     * @param batch the writes; not changed.
     * @param found what each operation found: at least {@code batch.size()} entries.
     */
    public void write(final WriteBatch batch, final byte[] found)
    {
        writes.write(batch, found);
    }

    /**
     * The {@link Transactional#runExclusive(Runnable)} of {@link #transactional()}.
     * @param body what to run; called once.
     */
    public void runExclusive(final Runnable body)
    {
        writes.runExclusive(body);
    }

    @Override
    public boolean delete(final byte[] key)
    {
        return writes.delete(shards.gate.wrapKey(key), 0, key.length);
    }

    @Override
    public boolean delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return writes.delete(key, keyOffset, keyLength);
    }

    @Override
    public byte[] getAndDelete(final byte[] key)
    {
        return writes.getAndDelete(key);
    }

    @Override
    public int getAndDelete(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        return writes.getAndDelete(key, keyOffset, keyLength, dst, dstOffset);
    }

    @Override
    public byte[] getAndExpire(final byte[] key, final ExpiryMode expiryMode, final long expiryMillis)
    {
        return writes.getAndExpire(key, expiryMode, expiryMillis);
    }

    @Override
    public int getAndExpire(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final ExpiryMode expiryMode, final long expiryMillis,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        return writes.getAndExpire(key, keyOffset, keyLength, expiryMode, expiryMillis, dst, dstOffset);
    }

    @Override
    public long incrementBy(final byte[] key, final long delta)
    {
        return writes.incrementBy(shards.gate.wrapKey(key), 0, key.length, delta);
    }

    @Override
    public long incrementBy(final DirectBuffer key, final int keyOffset, final int keyLength, final long delta)
    {
        return writes.incrementBy(key, keyOffset, keyLength, delta);
    }

    @Override
    public byte[] incrementByFloat(final byte[] key, final double delta)
    {
        return writes.incrementByFloat(key, delta);
    }

    @Override
    public int incrementByFloat(
        final DirectBuffer key, final int keyOffset, final int keyLength, final double delta,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        return writes.incrementByFloat(key, keyOffset, keyLength, delta, dst, dstOffset);
    }

    @Override
    public long append(final byte[] key, final byte[] value)
    {
        return writes.append(shards.gate.wrapKey(key), 0, key.length, shards.gate.wrapValue(value), 0, value.length);
    }

    @Override
    public long append(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return writes.append(key, keyOffset, keyLength, value, valueOffset, valueLength);
    }

    @Override
    public long setRange(final byte[] key, final long offset, final byte[] value)
    {
        return writes.setRange(
            shards.gate.wrapKey(key), 0, key.length, offset, shards.gate.wrapValue(value), 0, value.length);
    }

    @Override
    public long setRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long offset,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return writes.setRange(key, keyOffset, keyLength, offset, value, valueOffset, valueLength);
    }

    @Override
    public RenameResult rename(final byte[] key, final byte[] newKey, final boolean replace)
    {
        return writes.rename(
            shards.gate.wrapKey(key), 0, key.length, shards.gate.wrapValue(newKey), 0, newKey.length, replace);
    }

    @Override
    public RenameResult rename(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer newKey, final int newKeyOffset, final int newKeyLength, final boolean replace)
    {
        return writes.rename(key, keyOffset, keyLength, newKey, newKeyOffset, newKeyLength, replace);
    }

    @Override
    public boolean expire(final byte[] key, final long expireAtMillis, final ExpireCondition condition)
    {
        return writes.expire(shards.gate.wrapKey(key), 0, key.length, expireAtMillis, condition);
    }

    @Override
    public boolean expire(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final long expireAtMillis, final ExpireCondition condition)
    {
        return writes.expire(key, keyOffset, keyLength, expireAtMillis, condition);
    }

    @Override
    public boolean persist(final byte[] key)
    {
        return writes.persist(shards.gate.wrapKey(key), 0, key.length);
    }

    @Override
    public boolean persist(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return writes.persist(key, keyOffset, keyLength);
    }

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
        return whole.scan(cursor, pattern, count);
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
        return whole.randomKey();
    }

    @Override
    public long size()
    {
        return whole.size();
    }

    @Override
    public void clear()
    {
        whole.clear();
    }

    @Override
    public StoreStats stats()
    {
        return whole.stats();
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
        return shards.clock.time();
    }

    /**
     * Runs one full pass of the expiry sweep over every shard now, on the calling thread. Any thread.
     *
     * @return the number of expired entries reclaimed.
     * @throws StoreClosedException if the store is closed.
     */
    public int sweepExpired()
    {
        return whole.sweepExpired();
    }

    /**
     * The longest key accepted.
     * @return bytes.
     */
    public int maxKeyLength()
    {
        return shards.maxKeyLength;
    }

    /**
     * The longest value accepted.
     * @return bytes.
     */
    public int maxValueLength()
    {
        return shards.maxValueLength;
    }

    /**
     * The number of shards.
     * @return a power of two.
     */
    public int shardCount()
    {
        return shards.all.length;
    }

    /** {@inheritDoc} Present for a store opened with a directory. */
    @Override
    public Optional<Checkpointing> checkpointing()
    {
        return checkpointing;
    }

    /** {@inheritDoc} Always present. */
    @Override
    public Optional<Transactional> transactional()
    {
        return transactional;
    }

    /** {@inheritDoc} Always present. */
    @Override
    public Optional<Evicting> evicting()
    {
        return evicting;
    }

    /** {@inheritDoc} Present for a store opened with {@link Durability#PARANOID}. */
    @Override
    public Optional<DeferredDurability> deferredDurability()
    {
        return deferredDurability;
    }

    /**
     * What the store keeps across a restart.
     * @return the preset it was opened with.
     */
    public Durability durability()
    {
        return checkpoints == null ? Durability.NONE : checkpoints.durability();
    }

    /**
     * The {@link Checkpointing#checkpoint()} of {@link #checkpointing()}.
     *
     * @throws IllegalStateException if the store keeps nothing on disk ({@link Durability#NONE}), or inside an
     *                               exclusive section.
     * @throws io.agni.api.AgniException if the snapshot cannot be written; the previous one and the log stay.
     */
    public void checkpoint()
    {
        directory("checkpoint").checkpoint();
    }

    /**
     * The {@link Checkpointing#checkpointInBackground()} of {@link #checkpointing()}.
     *
     * @return whether a checkpoint was started.
     * @throws IllegalStateException if the store keeps nothing on disk ({@link Durability#NONE}).
     * @throws StoreClosedException  if the store is closed.
     */
    public boolean checkpointInBackground()
    {
        return directory("checkpoint").checkpointInBackground();
    }

    /**
     * The {@link Checkpointing#checkpointStatus()} of {@link #checkpointing()}.
     * @return the status; {@link CheckpointStatus#NONE} without a directory.
     */
    public CheckpointStatus checkpointStatus()
    {
        return checkpoints == null ? CheckpointStatus.NONE : checkpoints.checkpointStatus();
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
        directory("sync").sync();
    }

    /**
     * The {@link Evicting#evictionPolicy()} of {@link #evicting()}.
     * @return the policy.
     */
    public EvictionPolicy evictionPolicy()
    {
        return whole.evictionPolicy();
    }

    /**
     * The {@link Evicting#evictionPolicy(EvictionPolicy)} of {@link #evicting()}: what a write does when the budget
     * cannot hold it, for every write that starts after this returns.
     *
     * @param policy the policy.
     */
    public void evictionPolicy(final EvictionPolicy policy)
    {
        whole.evictionPolicy(policy);
    }

    /**
     * The {@link Evicting#maxMemory()} of {@link #evicting()}.
     * @return the budget in bytes.
     */
    public long maxMemory()
    {
        return whole.maxMemory();
    }

    /**
     * The {@link Evicting#maxMemory(long)} of {@link #evicting()} (docs/architecture.md, "A budget lowered at run
     * time"). The index tables do not shrink, and each shard keeps its head segment: a budget below those is never
     * reached.
     *
     * @param bytes the new budget in bytes: at least {@link OffHeapStoreBuilder#MIN_BUDGET_PER_SHARD} per shard, at
     *              most the JVM's direct-memory limit.
     * @throws IllegalArgumentException if {@code bytes} is out of that range; nothing changed.
     * @throws StoreClosedException     if the store is closed.
     */
    public void maxMemory(final long bytes)
    {
        whole.maxMemory(bytes);
    }

    /**
     * The {@link DeferredDurability#writesAwaitDurable()} of {@link #deferredDurability()}.
     * @return {@code true} for a store opened with {@link Durability#PARANOID}.
     */
    public boolean writesAwaitDurable()
    {
        return shards.gate.writesAwaitDurable();
    }

    /**
     * The {@link DeferredDurability#deferDurability(boolean)} of {@link #deferredDurability()}; changes nothing in
     * a store whose writes do not wait.
     *
     * @param defer whether the calling thread's writes return at once.
     */
    public void deferDurability(final boolean defer)
    {
        shards.gate.deferDurability(defer);
    }

    /**
     * The {@link DeferredDurability#awaitDurable()} of {@link #deferredDurability()}; returns at once in a store
     * whose writes do not wait.
     */
    public void awaitDurable()
    {
        shards.gate.awaitDurable();
    }

    private Checkpoints directory(final String what)
    {
        if (checkpoints == null)
        {
            throw new IllegalStateException(shards.name + " has no directory (Durability.NONE): nothing to " + what);
        }
        return checkpoints;
    }

    @Override
    public void close()
    {
        exclusive.refuseInside("close", shards.name);
        shutDown(true);
    }

    /**
     * Closes the store as a crash would leave its directory: no checkpoint, the log as it is (synced, so the test
     * that uses this sees the page cache's content). For tests of recovery within one JVM.
     */
    void closeWithoutCheckpoint()
    {
        shutDown(false);
    }

    /**
     * Closes the gate (waiting for operations and holds), stops the store's threads, closes the directory (with a
     * last checkpoint if asked) and frees the memory; throws what closing the directory threw, after freeing.
     */
    private void shutDown(final boolean lastCheckpoint)
    {
        if (!shards.gate.close())
        {
            return;
        }
        if (sweeper != null)
        {
            sweeper.stop();
        }
        final RuntimeException failure = checkpoints == null ? null : checkpoints.close(lastCheckpoint);
        shards.free();
        LOG.debug("{} closed", shards.name);
        if (failure != null)
        {
            throw failure;
        }
    }

    @Override
    public String toString()
    {
        return shards.name + "{shards=" + shards.all.length + ", budget=" + shards.budget.limit() + ", closed=" +
            shards.gate.isClosed() + "}";
    }

    /** @return what the store stands on, for agni-store's tests that reach a shard, the budget or the memory. */
    Shards shards()
    {
        return shards;
    }

    /**
     * A scan step that stops after {@code buckets} buckets however many keys it sees: for tests of the cursor.
     */
    ScanResult scanBuckets(final long cursor, final byte[] pattern, final int buckets)
    {
        return whole.scanBuckets(cursor, pattern, buckets);
    }

    /**
     * Checks every shard's structural invariants and that the budget holds; takes each shard's write lock in turn.
     *
     * @throws IllegalStateException naming the first broken invariant.
     */
    void verifyIntegrity()
    {
        whole.verifyIntegrity();
    }
}
