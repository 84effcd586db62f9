package io.agni.bench;

import io.agni.bench.adapter.KeySet;
import io.agni.bench.adapter.StoreAdapter;
import io.agni.bench.adapter.StoreKind;
import io.agni.bench.adapter.Value;
import org.agrona.ExpandableDirectByteBuffer;
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

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Single-key operations on every store of {@link StoreKind}: GET of a present key, GET of an absent key, SET over a
 * present key with a value of the same size, and a 90/10 GET/SET mix, over {@code keyCount} present keys of
 * {@link #KEY_LENGTH} bytes with values of {@link #VALUE_LENGTH} bytes.
 *
 * <h2>Method</h2>
 * The store is filled once per trial, outside measurement. Each thread picks keys uniformly with its own
 * {@link Rng}; keys and the written value are made before measuring. On the zero-copy path the harness allocates
 * nothing per operation (the key is an offset into an off-heap block, the read lands in a per-thread reused
 * buffer), so {@code -prof gc} shows the store's own allocation. Run with {@code -t 1} and {@code -t 2}.
 *
 * <h2>Forks</h2>
 * Every fork gets {@link JvmFlags#all()}: Agrona's flag and Chronicle Map's (OHC needs none on Java 17), and a fixed
 * 2 GiB heap touched at start ({@code -Xms2g -Xmx2g -XX:+AlwaysPreTouch}), so that the maps' heap does not grow and
 * collect while the store is filled or measured (docs/experiments/map-method.md).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {
    JvmFlags.AGRONA, JvmFlags.HEAP_MIN, JvmFlags.HEAP_MAX, JvmFlags.HEAP_PRE_TOUCH,
    JvmFlags.CHRONICLE_EXPORT_REF, JvmFlags.CHRONICLE_EXPORT_NIO_CH, JvmFlags.CHRONICLE_EXPORT_MISC,
    JvmFlags.CHRONICLE_EXPORT_JAVAC_FILE, JvmFlags.CHRONICLE_OPEN_JAVAC, JvmFlags.CHRONICLE_OPEN_LANG,
    JvmFlags.CHRONICLE_OPEN_REFLECT, JvmFlags.CHRONICLE_OPEN_IO, JvmFlags.CHRONICLE_OPEN_UTIL,
    JvmFlags.CHRONICLE_NO_ANALYTICS})
@State(Scope.Benchmark)
public class StoreBenchmark
{
    /**
     * Bytes per key.
     */
    public static final int KEY_LENGTH = 16;

    /**
     * Bytes per value, written and overwritten.
     */
    public static final int VALUE_LENGTH = 100;

    /**
     * Tag of the present keys; {@link #MISS_TAG} makes a disjoint set.
     */
    static final long HIT_TAG = 0x4849_5400L;

    /**
     * Tag of the absent keys.
     */
    static final long MISS_TAG = 0x4d49_5353L;

    /**
     * One operation in {@code 2^16} of the mix is a SET when the low 16 bits of its random number are below this:
     * 10.0% of them.
     */
    private static final int SET_THRESHOLD = 6554;

    /**
     * The store, by {@link StoreKind#id()}.
     */
    @Param({"agni-zc", "agni-1shard-zc", "agni-bytes", "agni-1shard-bytes", "chm", "hashmap-locked", "chronicle", "ohc"})
    public String store;

    /**
     * The number of present keys (and of absent keys that GET misses).
     */
    @Param({"1000", "1000000"})
    public int keyCount;

    private KeySet keys;
    private KeySet missingKeys;
    private Value value;
    private StoreAdapter adapter;

    /**
     * Per-thread state: the key chooser and the reused read buffer.
     */
    @State(Scope.Thread)
    public static class PerThread
    {
        Rng rng;
        ExpandableDirectByteBuffer dst;

        /**
         * Seeds the thread's random source from its index, so runs repeat.
         *
         * @param params JMH's thread parameters.
         */
        @Setup(Level.Trial)
        public void setUp(final ThreadParams params)
        {
            rng = new Rng(0x5eed_0000L + params.getThreadIndex());
            dst = new ExpandableDirectByteBuffer(2 * VALUE_LENGTH);
        }
    }

    /**
     * Makes the keys, opens the store and fills it, then checks one hit and one miss.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        keys = KeySet.generate(keyCount, KEY_LENGTH, HIT_TAG);
        missingKeys = KeySet.generate(keyCount, KEY_LENGTH, MISS_TAG);
        value = new Value(VALUE_LENGTH, 42);
        adapter = StoreKind.byId(store).open(keyCount, KEY_LENGTH, VALUE_LENGTH);
        for (int i = 0; i < keyCount; i++)
        {
            adapter.put(keys, i, value);
        }

        final ExpandableDirectByteBuffer check = new ExpandableDirectByteBuffer(VALUE_LENGTH);
        final int last = keyCount - 1;
        final int length = adapter.get(keys, last, check);
        final byte[] read = new byte[Math.max(0, length)];
        check.getBytes(0, read);
        if (length != VALUE_LENGTH ||
            StoreKind.byId(store) != StoreKind.CHM_PREKEYED_REF && !Arrays.equals(read, value.array()))
        {
            throw new IllegalStateException("store lost a value: store=" + store + ", key=" + last + ", length=" + length);
        }
        if (adapter.get(missingKeys, 0, check) != StoreAdapter.NOT_FOUND)
        {
            throw new IllegalStateException("store found an absent key: store=" + store);
        }
    }

    /**
     * Closes the store.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        adapter.close();
    }

    /**
     * GET of a present key.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    public int getHit(final PerThread thread)
    {
        return adapter.get(keys, Rng.index(thread.rng.next(), keyCount), thread.dst);
    }

    /**
     * GET of an absent key.
     *
     * @param thread the thread's state.
     * @return {@link StoreAdapter#NOT_FOUND}.
     */
    @Benchmark
    public int getMiss(final PerThread thread)
    {
        return adapter.get(missingKeys, Rng.index(thread.rng.next(), keyCount), thread.dst);
    }

    /**
     * SET over a present key, same value size.
     *
     * @param thread the thread's state.
     */
    @Benchmark
    public void setOverwrite(final PerThread thread)
    {
        adapter.put(keys, Rng.index(thread.rng.next(), keyCount), value);
    }

    /**
     * 90% GET of a present key, 10% SET over a present key.
     *
     * @param thread the thread's state.
     * @return the value's length for a GET, {@code 0} for a SET.
     */
    @Benchmark
    public int mixGet90Set10(final PerThread thread)
    {
        final long random = thread.rng.next();
        final int index = Rng.index(random, keyCount);
        if ((random & 0xFFFF) < SET_THRESHOLD)
        {
            adapter.put(keys, index, value);
            return 0;
        }
        return adapter.get(keys, index, thread.dst);
    }
}
