package io.agni.bench.adapter;

import org.agrona.MutableDirectBuffer;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The on-heap alternative: a {@link ConcurrentHashMap} from {@link BytesKey} to {@code byte[]}. A write copies the
 * key and the value, as agni does (a caller's arrays may be reused); a read wraps the key and copies the value out.
 */
public final class ConcurrentHashMapAdapter implements StoreAdapter
{
    private final ConcurrentHashMap<BytesKey, byte[]> map;

    /**
     * Makes an empty map sized for the entries expected.
     *
     * @param expectedEntries how many entries it will hold.
     */
    public ConcurrentHashMapAdapter(final int expectedEntries)
    {
        map = new ConcurrentHashMap<>(expectedEntries);
    }

    @Override
    public int get(final KeySet keys, final int index, final MutableDirectBuffer dst)
    {
        return StoreAdapter.copyOut(map.get(new BytesKey(keys.array(index))), dst);
    }

    @Override
    public void put(final KeySet keys, final int index, final Value value)
    {
        map.put(new BytesKey(keys.array(index).clone()), value.array().clone());
    }

    @Override
    public OffHeapUsage offHeapUsage()
    {
        return new OffHeapUsage(0, "none: entries live on the Java heap");
    }

    @Override
    public void close()
    {
        map.clear();
    }
}
