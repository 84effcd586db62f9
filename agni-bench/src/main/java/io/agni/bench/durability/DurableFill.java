package io.agni.bench.durability;

import io.agni.bench.Directories;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * TurboKV's durable fill: {@code --keys} sequential keys of 20 bytes with 400-byte values written once into a fresh
 * directory, one key per write or in atomic batches, by one or more threads; for every store and batch size it
 * reports the acknowledged rate (keys over the time until the last write returned) and the settled rate (until
 * everything acknowledged was on the device as well). Stores, batch sizes and rounds are interleaved (round 1 of
 * every store and batch size, then round 2, ...), so that a noisy machine slows them alike; the summary gives
 * medians and each store's ratio to the first. Warm-up rounds (same shape, not counted) come first, so the JIT has
 * compiled every store's write path before a counted round. {@link FillOnce} runs the same fill cold, one JVM per
 * run, as a user's ingest job starts.
 *
 * <h2>Usage</h2>
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks.jar io.agni.bench.durability.DurableFill \
 *     --targets=agni:durable,rocksdb:durable,mvstore:durable [--batches=1,100,1000] [--threads=1] \
 *     [--keys=200000] [--rounds=3] [--warmup-rounds=1] [--dir=target/durable-fill]
 * </pre>
 * The directory must be on the disk being measured (not a tmpfs); each run's files are deleted after it.
 */
public final class DurableFill
{
    private static final int KEY_LENGTH = 20;
    private static final int VALUE_LENGTH = 400;

    private DurableFill()
    {
    }

    /**
     * A store and its setting, as {@code name:preset}.
     *
     * @param name   {@code agni}, {@code rocksdb} or {@code mvstore}.
     * @param preset the durability setting.
     */
    record Target(String name, Preset preset)
    {
        static Target parse(final String text)
        {
            final String[] parts = text.split(":");
            if (parts.length != 2)
            {
                throw new IllegalArgumentException("a target is name:preset, e.g. rocksdb:durable: " + text);
            }
            return new Target(parts[0], Preset.valueOf(parts[1].toUpperCase(Locale.ROOT)));
        }

        DurableTarget open(final Path directory) throws Exception
        {
            return open(directory, AgniTarget.DEFAULT_MAX_MEMORY);
        }

        /**
         * Opens the store on a directory, a fresh one or one it wrote before.
         *
         * @param directory     the store's directory.
         * @param agniMaxMemory agni's memory budget in bytes; the other stores ignore it.
         * @return the open store.
         * @throws Exception when the store cannot be opened.
         */
        DurableTarget open(final Path directory, final long agniMaxMemory) throws Exception
        {
            return switch (name)
            {
                case "rocksdb" -> new RocksDbTarget(directory, preset);
                case "mvstore" -> new MvStoreTarget(directory, preset);
                case "agni" -> new AgniTarget(directory, preset, agniMaxMemory);
                default -> throw new IllegalArgumentException("unknown store " + name);
            };
        }

        @Override
        public String toString()
        {
            return name + ":" + preset.name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One run's figures.
     *
     * @param acknowledged keys per second until the last write returned.
     * @param settled      keys per second until everything was on the device.
     */
    record Result(double acknowledged, double settled)
    {
    }

    /**
     * Runs the fill and prints one line per run and a summary.
     *
     * @param args see the class comment.
     * @throws Exception when a store fails.
     */
    public static void main(final String[] args) throws Exception
    {
        List<Target> targets = List.of(Target.parse("rocksdb:durable"));
        int[] batches = {1, 100, 1000};
        int threads = 1;
        int keys = 200_000;
        int rounds = 3;
        int warmupRounds = 1;
        Path base = Path.of("target", "durable-fill");
        for (final String arg : args)
        {
            final int eq = arg.indexOf('=');
            final String name = eq < 0 ? arg : arg.substring(0, eq);
            final String text = eq < 0 ? "" : arg.substring(eq + 1);
            switch (name)
            {
                case "--targets" -> targets = Arrays.stream(text.split(",")).map(Target::parse).toList();
                case "--batches" -> batches = Arrays.stream(text.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--threads" -> threads = Integer.parseInt(text);
                case "--keys" -> keys = Integer.parseInt(text.replace("_", ""));
                case "--rounds" -> rounds = Integer.parseInt(text);
                case "--warmup-rounds" -> warmupRounds = Integer.parseInt(text);
                case "--dir" -> base = Path.of(text);
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        final byte[][] keyBytes = new byte[keys][];
        final byte[][] values = new byte[keys][];
        final Random random = new Random(1);
        for (int i = 0; i < keys; i++)
        {
            keyBytes[i] = String.format("key:%016d", i).getBytes(StandardCharsets.US_ASCII);
            values[i] = new byte[VALUE_LENGTH];
            random.nextBytes(values[i]);
        }
        if (keyBytes[0].length != KEY_LENGTH)
        {
            throw new IllegalStateException("keys must be " + KEY_LENGTH + " bytes");
        }
        Files.createDirectories(base);

        final Map<String, List<Result>> results = new LinkedHashMap<>();
        System.out.printf("# durable fill: %,d keys of %d B, values of %d B, %d thread(s), %d round(s), in %s%n",
            keys, KEY_LENGTH, VALUE_LENGTH, threads, rounds, base.toAbsolutePath());
        for (int round = 1 - warmupRounds; round <= rounds; round++)
        {
            for (final int batch : batches)
            {
                for (final Target target : targets)
                {
                    final Path directory = Files.createTempDirectory(base, target.name() + "-");
                    final Result result;
                    try
                    {
                        result = fill(target, directory, keyBytes, values, batch, threads);
                    }
                    finally
                    {
                        Directories.deleteRecursively(directory);
                    }
                    if (round >= 1)
                    {
                        results.computeIfAbsent(target + " batch=" + batch, k -> new ArrayList<>()).add(result);
                    }
                    System.out.printf(Locale.ROOT, round < 1 ? "warm-up " : "");
                    System.out.printf(Locale.ROOT, "round=%d target=%s batch=%d threads=%d acknowledged=%.0f settled=%.0f%n",
                        round, target, batch, threads, result.acknowledged(), result.settled());
                }
            }
        }
        System.out.println();
        System.out.printf("%-24s %6s %16s %16s %10s%n", "target", "batch", "ack keys/s", "settled keys/s",
            "ack ratio");
        for (final int batch : batches)
        {
            final double baseline = median(results.get(targets.get(0) + " batch=" + batch), true);
            for (final Target target : targets)
            {
                final List<Result> runs = results.get(target + " batch=" + batch);
                final double ack = median(runs, true);
                System.out.printf(Locale.ROOT, "%-24s %6d %,16.0f %,16.0f %10.2f%n", target, batch, ack,
                    median(runs, false), ack / baseline);
            }
        }
    }

    static Result fill(
        final Target target, final Path directory, final byte[][] keys, final byte[][] values, final int batch,
        final int threads) throws Exception
    {
        try (DurableTarget store = target.open(directory))
        {
            final int writers = store.concurrent() ? threads : 1;
            final long start = System.nanoTime();
            if (writers == 1)
            {
                write(store, keys, values, batch, 0, 1);
            }
            else
            {
                final ExecutorService pool = Executors.newFixedThreadPool(writers);
                try
                {
                    final List<Future<?>> done = new ArrayList<>();
                    for (int t = 0; t < writers; t++)
                    {
                        final int thread = t;
                        done.add(pool.submit(() ->
                        {
                            write(store, keys, values, batch, thread, writers);
                            return null;
                        }));
                    }
                    for (final Future<?> f : done)
                    {
                        f.get();
                    }
                }
                finally
                {
                    pool.shutdownNow();
                }
            }
            final long acknowledged = System.nanoTime();
            store.settle();
            final long settled = System.nanoTime();
            return new Result(keys.length * 1e9 / (acknowledged - start), keys.length * 1e9 / (settled - start));
        }
    }

    /**
     * Writes chunks {@code thread}, {@code thread + threads}, ... of {@code batch} keys each.
     */
    private static void write(
        final DurableTarget store, final byte[][] keys, final byte[][] values, final int batch, final int thread,
        final int threads) throws Exception
    {
        for (int from = thread * batch; from < keys.length; from += threads * batch)
        {
            final int count = Math.min(batch, keys.length - from);
            if (batch == 1)
            {
                store.put(keys[from], values[from]);
            }
            else
            {
                store.putBatch(keys, values, from, count);
            }
        }
    }

    private static double median(final List<Result> runs, final boolean acknowledged)
    {
        final double[] sorted = runs.stream().mapToDouble(r -> acknowledged ? r.acknowledged() : r.settled())
            .sorted().toArray();
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
