package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.EvictionPolicy;
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

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every operation of {@link OffHeapStore} stands on: the shards, the memory budget, the close gate, and how a key
 * finds its shard and is checked against the limits. The operations are layered on it by responsibility, each class
 * extending the one before: {@link StoreReads}, {@link StoreWrites}, and {@link OffHeapStore} (the whole store, the
 * directory and the life cycle), so that an operation reaches these fields without a dependent load.
 */
abstract class StoreCore implements AgniStore, Transactional
{
    static final AtomicInteger STORE_IDS = new AtomicInteger();
    /**
     * A key's shard comes from hash bits 48 to 63 (at most 2^16 shards), its index slot from the low bits.
     */
    static final int SHARD_HASH_SHIFT = 48;
    /**
     * randomKey's quick tries: shards sampled, and slots probed in each, before it walks every table.
     */
    static final int RANDOM_KEY_SAMPLES = 8;
    static final int RANDOM_KEY_PROBES = 64;
    static final byte[] EMPTY = new byte[0];

    final StoreConfig config;
    final Shard[] shards;
    final int shardMask;
    final long seed;
    final MemoryBudget budget;
    final OffHeapMemory memory;
    final EpochClock clock;
    final int maxKeyLength;
    final int maxValueLength;
    final OperationGate gate;
    final StoreScan scan;
    final ExclusiveSection exclusive;
    /**
     * Each thread's reusable batch for setAll; it holds no reference to this store.
     */
    final ThreadLocal<MultiSet> multiSets = ThreadLocal.withInitial(MultiSet::new);
    /**
     * Each thread's reusable batch for getAll; it holds no reference to this store.
     */
    final ThreadLocal<MultiGet> multiGets = ThreadLocal.withInitial(MultiGet::new);
    /**
     * Each thread's reusable state for write(WriteBatch); it holds no reference to this store.
     */
    final ThreadLocal<BatchWrite> batchWrites = ThreadLocal.withInitial(BatchWrite::new);
    final String name;
    /**
     * The policy every shard was last given; written under every shard's write lock. The shards get the configured
     * one only once the store is rebuilt from its directory ({@link OffHeapStore}'s constructor): replay writes
     * without a log, so an eviction then would be forgotten by the next recovery.
     */
    volatile EvictionPolicy evictionPolicy;

    StoreCore(final StoreConfig config)
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
        this.evictionPolicy = config.evictionPolicy();
        this.shardMask = config.shards() - 1;
        this.scan = new StoreScan(shards);
        this.exclusive = new ExclusiveSection(shards, gate);
        try
        {
            for (int i = 0; i < shards.length; i++)
            {
                shards[i] = new Shard(memory, clock, seed);
            }
            for (final Shard s : shards)
            {
                s.peers(shards);
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
    }

    // ------------------------------------------------------------------------------------------------------------
    // Internals
    // ------------------------------------------------------------------------------------------------------------

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

    int readRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final boolean copySlice,
        final long start, final long end, final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final long hash = hash(key, keyOffset, keyLength);
        final int r = shard(hash).readRange(hash, key, keyOffset, keyLength, copySlice, start, end, dst, dstOffset, c);
        countRead(c, r);
        return r;
    }

    long setRange(
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
    void checkSetRange(final int keyLength, final long offset, final int valueLength)
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

    long expireTime(final DirectBuffer key, final int keyOffset, final int keyLength, final ThreadContext c)
    {
        final long hash = hash(key, keyOffset, keyLength);
        return shard(hash).expireTime(hash, key, keyOffset, keyLength, c);
    }

    long ttlFrom(final long expireTime)
    {
        if (expireTime < 0)
        {
            return expireTime;
        }
        return Math.max(0, expireTime - clock.time());
    }

    static boolean countRead(final ThreadContext c, final int r)
    {
        if (r >= 0)
        {
            c.hits++;
            return true;
        }
        c.misses++;
        return false;
    }

    void checkKey(final int keyLength)
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

    static void checkAgronaAccess()
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
                OffHeapStore.REQUIRED_JVM_FLAG + " (Agrona 2.x reads jdk.internal.misc.Unsafe)", ex);
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
