package io.agni.bench.adapter;

import org.agrona.MutableDirectBuffer;
import org.caffinitas.ohc.Eviction;
import org.caffinitas.ohc.OHCache;
import org.caffinitas.ohc.OHCacheBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * OHC (off-heap cache), linked implementation, {@code byte[]} keys and values through
 * {@link ByteArraySerializer}, eviction off so that it holds every entry like the other stores, default segments
 * and hash table sizing. A read returns a new array; a write serialises key and value off-heap.
 *
 * <p>Needs the JVM flags in {@code io.agni.bench.JvmFlags#OHC} on Java 17 and later.
 */
public final class OhcAdapter implements StoreAdapter
{
    /**
     * OHC's hash tables are arrays of 8-byte entry addresses.
     */
    private static final int BUCKET_BYTES = Long.BYTES;

    private final OHCache<byte[], byte[]> cache;

    /**
     * Creates a cache.
     *
     * @param capacityBytes the most off-heap bytes its entries may take.
     */
    public OhcAdapter(final long capacityBytes)
    {
        cache = OHCacheBuilder.<byte[], byte[]>newBuilder()
            .keySerializer(ByteArraySerializer.INSTANCE)
            .valueSerializer(ByteArraySerializer.INSTANCE)
            .capacity(capacityBytes)
            .eviction(Eviction.NONE)
            .timeouts(false)
            .build();
    }

    @Override
    public int get(final KeySet keys, final int index, final MutableDirectBuffer dst)
    {
        return StoreAdapter.copyOut(cache.get(keys.array(index)), dst);
    }

    @Override
    public void put(final KeySet keys, final int index, final Value value)
    {
        if (!cache.put(keys.array(index), value.array()))
        {
            throw new IllegalStateException("OHC refused a write: capacity=" + cache.capacity() +
                ", memUsed=" + cache.memUsed() + ", size=" + cache.size());
        }
    }

    @Override
    public OffHeapUsage offHeapUsage()
    {
        long buckets = 0;
        for (final int tableSize : cache.hashTableSizes())
        {
            buckets += tableSize;
        }
        return new OffHeapUsage(
            cache.memUsed() + buckets * BUCKET_BYTES, "OHC memUsed() + hashTableSizes() x 8 B per bucket");
    }

    @Override
    public void close()
    {
        try
        {
            cache.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
