package io.agni.bench;

import io.agni.api.StoreStats;
import io.agni.bench.adapter.KeySet;
import io.agni.bench.adapter.StoreKind;
import io.agni.store.OffHeapStore;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * SET latency under churn: the store's compaction runs inside writes, so its cost shows in the tail of the SET
 * latency, not in the mean. Every SET writes a value of uniformly random length in
 * [{@link #MIN_VALUE_LENGTH}, {@link #MAX_VALUE_LENGTH}] bytes over a random present key, so that almost every
 * overwrite leaves its old entry as garbage and compaction runs all the time (as in {@link ChurnUtilisation}).
 *
 * <h2>Method</h2>
 * The store ({@link OffHeapStore}, {@code shards} shards, zero-copy path, budget {@link StoreKind#BUDGET_BYTES}) is
 * filled once per trial with {@code keyCount} keys of {@link StoreBenchmark#KEY_LENGTH} bytes and random value
 * lengths; the warm-up iterations then churn it into its steady state of garbage. The default mode,
 * {@link Mode#SampleTime}, gives the latency percentiles; run with {@code -bm thrpt} (or {@code -bm sample,thrpt})
 * for throughput. At the end of the trial the fork prints the store's off-heap bytes per live byte, which shows what
 * the compaction leaves behind. Nothing is allocated per operation by the harness, so {@code -prof gc} shows the
 * store's own allocation.
 *
 * <h2>Forks</h2>
 * Every fork gets {@link JvmFlags#AGRONA}; the peers are not measured here.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = JvmFlags.AGRONA)
@State(Scope.Benchmark)
public class ChurnLatencyBenchmark
{
    /**
     * The shortest value written.
     */
    public static final int MIN_VALUE_LENGTH = ChurnUtilisation.MIN_VALUE_LENGTH;

    /**
     * The longest value written.
     */
    public static final int MAX_VALUE_LENGTH = ChurnUtilisation.MAX_VALUE_LENGTH;

    private static final long KEY_TAG = 0xC4_17A7L;

    /**
     * The number of keys churned.
     */
    @Param({"100000"})
    public int keyCount;

    /**
     * The store's shard count (fixed, not the machine's default, so that runs on other machines compare).
     */
    @Param({"8"})
    public int shards;

    private KeySet keys;
    private UnsafeBuffer values;
    private OffHeapStore store;

    /**
     * Per-thread state: the key and length chooser.
     */
    @State(Scope.Thread)
    public static class PerThread
    {
        Rng rng;

        /**
         * Seeds the thread's random source from its index, so runs repeat.
         *
         * @param params JMH's thread parameters.
         */
        @Setup(Level.Trial)
        public void setUp(final ThreadParams params)
        {
            rng = new Rng(0xC4_0000L + params.getThreadIndex());
        }
    }

    /**
     * Makes the keys and the value bytes, opens the store and fills it.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        keys = KeySet.generate(keyCount, StoreBenchmark.KEY_LENGTH, KEY_TAG);
        final SplittableRandom random = new SplittableRandom(1);
        final byte[] bytes = new byte[MAX_VALUE_LENGTH];
        random.nextBytes(bytes);
        values = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_VALUE_LENGTH));
        values.putBytes(0, bytes);
        store = OffHeapStore.builder().shards(shards).maxMemory(StoreKind.BUDGET_BYTES).build();
        for (int i = 0; i < keyCount; i++)
        {
            store.set(keys.buffer(), keys.offset(i), keys.keyLength(), values, 0,
                random.nextInt(MIN_VALUE_LENGTH, MAX_VALUE_LENGTH + 1));
        }
    }

    /**
     * Prints what the churn left: off-heap bytes held per live entry byte. Then closes the store.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        final StoreStats stats = store.stats();
        System.out.printf(Locale.ROOT, "%nChurnLatencyBenchmark: offHeapBytes %,d, liveEntryBytes %,d, held/live %.3f%n",
            stats.offHeapBytes(), stats.liveEntryBytes(), (double)stats.offHeapBytes() / stats.liveEntryBytes());
        store.close();
    }

    /**
     * SET of a random key to a value of random length.
     *
     * @param thread the thread's state.
     */
    @Benchmark
    public void setRandomLength(final PerThread thread)
    {
        final long random = thread.rng.next();
        final int index = Rng.index(random, keyCount);
        final int length = MIN_VALUE_LENGTH +
            (int)(((random & 0xFFFF_FFFFL) * (MAX_VALUE_LENGTH - MIN_VALUE_LENGTH + 1)) >>> 32);
        store.set(keys.buffer(), keys.offset(index), keys.keyLength(), values, 0, length);
    }
}
