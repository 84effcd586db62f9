package io.agni.bench.durability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * One run of TurboKV's fill in a JVM of its own: opens one store on a fresh directory, writes {@code --keys} keys
 * ({@link FillData}) one per write or in atomic batches of {@code --batch}, then makes them safe and closes the store,
 * and prints one line of {@code name=value} fields. No warm-up: the JIT is as cold as in a user's ingest job that has
 * just started. {@code agni-bench/scripts/turbokv-fill.sh} runs it interleaved over stores and settings;
 * docs/benchmarks.md, "TurboKV's fill, one JVM per run", says what each field means.
 * <ul>
 *     <li>{@code acknowledged}: keys per second until the last write returned;</li>
 *     <li>{@code settled}: keys per second until that and {@link DurableTarget#settleAndClose()} returned (agni:
 *     {@code close()}, which writes and syncs a last snapshot; RocksDB: {@code flushWal(true)} or, without the log,
 *     a waited-for memtable flush, then {@code close()});</li>
 *     <li>{@code write_bytes}, {@code cancelled_write_bytes}: the growth of {@code /proc/self/io}'s counters from
 *     just before the store was opened to just after it was closed ({@link ProcessIo}), and both divided by the user
 *     data, {@code keys * (20 + 400)} bytes;</li>
 *     <li>{@code device_bytes} (with {@code --device=NAME}): what the block device wrote over the same span, each
 *     end after a {@code sync} of the whole machine ({@link DeviceWrites}), and divided by the user data; -1
 *     without.</li>
 * </ul>
 * The directory is left in place for {@link ReopenOnce}; the caller deletes it.
 *
 * <h2>Usage</h2>
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -Xmx3g -XX:MaxDirectMemorySize=3g \
 *     -cp benchmarks.jar io.agni.bench.durability.FillOnce --target=agni:durable --keys=200000 --batch=1 --dir=DIR \
 *     [--device=vda]
 * </pre>
 * The directory must not exist or be empty, and must be on the disk being measured (not a tmpfs).
 */
public final class FillOnce
{
    private FillOnce()
    {
    }

    /**
     * Runs one fill and prints its line.
     *
     * @param args {@code --target=STORE:PRESET --keys=N --batch=N --dir=DIR [--device=NAME]}.
     * @throws Exception when the store fails or the directory is not empty.
     */
    public static void main(final String[] args) throws Exception
    {
        final OneRunOptions options = OneRunOptions.parse(args, true);
        final String version = options.target().name().equals("rocksdb") ? RocksDbTarget.load() : "-";
        Files.createDirectories(options.directory());
        try (Stream<Path> files = Files.list(options.directory()))
        {
            if (files.findAny().isPresent())
            {
                throw new IllegalArgumentException("the directory must be empty: " + options.directory());
            }
        }

        final int keys = options.keys();
        final byte[][] keyBytes = new byte[keys][];
        final byte[][] values = new byte[keys][];
        for (int i = 0; i < keys; i++)
        {
            keyBytes[i] = FillData.key(i);
            values[i] = FillData.value(i);
        }
        // The generation's garbage is the harness's, not the store's: collect it before the clock starts.
        System.gc();

        final long deviceBefore = DeviceWrites.syncAndRead(options.device());
        final ProcessIo before = ProcessIo.read();
        final long opening = System.nanoTime();
        final DurableTarget store = options.target().open(options.directory(), options.agniMaxMemory());
        final long start = System.nanoTime();
        final long acknowledged;
        try
        {
            write(store, keyBytes, values, options.batch());
            acknowledged = System.nanoTime();
        }
        catch (final Exception ex)
        {
            store.close();
            throw ex;
        }
        store.settleAndClose();
        final long settled = System.nanoTime();
        final ProcessIo io = ProcessIo.read().since(before);
        final long deviceAfter = DeviceWrites.syncAndRead(options.device());
        final long deviceBytes = deviceBefore < 0 || deviceAfter < 0 ? -1 : deviceAfter - deviceBefore;

        final long userBytes = FillData.userBytes(keys);
        System.out.printf(Locale.ROOT, "fill target=%s keys=%d batch=%d open_ms=%.1f ack_ms=%.1f settled_ms=%.1f " +
            "acknowledged=%.0f settled=%.0f user_bytes=%d write_bytes=%d cancelled_write_bytes=%d " +
            "write_per_user=%.3f net_write_per_user=%.3f device_bytes=%d device_per_user=%.3f dir_bytes=%d " +
            "version=%s%n",
            options.target(), keys, options.batch(), (start - opening) / 1e6, (acknowledged - start) / 1e6,
            (settled - start) / 1e6, keys * 1e9 / (acknowledged - start), keys * 1e9 / (settled - start), userBytes,
            io.writeBytes(), io.cancelledWriteBytes(), perUser(io.writeBytes(), userBytes),
            perUser(io.writeBytes() < 0 || io.cancelledWriteBytes() < 0 ? -1 :
                io.writeBytes() - io.cancelledWriteBytes(), userBytes),
            deviceBytes, perUser(deviceBytes, userBytes), bytesOf(options.directory()), version);
    }

    private static void write(final DurableTarget store, final byte[][] keys, final byte[][] values, final int batch)
        throws Exception
    {
        if (batch == 1)
        {
            for (int i = 0; i < keys.length; i++)
            {
                store.put(keys[i], values[i]);
            }
        }
        else
        {
            for (int from = 0; from < keys.length; from += batch)
            {
                store.putBatch(keys, values, from, Math.min(batch, keys.length - from));
            }
        }
    }

    private static double perUser(final long bytes, final long userBytes)
    {
        return bytes < 0 ? -1 : (double)bytes / userBytes;
    }

    private static long bytesOf(final Path directory) throws IOException
    {
        try (Stream<Path> files = Files.walk(directory))
        {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }
}
