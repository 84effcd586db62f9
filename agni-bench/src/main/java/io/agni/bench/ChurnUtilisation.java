package io.agni.bench;

import io.agni.api.StoreStats;
import io.agni.bench.adapter.KeySet;
import io.agni.store.OffHeapStore;
import io.agni.store.OffHeapStoreBuilder;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Memory utilisation of an OffHeapStore under churn: fills {@code N} keys (default 100,000) with values of
 * uniformly random size in {@code [10, 1000]} bytes, then overwrites random keys {@code 10 x N} times with new random
 * sizes, and prints {@code stats().offHeapBytes()}, {@code stats().liveEntryBytes()} and their ratio after the fill
 * and after each round of {@code N} overwrites. The target is off-heap bytes held at most {@link #TARGET_RATIO}
 * times the live bytes; the program exits with {@code 1} if the final ratio is above it.
 *
 * <h2>Usage</h2>
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks.jar io.agni.bench.ChurnUtilisation \
 *     [--keys=N] [--rounds=R] [--shards=S] [--max-memory=BYTES] [--seed=X]
 * </pre>
 * Shards and memory budget default to the store's defaults.
 */
public final class ChurnUtilisation
{
    /**
     * The most off-heap bytes the store may hold per live byte after churn.
     */
    public static final double TARGET_RATIO = 1.3;

    /**
     * The smallest value written.
     */
    public static final int MIN_VALUE_LENGTH = 10;

    /**
     * The largest value written.
     */
    public static final int MAX_VALUE_LENGTH = 1000;

    private static final long KEY_TAG = 0xC4_0124L;

    private ChurnUtilisation()
    {
    }

    /**
     * Runs the churn.
     *
     * @param args {@code [--keys=N] [--rounds=R] [--shards=S] [--max-memory=BYTES] [--seed=X]}.
     */
    public static void main(final String[] args)
    {
        int keyCount = 100_000;
        int rounds = 10;
        int shards = OffHeapStoreBuilder.defaultShards();
        long maxMemory = OffHeapStoreBuilder.defaultMaxMemory();
        long seed = 1;
        for (final String arg : args)
        {
            final int eq = arg.indexOf('=');
            final String name = eq < 0 ? arg : arg.substring(0, eq);
            final String number = eq < 0 ? "" : arg.substring(eq + 1).replace("_", "");
            switch (name)
            {
                case "--keys" -> keyCount = Integer.parseInt(number);
                case "--rounds" -> rounds = Integer.parseInt(number);
                case "--shards" -> shards = Integer.parseInt(number);
                case "--max-memory" -> maxMemory = Long.parseLong(number);
                case "--seed" -> seed = Long.parseLong(number);
                default -> throw new IllegalArgumentException("unknown option: " + arg + ", usage: ChurnUtilisation " +
                    "[--keys=N] [--rounds=R] [--shards=S] [--max-memory=BYTES] [--seed=X]");
            }
        }
        if (keyCount < 1 || rounds < 0)
        {
            throw new IllegalArgumentException("keys must be at least 1 and rounds at least 0: keys=" + keyCount +
                ", rounds=" + rounds);
        }
        System.exit(run(keyCount, rounds, shards, maxMemory, seed) ? 0 : 1);
    }

    private static boolean run(final int keyCount, final int rounds, final int shards, final long maxMemory,
        final long seed)
    {
        final KeySet keys = KeySet.generate(keyCount, StoreBenchmark.KEY_LENGTH, KEY_TAG);
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[] bytes = new byte[MAX_VALUE_LENGTH];
        random.nextBytes(bytes);
        final UnsafeBuffer values = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_VALUE_LENGTH));
        values.putBytes(0, bytes);
        final int[] lengths = new int[keyCount];
        long payload = 0;

        try (OffHeapStore store = OffHeapStore.builder().shards(shards).maxMemory(maxMemory).build())
        {
            System.out.printf(Locale.ROOT, "ChurnUtilisation: %,d keys of %d B, values uniform in [%d, %d] B, " +
                "%d rounds of %,d overwrites, shards %d, budget %,d B, seed %d, Java %s%n",
                keyCount, StoreBenchmark.KEY_LENGTH, MIN_VALUE_LENGTH, MAX_VALUE_LENGTH, rounds, keyCount, shards,
                maxMemory, seed, System.getProperty("java.version"));
            System.out.printf(Locale.ROOT, "%-12s %15s %15s %15s %8s%n",
                "after", "offHeapBytes", "liveEntryBytes", "key+value B", "ratio");

            final long start = System.nanoTime();
            for (int i = 0; i < keyCount; i++)
            {
                payload += write(store, keys, i, values, random, lengths);
            }
            StoreStats stats = report(store, "fill", payload);
            for (int round = 1; round <= rounds; round++)
            {
                for (int op = 0; op < keyCount; op++)
                {
                    payload += write(store, keys, random.nextInt(keyCount), values, random, lengths);
                }
                stats = report(store, "round " + round, payload);
            }
            final double seconds = (System.nanoTime() - start) / 1e9;

            final double ratio = ratio(stats);
            final boolean pass = ratio <= TARGET_RATIO;
            System.out.printf(Locale.ROOT, "held/live = %.3f (target <= %.2f) -> %s; %,d writes in %.2f s%n",
                ratio, TARGET_RATIO, pass ? "PASS" : "FAIL", (long)keyCount * (rounds + 1), seconds);
            return pass;
        }
    }

    /**
     * Sets one key to a value of random length and returns the change in key and value bytes held.
     */
    private static long write(final OffHeapStore store, final KeySet keys, final int index, final UnsafeBuffer values,
        final SplittableRandom random, final int[] lengths)
    {
        final int length = random.nextInt(MIN_VALUE_LENGTH, MAX_VALUE_LENGTH + 1);
        store.set(keys.buffer(), keys.offset(index), keys.keyLength(), values, 0, length);
        final long change = lengths[index] == 0 ? keys.keyLength() + length : length - lengths[index];
        lengths[index] = length;
        return change;
    }

    private static StoreStats report(final OffHeapStore store, final String after, final long payload)
    {
        final StoreStats stats = store.stats();
        System.out.printf(Locale.ROOT, "%-12s %,15d %,15d %,15d %8.3f%n",
            after, stats.offHeapBytes(), stats.liveEntryBytes(), payload, ratio(stats));
        return stats;
    }

    private static double ratio(final StoreStats stats)
    {
        return stats.liveEntryBytes() == 0 ? 0.0 : (double)stats.offHeapBytes() / stats.liveEntryBytes();
    }
}
