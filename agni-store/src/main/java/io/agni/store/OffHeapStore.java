package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.CheckpointStatus;
import io.agni.api.Checkpointing;
import io.agni.api.DeferredDurability;
import io.agni.api.Durability;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreStats;
import io.agni.api.Transactional;
import io.agni.api.WriteBatch;
import io.agni.store.hash.KeyHash;
import io.agni.store.memory.MemoryBudget;
import io.agni.store.memory.OffHeapMemory;
import io.agni.store.shard.Limits;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

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
public final class OffHeapStore implements AgniStore, Checkpointing, DeferredDurability, Transactional
{
    /**
     * The JVM flag every JVM that loads agni (through Agrona 2.x) needs.
     */
    public static final String REQUIRED_JVM_FLAG = "--add-opens java.base/jdk.internal.misc=ALL-UNNAMED";

    private static final Logger LOG = LoggerFactory.getLogger(OffHeapStore.class);
    private static final AtomicInteger STORE_IDS = new AtomicInteger();
    /**
     * A key's shard comes from hash bits 48 to 63 (at most 2^16 shards), its index slot from the low bits.
     */
    private static final int SHARD_HASH_SHIFT = 48;
    /**
     * randomKey's quick tries: shards sampled, and slots probed in each, before it walks every table.
     */
    private static final int RANDOM_KEY_SAMPLES = 8;
    private static final int RANDOM_KEY_PROBES = 64;
    private static final byte[] EMPTY = new byte[0];

    private final StoreConfig config;
    private final Shard[] shards;
    private final int shardMask;
    private final long seed;
    private final MemoryBudget budget;
    private final OffHeapMemory memory;
    private final EpochClock clock;
    private final int maxKeyLength;
    private final int maxValueLength;
    private final OperationGate gate;
    private final StoreScan scan;
    private final ExclusiveSection exclusive;
    /**
     * Each thread's reusable batch for setAll; it holds no reference to this store.
     */
    private final ThreadLocal<MultiSet> multiSets = ThreadLocal.withInitial(MultiSet::new);
    /**
     * Each thread's reusable batch for getAll; it holds no reference to this store.
     */
    private final ThreadLocal<MultiGet> multiGets = ThreadLocal.withInitial(MultiGet::new);
    /**
     * Each thread's reusable state for write(WriteBatch); it holds no reference to this store.
     */
    private final ThreadLocal<BatchWrite> batchWrites = ThreadLocal.withInitial(BatchWrite::new);
    private final ExpirySweeper sweeper;
    private final String name;
    /**
     * The store's directory, snapshot and log; {@code null} for {@link Durability#NONE}.
     */
    private final StoreDurability durability;

    OffHeapStore(final StoreConfig config)
    {
        checkAgronaAccess();
        this.config = config;
        this.name = "agni store #" + STORE_IDS.incrementAndGet();
        this.budget = new MemoryBudget(config.maxMemoryBytes());
        this.clock = config.clock();
        this.maxKeyLength = config.maxKeyLength();
        this.maxValueLength = config.maxValueLength();
        this.seed = new SecureRandom().nextLong();
        this.gate = new OperationGate(name);
        this.memory = new OffHeapMemory(budget, gate.contexts());
        this.shards = new Shard[config.shards()];
        this.shardMask = config.shards() - 1;
        this.scan = new StoreScan(shards);
        this.exclusive = new ExclusiveSection(shards, gate);
        try
        {
            for (int i = 0; i < shards.length; i++)
            {
                shards[i] = new Shard(memory, clock, seed);
            }
        }
        catch (final RuntimeException ex)
        {
            for (final Shard s : shards)
            {
                if (s != null)
                {
                    s.free();
                }
            }
            throw ex;
        }
        this.durability = config.durability() == Durability.NONE ? null : openDirectory(config);
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
        final ThreadContext c = gate.enter();
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
            gate.exit(c);
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
    // Reads
    // ------------------------------------------------------------------------------------------------------------

    @Override
    public byte[] get(final byte[] key)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = hash(k, 0, key.length);
            final int r = shard(hash).get(hash, k, 0, key.length, null, 0, c);
            return countRead(c, r) ? c.array : null;
        }
        finally
        {
            c.array = null;
            gate.exit(c);
        }
    }

    @Override
    public int get(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checkKey(keyLength);
        Objects.requireNonNull(dst, "dst");
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            final int r = shard(hash).get(hash, key, keyOffset, keyLength, dst, dstOffset, c);
            countRead(c, r);
            return r;
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public boolean exists(final byte[] key)
    {
        return ttlMillis(key) != TTL_KEY_ABSENT;
    }

    @Override
    public boolean exists(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return expireTimeMillis(key, keyOffset, keyLength) != TTL_KEY_ABSENT;
    }

    @Override
    public List<byte[]> getAll(final List<byte[]> keys)
    {
        for (final byte[] key : keys)
        {
            checkKey(key.length);
        }
        final ThreadContext c = gate.enter();
        try
        {
            final MultiGet batch = multiGets.get();
            batch.load(this, keys);
            return batch.readArrays(this, c);
        }
        finally
        {
            gate.exit(c);
        }
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
        MultiGet.checkBatch(keys, keyOffsets, keyLengths, count, dst, valueLengths);
        for (int i = 0; i < count; i++)
        {
            checkKey(keyLengths[i]);
        }
        final ThreadContext c = gate.enter();
        try
        {
            final MultiGet batch = multiGets.get();
            batch.load(this, keys, keyOffsets, keyLengths, count);
            return batch.readInto(this, dst, dstOffset, valueLengths, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long ttlMillis(final byte[] key)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            return ttlFrom(expireTime(k, 0, key.length, c));
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long ttlMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            return ttlFrom(expireTime(key, keyOffset, keyLength, c));
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long expireTimeMillis(final byte[] key)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            return expireTime(k, 0, key.length, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long expireTimeMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            return expireTime(key, keyOffset, keyLength, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public int valueLength(final byte[] key)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            return readRange(k, 0, key.length, false, 0, 0, null, 0, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public int valueLength(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            return readRange(key, keyOffset, keyLength, false, 0, 0, null, 0, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public byte[] getRange(final byte[] key, final long start, final long end)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final int r = readRange(k, 0, key.length, true, start, end, null, 0, c);
            return r >= 0 ? c.array : EMPTY;
        }
        finally
        {
            c.array = null;
            gate.exit(c);
        }
    }

    @Override
    public int getRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long start, final long end,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checkKey(keyLength);
        Objects.requireNonNull(dst, "dst");
        final ThreadContext c = gate.enter();
        try
        {
            return Math.max(0, readRange(key, keyOffset, keyLength, true, start, end, dst, dstOffset, c));
        }
        finally
        {
            gate.exit(c);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Writes
    // ------------------------------------------------------------------------------------------------------------

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
        checkEntry(key.length, value.length);
        Objects.requireNonNull(condition, "condition");
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, clock);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            final UnsafeBuffer v = c.valueWrapper;
            k.wrap(key);
            v.wrap(value);
            final long hash = hash(k, 0, key.length);
            return shard(hash).set(hash, k, 0, key.length, v, 0, value.length,
                condition, mode, expireAt, false, null, 0, c) == 1;
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public boolean set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        checkEntry(keyLength, valueLength);
        Objects.requireNonNull(condition, "condition");
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, clock);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).set(hash, key, keyOffset, keyLength, value, valueOffset, valueLength,
                condition, mode, expireAt, false, null, 0, c) == 1;
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public byte[] getAndSet(
        final byte[] key, final byte[] value,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        checkEntry(key.length, value.length);
        Objects.requireNonNull(condition, "condition");
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, clock);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            final UnsafeBuffer v = c.valueWrapper;
            k.wrap(key);
            v.wrap(value);
            final long hash = hash(k, 0, key.length);
            final int r = shard(hash).set(hash, k, 0, key.length, v, 0, value.length,
                condition, mode, expireAt, true, null, 0, c);
            return r >= 0 ? c.array : null;
        }
        finally
        {
            c.array = null;
            gate.exit(c);
        }
    }

    @Override
    public int getAndSet(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis,
        final MutableDirectBuffer previous, final int previousOffset)
    {
        checkEntry(keyLength, valueLength);
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(previous, "previous");
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, clock);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).set(hash, key, keyOffset, keyLength, value, valueOffset, valueLength,
                condition, mode, expireAt, true, previous, previousOffset, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public boolean setAll(final List<byte[]> keys, final List<byte[]> values, final SetCondition condition)
    {
        Objects.requireNonNull(condition, "condition");
        if (keys.size() != values.size())
        {
            throw new IllegalArgumentException(
                "keys and values differ in size: keys=" + keys.size() + ", values=" + values.size());
        }
        final int n = keys.size();
        for (int i = 0; i < n; i++)
        {
            checkEntry(keys.get(i).length, values.get(i).length);
        }
        if (n == 0)
        {
            return true;
        }
        final ThreadContext c = gate.enter();
        try
        {
            final MultiSet batch = multiSets.get();
            batch.load(this, keys, values);
            return batch.run(this, condition, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public boolean setAll(
        final DirectBuffer buffer, final int[] offsets, final int[] lengths, final int pairs,
        final SetCondition condition)
    {
        Objects.requireNonNull(buffer, "buffer");
        Objects.requireNonNull(condition, "condition");
        if (pairs < 0 || offsets.length < 2L * pairs || lengths.length < 2L * pairs)
        {
            throw new IllegalArgumentException("pairs out of range: pairs=" + pairs + ", offsets=" + offsets.length +
                ", lengths=" + lengths.length);
        }
        for (int i = 0; i < pairs; i++)
        {
            checkEntry(lengths[2 * i], lengths[2 * i + 1]);
        }
        if (pairs == 0)
        {
            return true;
        }
        final ThreadContext c = gate.enter();
        try
        {
            final MultiSet batch = multiSets.get();
            batch.load(this, buffer, offsets, lengths, pairs);
            return batch.run(this, condition, c);
        }
        finally
        {
            gate.exit(c);
        }
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
        write(batch, null);
    }

    @Override
    public void write(final WriteBatch batch, final byte[] found)
    {
        BatchWrite.check(this, Objects.requireNonNull(batch, "batch"), found);
        final long now = clock.time();
        final ThreadContext c = gate.enter();
        try
        {
            if (!batch.isEmpty())
            {
                batchWrites.get().run(this, batch, now, c, found);
            }
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public void runExclusive(final Runnable body)
    {
        exclusive.run(Objects.requireNonNull(body, "body"));
    }

    @Override
    public boolean delete(final byte[] key)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = hash(k, 0, key.length);
            return shard(hash).delete(hash, k, 0, key.length, false, null, 0, c) == 1;
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public boolean delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).delete(hash, key, keyOffset, keyLength, false, null, 0, c) == 1;
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public byte[] getAndDelete(final byte[] key)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = hash(k, 0, key.length);
            final int r = shard(hash).delete(hash, k, 0, key.length, true, null, 0, c);
            return r >= 0 ? c.array : null;
        }
        finally
        {
            c.array = null;
            gate.exit(c);
        }
    }

    @Override
    public int getAndDelete(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checkKey(keyLength);
        Objects.requireNonNull(dst, "dst");
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).delete(hash, key, keyOffset, keyLength, true, dst, dstOffset, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public byte[] getAndExpire(final byte[] key, final ExpiryMode expiryMode, final long expiryMillis)
    {
        checkKey(key.length);
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, clock);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = hash(k, 0, key.length);
            final int r = shard(hash).getAndExpire(hash, k, 0, key.length, mode, expireAt, null, 0, c);
            return countRead(c, r) ? c.array : null;
        }
        finally
        {
            c.array = null;
            gate.exit(c);
        }
    }

    @Override
    public int getAndExpire(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final ExpiryMode expiryMode, final long expiryMillis,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checkKey(keyLength);
        Objects.requireNonNull(dst, "dst");
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, clock);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            final int r = shard(hash).getAndExpire(
                hash, key, keyOffset, keyLength, mode, expireAt, dst, dstOffset, c);
            countRead(c, r);
            return r;
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long incrementBy(final byte[] key, final long delta)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = hash(k, 0, key.length);
            return shard(hash).incrementBy(hash, k, 0, key.length, delta, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long incrementBy(final DirectBuffer key, final int keyOffset, final int keyLength, final long delta)
    {
        checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).incrementBy(hash, key, keyOffset, keyLength, delta, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long append(final byte[] key, final byte[] value)
    {
        checkEntry(key.length, value.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            final UnsafeBuffer v = c.valueWrapper;
            k.wrap(key);
            v.wrap(value);
            final long hash = hash(k, 0, key.length);
            return shard(hash).append(hash, k, 0, key.length, v, 0, value.length, maxValueLength, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long append(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        checkEntry(keyLength, valueLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).append(hash, key, keyOffset, keyLength, value, valueOffset, valueLength,
                maxValueLength, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long setRange(final byte[] key, final long offset, final byte[] value)
    {
        checkSetRange(key.length, offset, value.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            final UnsafeBuffer v = c.valueWrapper;
            k.wrap(key);
            v.wrap(value);
            return setRange(k, 0, key.length, (int)offset, v, 0, value.length, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public long setRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long offset,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        checkSetRange(keyLength, offset, valueLength);
        final ThreadContext c = gate.enter();
        try
        {
            return setRange(key, keyOffset, keyLength, (int)offset, value, valueOffset, valueLength, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public RenameResult rename(final byte[] key, final byte[] newKey, final boolean replace)
    {
        checkKey(key.length);
        checkKey(newKey.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer from = c.keyWrapper;
            final UnsafeBuffer to = c.valueWrapper;
            from.wrap(key);
            to.wrap(newKey);
            return Rename.run(this, from, 0, key.length, to, 0, newKey.length, replace, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public RenameResult rename(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer newKey, final int newKeyOffset, final int newKeyLength, final boolean replace)
    {
        checkKey(keyLength);
        checkKey(newKeyLength);
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(newKey, "newKey");
        final ThreadContext c = gate.enter();
        try
        {
            return Rename.run(this, key, keyOffset, keyLength, newKey, newKeyOffset, newKeyLength, replace, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public byte[] incrementByFloat(final byte[] key, final double delta)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = hash(k, 0, key.length);
            return shard(hash).incrementByFloat(hash, k, 0, key.length, delta, maxValueLength, null, 0, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public int incrementByFloat(
        final DirectBuffer key, final int keyOffset, final int keyLength, final double delta,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checkKey(keyLength);
        Objects.requireNonNull(dst, "dst");
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).incrementByFloat(
                hash, key, keyOffset, keyLength, delta, maxValueLength, dst, dstOffset, c).length;
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public boolean expire(final byte[] key, final long expireAtMillis, final ExpireCondition condition)
    {
        checkKey(key.length);
        Objects.requireNonNull(condition, "condition");
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = hash(k, 0, key.length);
            return shard(hash).expire(hash, k, 0, key.length, expireAtMillis, condition, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public boolean expire(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final long expireAtMillis, final ExpireCondition condition)
    {
        checkKey(keyLength);
        Objects.requireNonNull(condition, "condition");
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).expire(hash, key, keyOffset, keyLength, expireAtMillis, condition, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public boolean persist(final byte[] key)
    {
        checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = hash(k, 0, key.length);
            return shard(hash).persist(hash, k, 0, key.length, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public boolean persist(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).persist(hash, key, keyOffset, keyLength, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Whole store
    // ------------------------------------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     * <p>
     * The cursor holds the shard index in its high 32 bits and a position among that shard's home buckets, in
     * reverse-binary order, in its low bits (docs/architecture.md, "Scan"). One step visits up to {@code count}
     * buckets, going on into the next shards when one ends first, so a count above the whole index ends the scan
     * in one call. A cursor with a bit this store has never returned (a shard it does not have, a bucket bit no
     * cursor of that shard had) is refused, without a stack trace; every cursor it returned is taken back.
     */
    @Override
    public ScanResult scan(final long cursor, final byte[] pattern, final int count)
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("count must be at least 1: count=" + count);
        }
        final ThreadContext c = gate.enter();
        try
        {
            return scan.step(cursor, pattern, count, c);
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
            long rejected = 0;
            long live = 0;
            for (final Shard s : shards)
            {
                entries += s.count();
                expiring += s.expiringCount();
                expired += s.expiredCount();
                rejected += s.rejectedCount();
                live += s.liveBytes();
            }
            return StoreStats.builder()
                .entries(entries)
                .entriesWithExpiry(expiring)
                .hits(gate.hits())
                .misses(gate.misses())
                .expired(expired)
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

    /**
     * The longest key accepted.
     *
     * @return bytes.
     */
    public int maxKeyLength()
    {
        return maxKeyLength;
    }

    /**
     * The longest value accepted.
     *
     * @return bytes.
     */
    public int maxValueLength()
    {
        return maxValueLength;
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

    // ------------------------------------------------------------------------------------------------------------
    // Internals
    // ------------------------------------------------------------------------------------------------------------

    long hash(final DirectBuffer key, final int offset, final int length)
    {
        return KeyHash.hash(key, offset, length, seed);
    }

    int shardIndex(final long hash)
    {
        return (int)(hash >>> SHARD_HASH_SHIFT) & shardMask;
    }

    Shard shard(final long hash)
    {
        return shards[shardIndex(hash)];
    }

    Shard shardAt(final int index)
    {
        return shards[index];
    }

    static int[] distinctSorted(final int[] values)
    {
        final int[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int i = 0; i < sorted.length; i++)
        {
            if (i == 0 || sorted[i] != sorted[i - 1])
            {
                sorted[n++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, n);
    }

    private int readRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final boolean copySlice,
        final long start, final long end, final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final long hash = hash(key, keyOffset, keyLength);
        final int r = shard(hash).readRange(hash, key, keyOffset, keyLength, copySlice, start, end, dst, dstOffset, c);
        countRead(c, r);
        return r;
    }

    private long setRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final int offset,
        final DirectBuffer value, final int valueOffset, final int valueLength, final ThreadContext c)
    {
        final long hash = hash(key, keyOffset, keyLength);
        if (valueLength == 0)
        {
            // writes nothing; reads the length, which is not a read of the value, so no hit or miss (StoreStats)
            return Math.max(0, shard(hash).readRange(hash, key, keyOffset, keyLength, false, 0, 0, null, 0, c));
        }
        return shard(hash).setRange(hash, key, keyOffset, keyLength, offset, value, valueOffset, valueLength, c);
    }

    /**
     * The checks of setRange, before anything is read or reserved. An empty value writes nothing, so, as in Redis,
     * its offset is not held against the value limit.
     */
    private void checkSetRange(final int keyLength, final long offset, final int valueLength)
    {
        checkKey(keyLength);
        if (offset < 0)
        {
            throw new IllegalArgumentException("negative offset: " + offset);
        }
        if (valueLength < 0)
        {
            throw new IllegalArgumentException("negative value length: " + valueLength);
        }
        if (valueLength > 0)
        {
            Limits.checkEntry(keyLength,
                offset > Long.MAX_VALUE - valueLength ? Long.MAX_VALUE : offset + valueLength, maxValueLength);
        }
    }

    private long expireTime(final DirectBuffer key, final int keyOffset, final int keyLength, final ThreadContext c)
    {
        final long hash = hash(key, keyOffset, keyLength);
        return shard(hash).expireTime(hash, key, keyOffset, keyLength, c);
    }

    private long ttlFrom(final long expireTime)
    {
        if (expireTime < 0)
        {
            return expireTime;
        }
        return Math.max(0, expireTime - clock.time());
    }

    private static boolean countRead(final ThreadContext c, final int r)
    {
        if (r >= 0)
        {
            c.hits++;
            return true;
        }
        c.misses++;
        return false;
    }

    private void checkKey(final int keyLength)
    {
        if (keyLength > maxKeyLength)
        {
            throw Limits.keyTooLarge(keyLength, maxKeyLength);
        }
        if (keyLength < 0)
        {
            throw new IllegalArgumentException("negative key length: " + keyLength);
        }
    }

    void checkEntry(final int keyLength, final int valueLength)
    {
        checkKey(keyLength);
        Limits.checkEntry(keyLength, valueLength, maxValueLength);
    }

    private static void checkAgronaAccess()
    {
        try
        {
            final UnsafeBuffer probe = new UnsafeBuffer(new byte[Long.BYTES]);
            probe.putLong(0, 1L);
            if (probe.getLong(0) != 1L)
            {
                throw new IllegalStateException("Agrona buffer self-check failed");
            }
        }
        catch (final LinkageError | RuntimeException ex)
        {
            if (ex instanceof IllegalStateException && ex.getMessage() != null &&
                ex.getMessage().startsWith("Agrona buffer"))
            {
                throw (IllegalStateException)ex;
            }
            throw new IllegalStateException("agni cannot use Agrona's buffers: start the JVM with " +
                REQUIRED_JVM_FLAG + " (Agrona 2.x reads jdk.internal.misc.Unsafe)", ex);
        }
    }

    static CapacityExceededException budgetExceeded(final long requested, final MemoryBudget budget)
    {
        return new CapacityExceededException("memory budget exceeded: requested=" + requested + ", held=" +
            budget.reserved() + ", budget=" + budget.limit());
    }

    MemoryBudget budget()
    {
        return budget;
    }
}
