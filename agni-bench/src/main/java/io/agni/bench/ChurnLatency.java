package io.agni.bench;

import io.agni.api.StoreStats;
import io.agni.bench.adapter.KeySet;
import io.agni.bench.adapter.StoreKind;
import io.agni.store.OffHeapStore;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * SET latency under churn, every SET timed: the workload of {@link ChurnLatencyBenchmark} (random keys, values of
 * uniformly random length in [10, 1000] bytes, so that compaction runs all the time) on one thread, each SET timed
 * with {@link System#nanoTime()} into an HdrHistogram (3 significant digits). JMH's sample mode times a sample of
 * the operations; this times all of them, so a tail as thin as p99.99 has thousands of values behind it. It prints
 * the percentiles, the share of SETs slower than 10, 20 and 50 microseconds, the throughput over the measured
 * window (timing included) and the off-heap bytes per live byte at the end.
 *
 * <h2>Usage</h2>
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks.jar io.agni.bench.ChurnLatency \
 *     [--keys=100000] [--shards=8] [--warmup-seconds=4] [--seconds=10] [--seed=1]
 * </pre>
 */
public final class ChurnLatency
{
    private static final long KEY_TAG = 0xC4_17A7L;
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(10);

    private ChurnLatency()
    {
    }

    /**
     * Runs the churn and prints the figures.
     *
     * @param args {@code [--keys=N] [--shards=S] [--warmup-seconds=W] [--seconds=M] [--seed=X]}.
     */
    public static void main(final String[] args)
    {
        int keyCount = 100_000;
        int shards = 8;
        long warmupSeconds = 4;
        long seconds = 10;
        long seed = 1;
        for (final String arg : args)
        {
            final int eq = arg.indexOf('=');
            final String name = eq < 0 ? arg : arg.substring(0, eq);
            final String number = eq < 0 ? "" : arg.substring(eq + 1).replace("_", "");
            switch (name)
            {
                case "--keys" -> keyCount = Integer.parseInt(number);
                case "--shards" -> shards = Integer.parseInt(number);
                case "--warmup-seconds" -> warmupSeconds = Long.parseLong(number);
                case "--seconds" -> seconds = Long.parseLong(number);
                case "--seed" -> seed = Long.parseLong(number);
                default -> throw new IllegalArgumentException("unknown option: " + arg + ", usage: ChurnLatency " +
                    "[--keys=N] [--shards=S] [--warmup-seconds=W] [--seconds=M] [--seed=X]");
            }
        }
        if (keyCount < 1 || seconds < 1 || warmupSeconds < 0)
        {
            throw new IllegalArgumentException("keys and seconds must be at least 1, warm-up at least 0: keys=" +
                keyCount + ", seconds=" + seconds + ", warmupSeconds=" + warmupSeconds);
        }
        run(keyCount, shards, warmupSeconds, seconds, seed);
    }

    private static void run(final int keyCount, final int shards, final long warmupSeconds, final long seconds,
        final long seed)
    {
        final KeySet keys = KeySet.generate(keyCount, StoreBenchmark.KEY_LENGTH, KEY_TAG);
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[] bytes = new byte[ChurnLatencyBenchmark.MAX_VALUE_LENGTH];
        random.nextBytes(bytes);
        final UnsafeBuffer values = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes.length));
        values.putBytes(0, bytes);
        try (OffHeapStore store = OffHeapStore.builder().shards(shards).maxMemory(StoreKind.BUDGET_BYTES).build())
        {
            for (int i = 0; i < keyCount; i++)
            {
                set(store, keys, i, values, random);
            }
            final Histogram histogram = new Histogram(HIGHEST_NANOS, 3);
            churn(store, keys, values, random, TimeUnit.SECONDS.toNanos(warmupSeconds), histogram);
            histogram.reset();
            final long nanos = churn(store, keys, values, random, TimeUnit.SECONDS.toNanos(seconds), histogram);
            final StoreStats stats = store.stats();
            final long n = histogram.getTotalCount();
            System.out.printf(Locale.ROOT, "ChurnLatency: %,d keys, %d shards, values [%d, %d] B, %d s measured " +
                "after %d s of warm-up, Java %s%n", keyCount, shards, ChurnLatencyBenchmark.MIN_VALUE_LENGTH,
                ChurnLatencyBenchmark.MAX_VALUE_LENGTH, seconds, warmupSeconds, System.getProperty("java.version"));
            System.out.printf(Locale.ROOT, "SETs %,d, throughput %.3f ops/us%n", n, 1e3 * n / nanos);
            System.out.printf(Locale.ROOT, "latency ns: p50 %d, p90 %d, p99 %d, p99.9 %d, p99.99 %d, max %d%n",
                histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90),
                histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9),
                histogram.getValueAtPercentile(99.99), histogram.getMaxValue());
            System.out.printf(Locale.ROOT, "slower than 10 us %.4f %%, 20 us %.4f %%, 50 us %.4f %%%n",
                slowerThan(histogram, 10_000), slowerThan(histogram, 20_000), slowerThan(histogram, 50_000));
            System.out.printf(Locale.ROOT, "offHeapBytes %,d, liveEntryBytes %,d, held/live %.3f%n",
                stats.offHeapBytes(), stats.liveEntryBytes(), (double)stats.offHeapBytes() / stats.liveEntryBytes());
        }
    }

    private static long churn(final OffHeapStore store, final KeySet keys, final UnsafeBuffer values,
        final SplittableRandom random, final long forNanos, final Histogram histogram)
    {
        final long start = System.nanoTime();
        long now = start;
        while (now - start < forNanos)
        {
            final int index = random.nextInt(keys.count());
            final int length = random.nextInt(ChurnLatencyBenchmark.MIN_VALUE_LENGTH,
                ChurnLatencyBenchmark.MAX_VALUE_LENGTH + 1);
            final long before = System.nanoTime();
            store.set(keys.buffer(), keys.offset(index), keys.keyLength(), values, 0, length);
            now = System.nanoTime();
            histogram.recordValue(Math.min(HIGHEST_NANOS, now - before));
        }
        return now - start;
    }

    private static void set(final OffHeapStore store, final KeySet keys, final int index, final UnsafeBuffer values,
        final SplittableRandom random)
    {
        final int length = random.nextInt(ChurnLatencyBenchmark.MIN_VALUE_LENGTH,
            ChurnLatencyBenchmark.MAX_VALUE_LENGTH + 1);
        store.set(keys.buffer(), keys.offset(index), keys.keyLength(), values, 0, length);
    }

    private static double slowerThan(final Histogram histogram, final long nanos)
    {
        return 100.0 * (histogram.getTotalCount() - histogram.getCountBetweenValues(0, nanos)) /
            histogram.getTotalCount();
    }
}
