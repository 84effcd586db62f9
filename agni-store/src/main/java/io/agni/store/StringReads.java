package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.store.hash.KeyHash;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * The reads of string values: optimistic and lock-free unless they race a writer of the same shard
 * (docs/architecture.md, "Reads"). Each enters the store's {@link OperationGate} for its whole duration.
 * <p>
 * The fields it reads on every operation are copied from {@link Shards} so that a GET reaches them from this object
 * without another dependent load.
 */
final class StringReads
{
    private static final byte[] EMPTY = new byte[0];

    private final OperationGate gate;
    private final Shard[] shards;
    private final int mask;
    private final long seed;
    private final int maxKeyLength;
    private final EpochClock clock;
    private final Shards all;
    /**
     * Each thread's reusable batch for getAll; it holds no reference to the store.
     */
    private final ThreadLocal<MultiGet> multiGets = ThreadLocal.withInitial(MultiGet::new);

    StringReads(final Shards all)
    {
        this.all = all;
        this.gate = all.gate;
        this.shards = all.all;
        this.mask = all.mask;
        this.seed = all.seed;
        this.maxKeyLength = all.maxKeyLength;
        this.clock = all.clock;
    }

    byte[] get(final byte[] key)
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

    int get(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checkKey(keyLength);
        Shards.checkDestination(dst, dstOffset);
        // once, for the hash and the probe's comparison both (Shard.get)
        key.boundsCheck(keyOffset, keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = KeyHash.hashInRange(key, keyOffset, keyLength, seed);
            final int r = shard(hash).get(hash, key, keyOffset, keyLength, dst, dstOffset, c);
            countRead(c, r);
            return r;
        }
        finally
        {
            gate.exit(c);
        }
    }

    List<byte[]> getAll(final List<byte[]> keys)
    {
        for (final byte[] key : keys)
        {
            checkKey(key.length);
        }
        final ThreadContext c = gate.enter();
        try
        {
            final MultiGet batch = multiGets.get();
            batch.load(all, keys);
            return batch.readArrays(all, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    int getAll(
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
            batch.load(all, keys, keyOffsets, keyLengths, count);
            return batch.readInto(all, dst, dstOffset, valueLengths, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    long ttlMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final long expireTime = expireTimeMillis(key, keyOffset, keyLength);
        return expireTime < 0 ? expireTime : Math.max(0, expireTime - clock.time());
    }

    long expireTimeMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = hash(key, keyOffset, keyLength);
            return shard(hash).expireTime(hash, key, keyOffset, keyLength, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    int valueLength(final DirectBuffer key, final int keyOffset, final int keyLength)
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

    byte[] getRange(final byte[] key, final long start, final long end)
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

    int getRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long start, final long end,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        checkKey(keyLength);
        Shards.checkDestination(dst, dstOffset);
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

    private int readRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final boolean copySlice,
        final long start, final long end, final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final long hash = hash(key, keyOffset, keyLength);
        final int r = shard(hash).readRange(hash, key, keyOffset, keyLength, copySlice, start, end, dst, dstOffset, c);
        countRead(c, r);
        return r;
    }

    private long hash(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return KeyHash.hash(key, keyOffset, keyLength, seed);
    }

    private Shard shard(final long hash)
    {
        return shards[(int)(hash >>> Shards.SHARD_HASH_SHIFT) & mask];
    }

    private void checkKey(final int keyLength)
    {
        if (keyLength > maxKeyLength || keyLength < 0)
        {
            all.checkKey(keyLength);
        }
    }

    /**
     * Counts a hit or a miss for {@link io.agni.api.StoreStats}.
     *
     * @return whether the read found the key.
     */
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

    /**
     * Whether a key is present: for {@link AgniStore#exists}.
     */
    boolean exists(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return expireTimeMillis(key, keyOffset, keyLength) != AgniStore.TTL_KEY_ABSENT;
    }
}
