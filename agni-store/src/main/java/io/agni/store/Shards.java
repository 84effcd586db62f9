package io.agni.store;

import io.agni.api.CapacityExceededException;
import io.agni.api.EvictionPolicy;
import io.agni.store.hash.KeyHash;
import io.agni.store.memory.MemoryBudget;
import io.agni.store.memory.OffHeapMemory;
import io.agni.store.shard.Limits;
import io.agni.store.shard.Shard;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;

import java.security.SecureRandom;
import java.util.Objects;

/**
 * What every operation of a store stands on: its shards, how a key finds its shard, the limits a key and a value are
 * checked against, the memory budget and the operation gate. {@link OffHeapStore} is the public facade over it; the
 * operations ({@link StringReads}, {@link StringWrites}, {@link MultiGet}, {@link MultiSet}, {@link BatchWrite},
 * {@link Rename}, {@link WholeStore}, {@link StoreScan}), recovery ({@link Recovery}), the checkpoints
 * ({@link Checkpoints}) and the expiry sweep take this, never the facade (docs/architecture.md, "Structure").
 *
 * <h2>Concurrency</h2>
 * Immutable once built except {@link #evictionPolicy}, which changes under every shard's write lock; the shards
 * guard themselves. Built by the store's constructor before the store is shared.
 */
final class Shards
{
    /**
     * A key's shard comes from hash bits 48 to 63 (at most 2^16 shards), its index slot from the low bits.
     */
    static final int SHARD_HASH_SHIFT = 48;

    final Shard[] all;
    final int mask;
    final long seed;
    final MemoryBudget budget;
    final OffHeapMemory memory;
    final EpochClock clock;
    final int maxKeyLength;
    final int maxValueLength;
    final OperationGate gate;
    final String name;
    /**
     * The policy every shard was last given; written under every shard's write lock. The shards get the configured
     * one only once the store is rebuilt from its directory: replay writes without a log, so an eviction then would
     * be forgotten by the next recovery.
     */
    volatile EvictionPolicy evictionPolicy;

    /**
     * Allocates every shard's first table and segment; on failure frees what it allocated and throws.
     *
     * @param config the store's configuration.
     * @param name   the store's name, for messages and threads.
     */
    Shards(final StoreConfig config, final String name)
    {
        this.name = name;
        this.budget = new MemoryBudget(config.maxMemoryBytes());
        this.clock = config.clock();
        this.maxKeyLength = config.maxKeyLength();
        this.maxValueLength = config.maxValueLength();
        this.seed = new SecureRandom().nextLong();
        this.gate = new OperationGate(name);
        this.memory = new OffHeapMemory(budget, gate.contexts());
        this.all = new Shard[config.shards()];
        this.mask = config.shards() - 1;
        this.evictionPolicy = config.evictionPolicy();
        try
        {
            for (int i = 0; i < all.length; i++)
            {
                all[i] = new Shard(memory, clock, seed);
            }
            for (final Shard s : all)
            {
                s.peers(all);
            }
        }
        catch (final RuntimeException ex)
        {
            free();
            throw ex;
        }
    }

    long hash(final DirectBuffer key, final int offset, final int length)
    {
        return KeyHash.hash(key, offset, length, seed);
    }

    int index(final long hash)
    {
        return (int)(hash >>> SHARD_HASH_SHIFT) & mask;
    }

    Shard shard(final long hash)
    {
        return all[index(hash)];
    }

    Shard at(final int index)
    {
        return all[index];
    }

    int count()
    {
        return all.length;
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

    /**
     * The checks of a caller's destination buffer that do not depend on the value read: present, and an offset that
     * is not negative (Agrona would catch that at the copy, but not with its bounds checks off, and a fast read
     * copies without them: {@code FastRead}). A destination too small for the value is found at the copy.
     *
     * @param dst       the destination.
     * @param dstOffset where the value goes.
     * @throws IndexOutOfBoundsException if the offset is negative.
     */
    static void checkDestination(final MutableDirectBuffer dst, final int dstOffset)
    {
        Objects.requireNonNull(dst, "dst");
        if (dstOffset < 0)
        {
            throw new IndexOutOfBoundsException("negative destination offset: " + dstOffset);
        }
    }

    /**
     * The refusal of a write the budget cannot hold.
     *
     * @param requested the bytes the write needed.
     * @return the exception to throw.
     */
    CapacityExceededException budgetExceeded(final long requested)
    {
        return new CapacityExceededException("memory budget exceeded: requested=" + requested + ", held=" +
            budget.reserved() + ", budget=" + budget.limit());
    }

    /**
     * Frees every shard's memory and the retired buffers; no operation may be in flight or follow.
     */
    void free()
    {
        for (final Shard s : all)
        {
            if (s != null)
            {
                s.free();
            }
        }
        memory.freeRetired();
    }
}
