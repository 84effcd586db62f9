package io.agni.bench.durability;

import io.agni.api.Durability;
import io.agni.bench.Directories;
import io.agni.store.OffHeapStore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * How long a {@code DURABLE} store takes to open the 84 MB data set of {@link DurableFill} (200,000 keys of 20 B,
 * values of 400 B) after a crash, from the log alone, and after a clean close, from a snapshot alone. Every step runs
 * in a JVM of its own, as a restart would:
 * <ol>
 *     <li>a child fills a fresh directory one key at a time (automatic checkpoints off, so the log holds it all),
 *     syncs the log and halts without closing: a crash that loses nothing;</li>
 *     <li>a child opens the directory (replaying the log), checks every key, and closes (which checkpoints);</li>
 *     <li>a child opens it again (loading the snapshot) and checks every key.</li>
 * </ol>
 * The time reported is {@code build()}'s, measured inside the child that opens, so JVM start-up is not in it and
 * the JIT is as cold as in a restart. The files were just written, so they are in the page cache unless
 * {@code --drop-caches} asks the kernel to drop it first (needs root).
 *
 * <h2>Usage</h2>
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks.jar io.agni.bench.durability.RecoveryTime \
 *     [--keys=200000] [--rounds=5] [--dir=target/recovery-time] [--drop-caches]
 * </pre>
 */
public final class RecoveryTime
{
    private static final int VALUE_LENGTH = 400;
    private static final long MAX_MEMORY = 1L << 30;

    private RecoveryTime()
    {
    }

    /**
     * Runs the rounds, or one step of a round in a child JVM.
     *
     * @param args see the class comment; a child gets {@code fill|open DIR KEYS}.
     * @throws Exception when a store or a child fails.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length == 3 && (args[0].equals("fill") || args[0].equals("open")))
        {
            final Path directory = Path.of(args[1]);
            final int keys = Integer.parseInt(args[2]);
            if (args[0].equals("fill"))
            {
                fill(directory, keys);
            }
            else
            {
                open(directory, keys);
            }
            return;
        }
        int keys = 200_000;
        int rounds = 5;
        boolean dropCaches = false;
        Path base = Path.of("target", "recovery-time");
        for (final String arg : args)
        {
            final int eq = arg.indexOf('=');
            final String name = eq < 0 ? arg : arg.substring(0, eq);
            final String text = eq < 0 ? "" : arg.substring(eq + 1);
            switch (name)
            {
                case "--keys" -> keys = Integer.parseInt(text.replace("_", ""));
                case "--rounds" -> rounds = Integer.parseInt(text);
                case "--dir" -> base = Path.of(text);
                case "--drop-caches" -> dropCaches = true;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        Files.createDirectories(base);
        System.out.printf(Locale.ROOT, "# recovery: %,d keys of 20 B, values of %d B (%.1f MB), %d round(s), " +
            "page cache %s, in %s%n", keys, VALUE_LENGTH, keys * (20.0 + VALUE_LENGTH) / 1e6, rounds,
            dropCaches ? "dropped before each open" : "warm", base.toAbsolutePath());
        final List<Double> fromLog = new ArrayList<>();
        final List<Double> fromSnapshot = new ArrayList<>();
        for (int round = 1; round <= rounds; round++)
        {
            final Path directory = Files.createTempDirectory(base, "agni-");
            try
            {
                child("fill", directory, keys);
                final long logBytes = bytesOf(directory, "wal-");
                dropCaches(dropCaches);
                final double log = Double.parseDouble(child("open", directory, keys));
                final long snapshotBytes = bytesOf(directory, "snapshot-");
                dropCaches(dropCaches);
                final double snapshot = Double.parseDouble(child("open", directory, keys));
                fromLog.add(log);
                fromSnapshot.add(snapshot);
                System.out.printf(Locale.ROOT, "round=%d log_bytes=%d from_log_ms=%.1f snapshot_bytes=%d " +
                    "from_snapshot_ms=%.1f%n", round, logBytes, log, snapshotBytes, snapshot);
            }
            finally
            {
                Directories.deleteRecursively(directory);
            }
        }
        System.out.printf(Locale.ROOT, "median from_log_ms=%.1f from_snapshot_ms=%.1f%n", median(fromLog),
            median(fromSnapshot));
    }

    private static void fill(final Path directory, final int keys)
    {
        // Checkpoints off, so that the log alone holds the data set when the process halts.
        final OffHeapStore store = OffHeapStore.builder().maxMemory(MAX_MEMORY).directory(directory)
            .durability(Durability.DURABLE).checkpointLogBytes(Long.MAX_VALUE).build();
        final Random random = new Random(1);
        final byte[] value = new byte[VALUE_LENGTH];
        for (int i = 0; i < keys; i++)
        {
            random.nextBytes(value);
            store.set(key(i), value);
        }
        store.sync();
        // A crash: no close, so no checkpoint; every write is in the log and synced.
        Runtime.getRuntime().halt(0);
    }

    private static void open(final Path directory, final int keys)
    {
        final long start = System.nanoTime();
        final OffHeapStore store = OffHeapStore.builder().maxMemory(MAX_MEMORY).directory(directory)
            .durability(Durability.DURABLE).build();
        final long opened = System.nanoTime();
        try (store)
        {
            final Random random = new Random(1);
            final byte[] value = new byte[VALUE_LENGTH];
            for (int i = 0; i < keys; i++)
            {
                random.nextBytes(value);
                if (!Arrays.equals(value, store.get(key(i))))
                {
                    throw new IllegalStateException("key " + i + " is missing or wrong after the reopen");
                }
            }
            if (store.size() != keys)
            {
                throw new IllegalStateException("size " + store.size() + " after the reopen, expected " + keys);
            }
        }
        System.out.printf(Locale.ROOT, "%.3f%n", (opened - start) / 1e6);
    }

    private static byte[] key(final int i)
    {
        return String.format("key:%016d", i).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Runs one step in a child JVM with this JVM's flags and class path, and returns the last line it printed.
     */
    private static String child(final String step, final Path directory, final int keys) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--add-opens");
        command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        command.add("-Xmx1g");
        command.add("-XX:MaxDirectMemorySize=2g");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(RecoveryTime.class.getName());
        command.add(step);
        command.add(directory.toString());
        command.add(Integer.toString(keys));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0)
        {
            throw new IllegalStateException("the " + step + " step failed:\n" + output);
        }
        final String[] lines = output.strip().split("\n");
        return lines[lines.length - 1].strip();
    }

    private static long bytesOf(final Path directory, final String prefix) throws IOException
    {
        try (var files = Files.list(directory))
        {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).mapToLong(f ->
            {
                try
                {
                    return Files.size(f);
                }
                catch (final IOException ex)
                {
                    throw new java.io.UncheckedIOException(ex);
                }
            }).sum();
        }
    }

    private static void dropCaches(final boolean drop) throws Exception
    {
        if (drop)
        {
            final Process sync = new ProcessBuilder("sync").inheritIO().start();
            sync.waitFor();
            Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
        }
    }

    private static double median(final List<Double> values)
    {
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
