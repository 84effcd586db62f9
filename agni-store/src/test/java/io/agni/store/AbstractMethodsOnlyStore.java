package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.List;

/**
 * An {@link AgniStore} that implements only what the interface leaves abstract, by forwarding to another store,
 * plus {@link #currentTimeMillis()}, which a store with a clock of its own must give: every other call runs the
 * interface's default method. Run under the contract, it tests those defaults.
 */
final class AbstractMethodsOnlyStore implements AgniStore
{
    private final AgniStore delegate;

    AbstractMethodsOnlyStore(final AgniStore delegate)
    {
        this.delegate = delegate;
    }

    @Override
    public int get(
        final DirectBuffer key, final int keyOffset, final int keyLength, final MutableDirectBuffer dst,
        final int dstOffset)
    {
        return delegate.get(key, keyOffset, keyLength, dst, dstOffset);
    }

    @Override
    public boolean exists(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return delegate.exists(key, keyOffset, keyLength);
    }

    @Override
    public List<byte[]> getAll(final List<byte[]> keys)
    {
        return delegate.getAll(keys);
    }

    @Override
    public long ttlMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return delegate.ttlMillis(key, keyOffset, keyLength);
    }

    @Override
    public long expireTimeMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return delegate.expireTimeMillis(key, keyOffset, keyLength);
    }

    @Override
    public int valueLength(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return delegate.valueLength(key, keyOffset, keyLength);
    }

    @Override
    public int getRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long start, final long end,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        return delegate.getRange(key, keyOffset, keyLength, start, end, dst, dstOffset);
    }

    @Override
    public boolean set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        return delegate.set(key, keyOffset, keyLength, value, valueOffset, valueLength, condition, expiryMode,
            expiryMillis);
    }

    @Override
    public int getAndSet(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis,
        final MutableDirectBuffer previous, final int previousOffset)
    {
        return delegate.getAndSet(key, keyOffset, keyLength, value, valueOffset, valueLength, condition, expiryMode,
            expiryMillis, previous, previousOffset);
    }

    @Override
    public boolean setAll(final List<byte[]> keys, final List<byte[]> values, final SetCondition condition)
    {
        return delegate.setAll(keys, values, condition);
    }

    @Override
    public boolean delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return delegate.delete(key, keyOffset, keyLength);
    }

    @Override
    public int getAndDelete(
        final DirectBuffer key, final int keyOffset, final int keyLength, final MutableDirectBuffer dst,
        final int dstOffset)
    {
        return delegate.getAndDelete(key, keyOffset, keyLength, dst, dstOffset);
    }

    @Override
    public int getAndExpire(
        final DirectBuffer key, final int keyOffset, final int keyLength, final ExpiryMode expiryMode,
        final long expiryMillis, final MutableDirectBuffer dst, final int dstOffset)
    {
        return delegate.getAndExpire(key, keyOffset, keyLength, expiryMode, expiryMillis, dst, dstOffset);
    }

    @Override
    public long incrementBy(final DirectBuffer key, final int keyOffset, final int keyLength, final long delta)
    {
        return delegate.incrementBy(key, keyOffset, keyLength, delta);
    }

    @Override
    public long append(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return delegate.append(key, keyOffset, keyLength, value, valueOffset, valueLength);
    }

    @Override
    public long setRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long offset,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return delegate.setRange(key, keyOffset, keyLength, offset, value, valueOffset, valueLength);
    }

    @Override
    public RenameResult rename(final byte[] key, final byte[] newKey, final boolean replace)
    {
        return delegate.rename(key, newKey, replace);
    }

    @Override
    public int incrementByFloat(
        final DirectBuffer key, final int keyOffset, final int keyLength, final double delta,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        return delegate.incrementByFloat(key, keyOffset, keyLength, delta, dst, dstOffset);
    }

    @Override
    public boolean expire(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long expireAtMillis,
        final ExpireCondition condition)
    {
        return delegate.expire(key, keyOffset, keyLength, expireAtMillis, condition);
    }

    @Override
    public boolean persist(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return delegate.persist(key, keyOffset, keyLength);
    }

    @Override
    public ScanResult scan(final long cursor, final byte[] pattern, final int count)
    {
        return delegate.scan(cursor, pattern, count);
    }

    @Override
    public byte[] randomKey()
    {
        return delegate.randomKey();
    }

    @Override
    public long size()
    {
        return delegate.size();
    }

    @Override
    public void clear()
    {
        delegate.clear();
    }

    @Override
    public StoreStats stats()
    {
        return delegate.stats();
    }

    @Override
    public long currentTimeMillis()
    {
        return delegate.currentTimeMillis();
    }

    @Override
    public void close()
    {
        delegate.close();
    }
}
