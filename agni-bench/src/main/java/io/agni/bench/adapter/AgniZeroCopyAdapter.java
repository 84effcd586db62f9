package io.agni.bench.adapter;

import io.agni.api.AgniStore;
import org.agrona.MutableDirectBuffer;

/**
 * An agni store on its zero-copy path: keys and values as {@code (DirectBuffer, offset, length)}, reads copied
 * into the caller's buffer. Allocates nothing per operation here, so what {@code -prof gc} shows is the store's.
 */
public final class AgniZeroCopyAdapter implements StoreAdapter
{
    private final AgniStore store;

    /**
     * Wraps a store; the adapter closes it.
     *
     * @param store the store.
     */
    public AgniZeroCopyAdapter(final AgniStore store)
    {
        this.store = store;
    }

    /**
     * The wrapped store, for reports that need its statistics.
     *
     * @return the store.
     */
    public AgniStore store()
    {
        return store;
    }

    @Override
    public int get(final KeySet keys, final int index, final MutableDirectBuffer dst)
    {
        return store.get(keys.buffer(), keys.offset(index), keys.keyLength(), dst, 0);
    }

    @Override
    public void put(final KeySet keys, final int index, final Value value)
    {
        store.set(keys.buffer(), keys.offset(index), keys.keyLength(), value.buffer(), 0, value.length());
    }

    @Override
    public OffHeapUsage offHeapUsage()
    {
        return AgniBytesAdapter.offHeapUsage(store);
    }

    @Override
    public void close()
    {
        store.close();
    }
}
