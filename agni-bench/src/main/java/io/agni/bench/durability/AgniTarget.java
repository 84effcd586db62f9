package io.agni.bench.durability;

import io.agni.api.Durability;
import io.agni.store.OffHeapStore;
import io.agni.store.OffHeapStoreBuilder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * agni with the preset of the same name; a batch is one {@code setAll}, one record in the log.
 */
final class AgniTarget implements DurableTarget
{
    /**
     * The memory budget {@link DurableFill} gives the store: enough for its 200,000-key sets.
     */
    static final long DEFAULT_MAX_MEMORY = 1L << 30;

    private final OffHeapStore store;
    private final ThreadLocal<List<byte[]>> keyLists = ThreadLocal.withInitial(ArrayList::new);
    private final ThreadLocal<List<byte[]>> valueLists = ThreadLocal.withInitial(ArrayList::new);

    AgniTarget(final Path directory, final Preset preset, final long maxMemory)
    {
        this.store = OffHeapStore.builder().shards(OffHeapStoreBuilder.defaultShards()).maxMemory(maxMemory)
            .directory(directory).durability(Durability.valueOf(preset.name().toUpperCase(Locale.ROOT))).build();
    }

    @Override
    public void put(final byte[] key, final byte[] value)
    {
        store.set(key, value);
    }

    @Override
    public void putBatch(final byte[][] keys, final byte[][] values, final int from, final int count)
    {
        final List<byte[]> k = keyLists.get();
        final List<byte[]> v = valueLists.get();
        k.clear();
        v.clear();
        for (int i = from; i < from + count; i++)
        {
            k.add(keys[i]);
            v.add(values[i]);
        }
        store.setAll(k, v, io.agni.api.SetCondition.ALWAYS);
    }

    @Override
    public byte[] get(final byte[] key)
    {
        return store.get(key);
    }

    @Override
    public void settle()
    {
        // DURABLE: one sync of the log; PARANOID: nothing left to sync; FAST: a snapshot.
        store.sync();
    }

    /**
     * Closes the store, which writes a last snapshot, syncs it and the directory: with that on the device, nothing
     * in the log is needed any more, so the log's sync that {@link #settle()} would add first is left out.
     */
    @Override
    public void settleAndClose()
    {
        store.close();
    }

    @Override
    public void close()
    {
        store.close();
    }
}
