package io.agni.bench.durability;

import java.util.Arrays;
import java.util.Locale;

/**
 * Reopens, in a JVM of its own, a directory that {@link FillOnce} filled and closed, as a restart would: prints the
 * time the open took and how many sampled keys it checked. The open is agni's {@code OffHeapStore.builder()...build()}
 * (loading the snapshot the close wrote, and the classes it needs) or RocksDB's {@code RocksDB.open} (replaying the
 * log that its close left, and loading its files' metadata; its native library is loaded before the clock starts).
 * Then {@value #SAMPLES} keys spread evenly over the fill, the first and the last among them, are read and compared
 * with what the fill wrote; a missing or different value fails the run.
 *
 * <h2>Usage</h2>
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -Xmx1g -XX:MaxDirectMemorySize=3g \
 *     -cp benchmarks.jar io.agni.bench.durability.ReopenOnce --target=agni:durable --keys=200000 --dir=DIR
 * </pre>
 * The target and key count must be the fill's (agni's memory budget follows from the key count).
 */
public final class ReopenOnce
{
    /**
     * The number of keys read after the open.
     */
    static final int SAMPLES = 1000;

    private ReopenOnce()
    {
    }

    /**
     * Reopens the directory and prints one line.
     *
     * @param args {@code --target=STORE:PRESET --keys=N --dir=DIR}.
     * @throws Exception when the store fails to open, or a sampled key is missing or wrong.
     */
    public static void main(final String[] args) throws Exception
    {
        final OneRunOptions options = OneRunOptions.parse(args, false);
        if (options.target().name().equals("rocksdb"))
        {
            RocksDbTarget.load();
        }
        final long start = System.nanoTime();
        final DurableTarget store = options.target().open(options.directory(), options.agniMaxMemory());
        final long opened = System.nanoTime();
        final int checked;
        try (store)
        {
            checked = check(store, options.keys());
        }
        System.out.printf(Locale.ROOT, "reopen target=%s keys=%d open_ms=%.1f checked=%d%n", options.target(),
            options.keys(), (opened - start) / 1e6, checked);
    }

    /**
     * Reads up to {@link #SAMPLES} keys spread over {@code keys}, the first and last included.
     *
     * @return how many keys were read, each found with the value the fill wrote.
     * @throws IllegalStateException when a key is missing or its value differs.
     */
    static int check(final DurableTarget store, final int keys) throws Exception
    {
        final int samples = Math.min(SAMPLES, keys);
        for (int s = 0; s < samples; s++)
        {
            final int index = samples == 1 ? 0 : (int)((long)s * (keys - 1) / (samples - 1));
            final byte[] value = store.get(FillData.key(index));
            if (value == null)
            {
                throw new IllegalStateException("key " + index + " is missing after the reopen");
            }
            if (!Arrays.equals(FillData.value(index), value))
            {
                throw new IllegalStateException("key " + index + " has a different value after the reopen");
            }
        }
        return samples;
    }
}
