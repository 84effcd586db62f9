package io.agni.store;

import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.SetCondition;
import io.agni.api.Transactional;
import io.agni.api.WriteBatch;
import io.agni.store.shard.ThreadContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.Objects;

/**
 * The writes of string values, each under the write lock of its key's shard, or of every shard it touches
 * (docs/architecture.md, "Writes"). Each enters the store's {@link OperationGate} for its whole duration. As the
 * store's {@link Transactional} capability it also runs exclusive sections and reports what a batch found.
 */
final class StringWrites implements Transactional
{
    private final Shards all;
    private final OperationGate gate;
    private final ExclusiveSection exclusive;
    /**
     * Each thread's reusable batch for setAll; it holds no reference to the store.
     */
    private final ThreadLocal<MultiSet> multiSets = ThreadLocal.withInitial(MultiSet::new);
    /**
     * Each thread's reusable state for write(WriteBatch); it holds no reference to the store.
     */
    private final ThreadLocal<BatchWrite> batchWrites = ThreadLocal.withInitial(BatchWrite::new);

    StringWrites(final Shards all, final ExclusiveSection exclusive)
    {
        this.all = all;
        this.gate = all.gate;
        this.exclusive = exclusive;
    }

    @Override
    public void runExclusive(final Runnable body)
    {
        exclusive.run(Objects.requireNonNull(body, "body"));
    }

    boolean set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        all.checkEntry(keyLength, valueLength);
        Objects.requireNonNull(condition, "condition");
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, all.clock);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            return all.shard(hash).set(hash, key, keyOffset, keyLength, value, valueOffset, valueLength,
                condition, mode, expireAt, false, null, 0, c) == 1;
        }
        finally
        {
            gate.exit(c);
        }
    }

    byte[] getAndSet(
        final byte[] key, final byte[] value,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        all.checkEntry(key.length, value.length);
        Objects.requireNonNull(condition, "condition");
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, all.clock);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            final UnsafeBuffer v = c.valueWrapper;
            k.wrap(key);
            v.wrap(value);
            final long hash = all.hash(k, 0, key.length);
            final int r = all.shard(hash).set(hash, k, 0, key.length, v, 0, value.length,
                condition, mode, expireAt, true, null, 0, c);
            return r >= 0 ? c.array : null;
        }
        finally
        {
            c.array = null;
            gate.exit(c);
        }
    }

    int getAndSet(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis,
        final MutableDirectBuffer previous, final int previousOffset)
    {
        all.checkEntry(keyLength, valueLength);
        Objects.requireNonNull(condition, "condition");
        Shards.checkDestination(previous, previousOffset);
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, all.clock);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            return all.shard(hash).set(hash, key, keyOffset, keyLength, value, valueOffset, valueLength,
                condition, mode, expireAt, true, previous, previousOffset, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    boolean setAll(final List<byte[]> keys, final List<byte[]> values, final SetCondition condition)
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
            all.checkEntry(keys.get(i).length, values.get(i).length);
        }
        if (n == 0)
        {
            return true;
        }
        final ThreadContext c = gate.enter();
        try
        {
            final MultiSet batch = multiSets.get();
            batch.load(all, keys, values);
            return batch.run(all, condition, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    boolean setAll(
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
            all.checkEntry(lengths[2 * i], lengths[2 * i + 1]);
        }
        if (pairs == 0)
        {
            return true;
        }
        final ThreadContext c = gate.enter();
        try
        {
            final MultiSet batch = multiSets.get();
            batch.load(all, buffer, offsets, lengths, pairs);
            return batch.run(all, condition, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    @Override
    public void write(final WriteBatch batch, final byte[] found)
    {
        BatchWrite.check(all, Objects.requireNonNull(batch, "batch"), found);
        final long now = all.clock.time();
        final ThreadContext c = gate.enter();
        try
        {
            if (!batch.isEmpty())
            {
                batchWrites.get().run(all, batch, now, c, found);
            }
        }
        finally
        {
            gate.exit(c);
        }
    }

    boolean delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        all.checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            return all.shard(hash).delete(hash, key, keyOffset, keyLength, false, null, 0, c) == 1;
        }
        finally
        {
            gate.exit(c);
        }
    }

    byte[] getAndDelete(final byte[] key)
    {
        all.checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = all.hash(k, 0, key.length);
            final int r = all.shard(hash).delete(hash, k, 0, key.length, true, null, 0, c);
            return r >= 0 ? c.array : null;
        }
        finally
        {
            c.array = null;
            gate.exit(c);
        }
    }

    int getAndDelete(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        all.checkKey(keyLength);
        Shards.checkDestination(dst, dstOffset);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            return all.shard(hash).delete(hash, key, keyOffset, keyLength, true, dst, dstOffset, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    byte[] getAndExpire(final byte[] key, final ExpiryMode expiryMode, final long expiryMillis)
    {
        all.checkKey(key.length);
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, all.clock);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = all.hash(k, 0, key.length);
            final int r = all.shard(hash).getAndExpire(hash, k, 0, key.length, mode, expireAt, null, 0, c);
            return StringReads.countRead(c, r) ? c.array : null;
        }
        finally
        {
            c.array = null;
            gate.exit(c);
        }
    }

    int getAndExpire(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final ExpiryMode expiryMode, final long expiryMillis,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        all.checkKey(keyLength);
        Shards.checkDestination(dst, dstOffset);
        final ExpiryMode mode = Expiry.mode(expiryMode, expiryMillis);
        final long expireAt = Expiry.expireAt(expiryMode, expiryMillis, all.clock);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            final int r = all.shard(hash).getAndExpire(
                hash, key, keyOffset, keyLength, mode, expireAt, dst, dstOffset, c);
            StringReads.countRead(c, r);
            return r;
        }
        finally
        {
            gate.exit(c);
        }
    }

    long incrementBy(final DirectBuffer key, final int keyOffset, final int keyLength, final long delta)
    {
        all.checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            return all.shard(hash).incrementBy(hash, key, keyOffset, keyLength, delta, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    long append(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        all.checkEntry(keyLength, valueLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            return all.shard(hash).append(hash, key, keyOffset, keyLength, value, valueOffset, valueLength,
                all.maxValueLength, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    long setRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long offset,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        all.checkSetRange(keyLength, offset, valueLength);
        final ThreadContext c = gate.enter();
        try
        {
            return setRangeIn(key, keyOffset, keyLength, (int)offset, value, valueOffset, valueLength, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    RenameResult rename(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer newKey, final int newKeyOffset, final int newKeyLength, final boolean replace)
    {
        all.checkKey(keyLength);
        all.checkKey(newKeyLength);
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(newKey, "newKey");
        final ThreadContext c = gate.enter();
        try
        {
            return Rename.run(all, key, keyOffset, keyLength, newKey, newKeyOffset, newKeyLength, replace, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    byte[] incrementByFloat(final byte[] key, final double delta)
    {
        all.checkKey(key.length);
        final ThreadContext c = gate.enter();
        try
        {
            final UnsafeBuffer k = c.keyWrapper;
            k.wrap(key);
            final long hash = all.hash(k, 0, key.length);
            return all.shard(hash).incrementByFloat(hash, k, 0, key.length, delta, all.maxValueLength, null, 0, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    int incrementByFloat(
        final DirectBuffer key, final int keyOffset, final int keyLength, final double delta,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        all.checkKey(keyLength);
        Shards.checkDestination(dst, dstOffset);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            return all.shard(hash).incrementByFloat(
                hash, key, keyOffset, keyLength, delta, all.maxValueLength, dst, dstOffset, c).length;
        }
        finally
        {
            gate.exit(c);
        }
    }

    boolean expire(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final long expireAtMillis, final ExpireCondition condition)
    {
        all.checkKey(keyLength);
        Objects.requireNonNull(condition, "condition");
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            return all.shard(hash).expire(hash, key, keyOffset, keyLength, expireAtMillis, condition, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    boolean persist(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        all.checkKey(keyLength);
        final ThreadContext c = gate.enter();
        try
        {
            final long hash = all.hash(key, keyOffset, keyLength);
            return all.shard(hash).persist(hash, key, keyOffset, keyLength, c);
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * Writes {@code value} at {@code offset} of the key's value; an empty value writes nothing and returns the length.
     */
    private long setRangeIn(
        final DirectBuffer key, final int keyOffset, final int keyLength, final int offset,
        final DirectBuffer value, final int valueOffset, final int valueLength, final ThreadContext c)
    {
        final long hash = all.hash(key, keyOffset, keyLength);
        if (valueLength == 0)
        {
            // writes nothing; reads the length, which is not a read of the value, so no hit or miss (StoreStats)
            return Math.max(0, all.shard(hash).readRange(hash, key, keyOffset, keyLength, false, 0, 0, null, 0, c));
        }
        return all.shard(hash).setRange(hash, key, keyOffset, keyLength, offset, value, valueOffset, valueLength, c);
    }
}
