package io.agni.bench.adapter;

import io.agni.api.AgniStore;
import org.agrona.MutableDirectBuffer;

/**
 * An agni store on its {@code byte[]} path: {@code get} returns a new array, which is copied into the caller's
 * buffer as every adapter does, and {@code set} takes arrays.
 */
public final class AgniBytesAdapter implements StoreAdapter
{
    private final AgniStore store;

    /**
     * Wraps a store; the adapter closes it.
     *
     * @param store the store.
     */
    public AgniBytesAdapter(final AgniStore store)
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
        return StoreAdapter.copyOut(store.get(keys.array(index)), dst);
    }

    @Override
    public void put(final KeySet keys, final int index, final Value value)
    {
        store.set(keys.array(index), value.array());
    }

    @Override
    public OffHeapUsage offHeapUsage()
    {
        return offHeapUsage(store);
    }

    @Override
    public void close()
    {
        store.close();
    }

    static OffHeapUsage offHeapUsage(final AgniStore store)
    {
        return new OffHeapUsage(store.stats().offHeapBytes(), "OffHeapStore stats().offHeapBytes()");
    }
}
