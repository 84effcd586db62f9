package io.agni.bench;

import io.agni.api.CapacityExceededException;
import io.agni.api.EvictionPolicy;
import io.agni.api.StoreStats;
import io.agni.bench.adapter.KeySet;
import io.agni.bench.adapter.Value;
import io.agni.store.OffHeapStore;
import io.agni.store.OffHeapStoreBuilder;
import org.agrona.ExpandableDirectByteBuffer;
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
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * What eviction costs the store's hot paths (issue 20), on the zero-copy path with {@link StoreBenchmark}'s keys (16
 * bytes), values (100 bytes) and key choice, in a store that is <em>full</em>: its budget holds the {@code keyCount}
 * present keys and about twice as many filler entries, and writing new keys has reached it.
 *
 * <ul>
 *   <li>{@code policy=all-keys}: {@link EvictionPolicy#ALL_KEYS}, filled with filler keys until it evicted, then the
 *       present keys written (each evicting filler), so the store is at its budget and every new key evicts.</li>
 *   <li>{@code policy=no-eviction}: {@link EvictionPolicy#NO_EVICTION}, the same budget, filled with filler until
 *       the budget refused one, then the present keys written, the oldest filler deleted whenever one is refused:
 *       the present keys sit in the index where they sit in the store that evicts (written last, later in their
 *       clusters). Written first, they sat nearer their home slots and a GET took fewer probes than in the store
 *       that evicts, which made {@code all-keys} read 0.83 x as fast at 1,000 keys (0.96 x with the same order).</li>
 * </ul>
 * Issue 20's bars: {@link #getHit} at {@code all-keys} at least 0.9 x at {@code no-eviction}; {@link #setEvict} (a
 * SET of a key never written, into the full {@code all-keys} store: every SET evicts, one entry per SET on average)
 * at least 0.7 x {@link #setOverwrite} (a SET over a present key, same size: in place, never evicting) at
 * {@code no-eviction}; and every one of them at most 1 B/op ({@code -prof gc}). Run with {@code -t 2}, interleaved
 * ({@code agni-bench/scripts/eviction-ab.sh}).
 *
 * <p>The default shard count, as {@code StoreBenchmark}'s {@code agni-zc}. {@link #setEvict} checks at the end of the
 * trial that the store evicted at least {@value #MIN_EVICTIONS_PER_SET} entries per SET, or fails: a run where it
 * did not measured inserts, not evictions.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(2)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.AGRONA, JvmFlags.HEAP_MIN, JvmFlags.HEAP_MAX, JvmFlags.HEAP_PRE_TOUCH})
@State(Scope.Benchmark)
public class EvictionBenchmark
{
    /**
     * The least evictions per SET {@link #setEvict} must have caused.
     */
    static final double MIN_EVICTIONS_PER_SET = 0.9;

    /**
     * Filler entries per present key that the budget holds besides the present keys.
     */
    static final int FILLER_PER_KEY = 2;

    private static final long FILLER_TAG = 0x4649_4c4cL;
    private static final long NEW_KEY_TAG = 0x4e45_5700L;

    /**
     * {@code all-keys} or {@code no-eviction}.
     */
    @Param({"all-keys", "no-eviction"})
    public String policy;

    /**
     * The number of present keys.
     */
    @Param({"1000", "1000000"})
    public int keyCount;

    private KeySet keys;
    private Value value;
    private OffHeapStore store;
    private long evictedAtStart;
    private final Queue<PerThread> threads = new ConcurrentLinkedQueue<>();

    /**
     * Per-thread state: the key chooser, the read buffer, and the buffer a new key is made in.
     */
    @State(Scope.Thread)
    public static class PerThread
    {
        Rng rng;
        ExpandableDirectByteBuffer dst;
        UnsafeBuffer newKey;
        long newKeyTag;
        long newKeys;

        /**
         * Seeds the thread's random source from its index, so runs repeat, and registers with the benchmark so that
         * it can count the new keys written.
         *
         * @param params    JMH's thread parameters.
         * @param benchmark the benchmark's state.
         */
        @Setup(Level.Trial)
        public void setUp(final ThreadParams params, final EvictionBenchmark benchmark)
        {
            benchmark.threads.add(this);
            rng = new Rng(0x5eed_0000L + params.getThreadIndex());
            dst = new ExpandableDirectByteBuffer(2 * StoreBenchmark.VALUE_LENGTH);
            newKey = new UnsafeBuffer(ByteBuffer.allocateDirect(StoreBenchmark.KEY_LENGTH));
            newKeyTag = NEW_KEY_TAG + ((long)params.getThreadIndex() << 32);
        }
    }

    /**
     * Opens the store, fills it to its budget as {@link #policy} says, and checks that every present key is there.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        keys = KeySet.generate(keyCount, StoreBenchmark.KEY_LENGTH, StoreBenchmark.HIT_TAG);
        value = new Value(StoreBenchmark.VALUE_LENGTH, 42);
        final long budget = budgetFor(keyCount * (1L + FILLER_PER_KEY));
        final boolean evicting = switch (policy)
        {
            case "all-keys" -> true;
            case "no-eviction" -> false;
            default -> throw new IllegalArgumentException("unknown policy: " + policy + ", known: all-keys, no-eviction");
        };
        store = OffHeapStore.builder().shards(OffHeapStoreBuilder.defaultShards()).maxMemory(budget)
            .evictionPolicy(evicting ? EvictionPolicy.ALL_KEYS : EvictionPolicy.NO_EVICTION).build();
        final UnsafeBuffer filler = new UnsafeBuffer(ByteBuffer.allocateDirect(StoreBenchmark.KEY_LENGTH));
        long fillers = 0;
        if (evicting)
        {
            while (store.stats().evicted() == 0)
            {
                for (int i = 0; i < 1024; i++)
                {
                    newKey(filler, FILLER_TAG, fillers++);
                    store.set(filler, 0, StoreBenchmark.KEY_LENGTH, value.buffer(), 0, value.length());
                }
            }
            writePresentKeys();
        }
        else
        {
            // As in the store that evicts, the present keys go in after the filler, so that they sit where keys
            // written into a full store sit (later in their index clusters, a GET probing further): filled until
            // the budget refuses, the oldest filler deleted as eviction would take it, then the present keys.
            try
            {
                while (true)
                {
                    newKey(filler, FILLER_TAG, fillers++);
                    store.set(filler, 0, StoreBenchmark.KEY_LENGTH, value.buffer(), 0, value.length());
                }
            }
            catch (final CapacityExceededException full)
            {
                // the budget is reached: the store is full
            }
            long deleted = 0;
            for (int i = 0; i < keyCount; i++)
            {
                while (true)
                {
                    try
                    {
                        store.set(keys.buffer(), keys.offset(i), keys.keyLength(), value.buffer(), 0, value.length());
                        break;
                    }
                    catch (final CapacityExceededException full)
                    {
                        if (deleted == fillers)
                        {
                            throw full;
                        }
                        newKey(filler, FILLER_TAG, deleted++);
                        store.delete(filler, 0, StoreBenchmark.KEY_LENGTH);
                    }
                }
            }
        }
        final ExpandableDirectByteBuffer check = new ExpandableDirectByteBuffer(StoreBenchmark.VALUE_LENGTH);
        for (int i = 0; i < keyCount; i++)
        {
            if (store.get(keys.buffer(), keys.offset(i), keys.keyLength(), check, 0) != value.length())
            {
                throw new IllegalStateException("a present key is missing after the fill: policy=" + policy +
                    ", key=" + i + ", " + store.stats());
            }
        }
        evictedAtStart = store.stats().evicted();
    }

    /**
     * Checks that {@link #setEvict} evicted about one entry per SET, and closes the store.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        long written = 0;
        for (final PerThread thread : threads)
        {
            written += thread.newKeys;
        }
        if (written > 0)
        {
            final StoreStats stats = store.stats();
            final double perSet = (double)(stats.evicted() - evictedAtStart) / written;
            System.out.printf("%nsetEvict: %,d new keys, %.3f evictions per SET, %,d of %,d bytes held%n", written,
                perSet, stats.offHeapBytes(), stats.budgetBytes());
            if (perSet < MIN_EVICTIONS_PER_SET)
            {
                store.close();
                throw new IllegalStateException("setEvict did not evict on (almost) every SET: " + perSet +
                    " evictions per SET, policy=" + policy);
            }
        }
        store.close();
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
        final int index = Rng.index(thread.rng.next(), keyCount);
        return store.get(keys.buffer(), keys.offset(index), keys.keyLength(), thread.dst, 0);
    }

    /**
     * SET over a present key, same value size: in place, never evicting.
     *
     * @param thread the thread's state.
     */
    @Benchmark
    public void setOverwrite(final PerThread thread)
    {
        final int index = Rng.index(thread.rng.next(), keyCount);
        store.set(keys.buffer(), keys.offset(index), keys.keyLength(), value.buffer(), 0, value.length());
    }

    /**
     * SET of a key never written before: at a full {@code all-keys} store, it evicts (refused at {@code no-eviction},
     * so run it at {@code all-keys} only).
     *
     * @param thread the thread's state.
     */
    @Benchmark
    public void setEvict(final PerThread thread)
    {
        newKey(thread.newKey, thread.newKeyTag, thread.newKeys++);
        store.set(thread.newKey, 0, StoreBenchmark.KEY_LENGTH, value.buffer(), 0, value.length());
    }

    private void writePresentKeys()
    {
        for (int i = 0; i < keyCount; i++)
        {
            store.set(keys.buffer(), keys.offset(i), keys.keyLength(), value.buffer(), 0, value.length());
        }
    }

    /**
     * Writes key number {@code n} of a tag into {@code buffer}: distinct from every key of another tag and of the
     * present keys' {@link KeySet}, whose second word mixes their own tag.
     */
    private static void newKey(final UnsafeBuffer buffer, final long tag, final long n)
    {
        buffer.putLong(0, Rng.mix(n + 1));
        buffer.putLong(Long.BYTES, Rng.mix(n + 1) ^ Rng.mix(tag ^ 0x7fff_0000_0000_0000L));
    }

    /**
     * The budget a store of this benchmark's shape needs for {@code entries} entries: what a store with a roomy
     * budget holds after that many.
     */
    private static long budgetFor(final long entries)
    {
        final long roomy = entries * 512 + (64L << 20);
        final Value v = new Value(StoreBenchmark.VALUE_LENGTH, 1);
        final UnsafeBuffer key = new UnsafeBuffer(ByteBuffer.allocateDirect(StoreBenchmark.KEY_LENGTH));
        try (OffHeapStore probe = OffHeapStore.builder().shards(OffHeapStoreBuilder.defaultShards())
            .maxMemory(roomy).build())
        {
            for (long n = 0; n < entries; n++)
            {
                newKey(key, FILLER_TAG, n);
                probe.set(key, 0, StoreBenchmark.KEY_LENGTH, v.buffer(), 0, v.length());
            }
            return probe.stats().offHeapBytes();
        }
    }
}
