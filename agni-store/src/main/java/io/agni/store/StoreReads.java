package io.agni.store;

import io.agni.store.shard.ThreadContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.Objects;

/**
 * The reads of {@link OffHeapStore}: optimistic and lock-free unless they race a writer of the same shard
 * (docs/architecture.md, "Reads").
 */
abstract class StoreReads extends StoreCore
{
    StoreReads(final StoreConfig config)
    {
        super(config);
    }

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
}
