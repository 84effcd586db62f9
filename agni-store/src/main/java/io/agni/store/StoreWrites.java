package io.agni.store;

import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.SetCondition;
import io.agni.api.WriteBatch;
import io.agni.store.shard.ThreadContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.Objects;

/**
 * The writes of {@link OffHeapStore}, each under the write lock of its key's shard, or of every shard it touches
 * (docs/architecture.md, "Writes").
 */
abstract class StoreWrites extends StoreReads
{
    StoreWrites(final StoreConfig config)
    {
        super(config);
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
}
