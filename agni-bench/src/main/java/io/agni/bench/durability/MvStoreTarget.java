package io.agni.bench.durability;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import java.nio.file.Path;

/**
 * H2's MVStore with one map of byte arrays: {@code fast} commits only when settled (and at close), {@code durable}
 * commits after every write or batch (the commit writes a chunk to the file), {@code paranoid} also syncs the file
 * after every commit.
 */
final class MvStoreTarget implements DurableTarget
{
    private final MVStore store;
    private final MVMap<byte[], byte[]> map;
    private final Preset preset;

    MvStoreTarget(final Path directory, final Preset preset)
    {
        this.preset = preset;
        this.store = new MVStore.Builder().fileName(directory.resolve("data.mv").toString()).autoCommitDisabled()
            .open();
        this.map = store.openMap("data");
    }

    @Override
    public synchronized void put(final byte[] key, final byte[] value)
    {
        map.put(key, value);
        commit();
    }

    @Override
    public synchronized void putBatch(final byte[][] keys, final byte[][] values, final int from, final int count)
    {
        for (int i = from; i < from + count; i++)
        {
            map.put(keys[i], values[i]);
        }
        commit();
    }

    @Override
    public byte[] get(final byte[] key)
    {
        return map.get(key);
    }

    @Override
    public synchronized void settle()
    {
        store.commit();
        store.sync();
    }

    @Override
    public boolean concurrent()
    {
        return false;
    }

    @Override
    public void close()
    {
        store.close();
    }

    private void commit()
    {
        if (preset != Preset.FAST)
        {
            store.commit();
            if (preset == Preset.PARANOID)
            {
                store.sync();
            }
        }
    }
}
