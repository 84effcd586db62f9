package io.agni.bench.durability;

import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.nio.file.Path;

/**
 * RocksDB with its write-ahead log set to match a preset: {@code fast} disables it (data reaches the disk at a
 * memtable flush), {@code durable} writes it without sync, {@code paranoid} syncs it on every write.
 */
final class RocksDbTarget implements DurableTarget
{
    static
    {
        RocksDB.loadLibrary();
    }

    private final Options options;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    private final Preset preset;

    /**
     * Loads RocksDB's native library, which the first use extracts to a temporary file (about 50 MB written), so
     * that a measurement can start after it.
     *
     * @return RocksDB's version, e.g. {@code 10.10.1}.
     */
    static String load()
    {
        return RocksDB.rocksdbVersion().toString();
    }

    RocksDbTarget(final Path directory, final Preset preset) throws RocksDBException
    {
        this.preset = preset;
        this.options = new Options().setCreateIfMissing(true);
        this.writeOptions = new WriteOptions()
            .setSync(preset == Preset.PARANOID)
            .setDisableWAL(preset == Preset.FAST);
        this.db = RocksDB.open(options, directory.toString());
    }

    @Override
    public void put(final byte[] key, final byte[] value) throws RocksDBException
    {
        db.put(writeOptions, key, value);
    }

    @Override
    public void putBatch(final byte[][] keys, final byte[][] values, final int from, final int count)
        throws RocksDBException
    {
        try (WriteBatch batch = new WriteBatch())
        {
            for (int i = from; i < from + count; i++)
            {
                batch.put(keys[i], values[i]);
            }
            db.write(writeOptions, batch);
        }
    }

    @Override
    public byte[] get(final byte[] key) throws RocksDBException
    {
        return db.get(key);
    }

    @Override
    public void settle() throws RocksDBException
    {
        if (preset == Preset.FAST)
        {
            try (FlushOptions flush = new FlushOptions().setWaitForFlush(true))
            {
                db.flush(flush);
            }
        }
        else if (preset == Preset.DURABLE)
        {
            db.flushWal(true);
        }
    }

    @Override
    public void close()
    {
        db.close();
        writeOptions.close();
        options.close();
    }
}
