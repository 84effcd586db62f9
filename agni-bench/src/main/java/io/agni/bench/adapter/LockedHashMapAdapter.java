package io.agni.bench.adapter;

import org.agrona.MutableDirectBuffer;

import java.util.HashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The simplest thread-safe alternative: one {@link HashMap} behind one lock, with the same copying as
 * {@link ConcurrentHashMapAdapter}. The lock is held for the copy out, as a store must to read a value whole.
 */
public final class LockedHashMapAdapter implements StoreAdapter
{
    private final ReentrantLock lock = new ReentrantLock();
    private final HashMap<BytesKey, byte[]> map;

    /**
     * Makes an empty map sized for the entries expected.
     *
     * @param expectedEntries how many entries it will hold.
     */
    public LockedHashMapAdapter(final int expectedEntries)
    {
        map = new HashMap<>((int)Math.min(Integer.MAX_VALUE, expectedEntries * 4L / 3 + 1));
    }

    @Override
    public int get(final KeySet keys, final int index, final MutableDirectBuffer dst)
    {
        final BytesKey key = new BytesKey(keys.array(index));
        lock.lock();
        try
        {
            final byte[] value = map.get(key);
            if (value == null)
            {
                return NOT_FOUND;
            }
            dst.putBytes(0, value);
            return value.length;
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void put(final KeySet keys, final int index, final Value value)
    {
        final BytesKey key = new BytesKey(keys.array(index).clone());
        final byte[] copy = value.array().clone();
        lock.lock();
        try
        {
            map.put(key, copy);
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public OffHeapUsage offHeapUsage()
    {
        return new OffHeapUsage(0, "none: entries live on the Java heap");
    }

    @Override
    public void close()
    {
        lock.lock();
        try
        {
            map.clear();
        }
        finally
        {
            lock.unlock();
        }
    }
}
