package io.agni.bench.adapter;

import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ExternalMapQueryContext;
import net.openhft.chronicle.map.MapEntry;
import org.agrona.MutableDirectBuffer;

/**
 * Chronicle Map, in memory (no file), {@code byte[]} keys and values with Chronicle's built-in array marshalling,
 * sized for the expected entries and the average key and value sizes (variable-size entries, as agni's).
 *
 * <p>A read is Chronicle's plain {@code get}, which returns a new array. A write goes through a query context,
 * Chronicle's documented way to write without deserialising the previous value that {@code put} returns.
 *
 * <p>Needs the JVM flags in {@code io.agni.bench.JvmFlags#CHRONICLE} on Java 17 and later.
 */
public final class ChronicleMapAdapter implements StoreAdapter
{
    private final ChronicleMap<byte[], byte[]> map;

    /**
     * Creates an in-memory map.
     *
     * @param expectedEntries how many entries it will hold.
     * @param keyLength       the average key length.
     * @param valueLength     the average value length.
     */
    public ChronicleMapAdapter(final int expectedEntries, final int keyLength, final int valueLength)
    {
        map = ChronicleMap.of(byte[].class, byte[].class)
            .name("agni-bench")
            .entries(expectedEntries)
            .averageKeySize(keyLength)
            .averageValueSize(valueLength)
            .create();
    }

    @Override
    public int get(final KeySet keys, final int index, final MutableDirectBuffer dst)
    {
        return StoreAdapter.copyOut(map.get(keys.array(index)), dst);
    }

    @Override
    public void put(final KeySet keys, final int index, final Value value)
    {
        try (ExternalMapQueryContext<byte[], byte[], ?> context = map.queryContext(keys.array(index)))
        {
            context.updateLock().lock();
            final MapEntry<byte[], byte[]> entry = context.entry();
            if (entry != null)
            {
                entry.doReplaceValue(context.wrapValueAsData(value.array()));
            }
            else
            {
                context.absentEntry().doInsert(context.wrapValueAsData(value.array()));
            }
        }
    }

    @Override
    public OffHeapUsage offHeapUsage()
    {
        return new OffHeapUsage(map.offHeapMemoryUsed(), "ChronicleMap.offHeapMemoryUsed()");
    }

    @Override
    public void close()
    {
        map.close();
    }
}
