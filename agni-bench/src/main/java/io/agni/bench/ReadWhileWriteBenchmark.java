package io.agni.bench;

import io.agni.bench.adapter.KeySet;
import io.agni.bench.adapter.Value;
import io.agni.store.OffHeapStore;
import io.agni.store.OffHeapStoreBuilder;
import org.agrona.ExpandableDirectByteBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * GETs on one thread while another thread writes other keys of the same shards: what a write costs the reads that
 * do not touch its keys. Two groups of one reader and one writer each:
 * <ul>
 * <li>{@code overwrite}: the writer SETs present keys with a value of the same length, in place;</li>
 * <li>{@code churn}: the writer deletes a present key and SETs it again, so every write removes and inserts an
 * index slot, retires an entry and appends one: what a cache that replaces its entries does.</li>
 * </ul>
 * The reader's keys and the writer's are disjoint and spread over every shard (agni's default shard count), so a
 * read waits for a write only through memory the two share by the store's design or by accident: the shard's, the
 * arena's and the segments' bookkeeping, and the index and entries of other keys on the same cache lines. JMH
 * reports each method of a group apart; the reads are the figure to compare between builds.
 * <p>
 * Each thread's key choice and read buffer are {@code StoreBenchmark}'s per-thread state.
 * <p>
 * Run as {@code java -jar agni-bench/target/benchmarks.jar ReadWhileWriteBenchmark -prof gc}, without {@code -t}:
 * each group is its two threads, and a higher thread count makes JMH run several groups, each with a store of its
 * own, which on two CPUs measures the scheduler. Keys of 16 bytes, values of 100 bytes, as {@code StoreBenchmark}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {JvmFlags.AGRONA, JvmFlags.HEAP_MIN, JvmFlags.HEAP_MAX, JvmFlags.HEAP_PRE_TOUCH})
@State(Scope.Group)
public class ReadWhileWriteBenchmark
{
    private static final long READ_TAG = 0x5245_4144L;
    private static final long WRITE_TAG = 0x5752_4954L;

    /**
     * Keys the reader reads, and as many again that the writer writes.
     */
    @Param({"1000", "100000"})
    public int keyCount;

    private KeySet readKeys;
    private KeySet writeKeys;
    private Value value;
    private OffHeapStore store;

    /**
     * Opens a store with the default shard count and writes both key sets.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        readKeys = KeySet.generate(keyCount, StoreBenchmark.KEY_LENGTH, READ_TAG);
        writeKeys = KeySet.generate(keyCount, StoreBenchmark.KEY_LENGTH, WRITE_TAG);
        value = new Value(StoreBenchmark.VALUE_LENGTH, 42);
        store = OffHeapStore.builder().shards(OffHeapStoreBuilder.defaultShards()).build();
        for (int i = 0; i < keyCount; i++)
        {
            set(readKeys, i);
            set(writeKeys, i);
        }
    }

    /**
     * Checks that every read key is still there, then closes the store.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        try
        {
            final ExpandableDirectByteBuffer check = new ExpandableDirectByteBuffer(StoreBenchmark.VALUE_LENGTH);
            for (int i = 0; i < keyCount; i++)
            {
                if (get(readKeys, i, check) != StoreBenchmark.VALUE_LENGTH)
                {
                    throw new IllegalStateException("a read key was lost: " + i);
                }
            }
        }
        finally
        {
            store.close();
        }
    }

    /**
     * GET of a present key that no writer touches, while the group's other thread overwrites.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    @Group("overwrite")
    @GroupThreads(1)
    public int overwriteRead(final StoreBenchmark.PerThread thread)
    {
        return get(readKeys, Rng.index(thread.rng.next(), keyCount), thread.dst);
    }

    /**
     * SET over a present key with a value of the same length (in place).
     *
     * @param thread the thread's state.
     */
    @Benchmark
    @Group("overwrite")
    @GroupThreads(1)
    public void overwriteWrite(final StoreBenchmark.PerThread thread)
    {
        set(writeKeys, Rng.index(thread.rng.next(), keyCount));
    }

    /**
     * GET of a present key that no writer touches, while the group's other thread deletes and inserts.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    @Group("churn")
    @GroupThreads(1)
    public int churnRead(final StoreBenchmark.PerThread thread)
    {
        return get(readKeys, Rng.index(thread.rng.next(), keyCount), thread.dst);
    }

    /**
     * DEL of a present key, then SET of it again: a removal and an insert.
     *
     * @param thread the thread's state.
     * @return whether the key was there to delete ({@code true} unless another writer raced, which none does).
     */
    @Benchmark
    @Group("churn")
    @GroupThreads(1)
    public boolean churnWrite(final StoreBenchmark.PerThread thread)
    {
        final int index = Rng.index(thread.rng.next(), keyCount);
        final boolean deleted = store.delete(writeKeys.buffer(), writeKeys.offset(index), writeKeys.keyLength());
        set(writeKeys, index);
        return deleted;
    }

    private int get(final KeySet keys, final int index, final ExpandableDirectByteBuffer dst)
    {
        return store.get(keys.buffer(), keys.offset(index), keys.keyLength(), dst, 0);
    }

    private void set(final KeySet keys, final int index)
    {
        store.set(keys.buffer(), keys.offset(index), keys.keyLength(), value.buffer(), 0, value.length());
    }
}
