package io.agni.bench;

import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.bench.adapter.KeySet;
import io.agni.bench.adapter.StoreKind;
import io.agni.bench.adapter.Value;
import io.agni.store.OffHeapStore;
import io.agni.store.OffHeapStoreBuilder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
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

import java.util.concurrent.TimeUnit;

/**
 * The zero-copy GET hit of {@link StoreBenchmark}, on agni only, for entries with and without an expiry time
 * ({@code expiry=none} against {@code expiry=future}: every key set to expire an hour after setup, so none expires
 * during the run), with the store's default clock or a cached one ({@code clock}). A GET of an entry with an expiry
 * time reads the clock once; this measures what that and the longer header cost. Same keys, value size, key choice
 * and destination buffer as {@code StoreBenchmark.getHit} with {@code store=agni-zc}. Run with {@code -t 2}, as the
 * store acceptance run (docs/experiments/in-process-store.md, "GET of entries with an expiry time").
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = JvmFlags.AGRONA)
@State(Scope.Benchmark)
public class ExpiryGetBenchmark
{
    private static final long ONE_HOUR_MS = TimeUnit.HOURS.toMillis(1);

    /**
     * Present keys.
     */
    @Param({"1000"})
    int keyCount;

    /**
     * Whether the entries have an expiry time: {@code none} or {@code future}.
     */
    @Param({"none", "future"})
    String expiry;

    /**
     * The store's clock: {@code system} (the default, {@code System.currentTimeMillis()} on every read of an
     * entry with an expiry time) or {@code cached} (an Agrona {@link CachedEpochClock} set once at setup, as a
     * user's duty cycle would update it).
     */
    @Param({"system", "cached"})
    String clock;

    private KeySet keys;
    private OffHeapStore store;

    /**
     * Opens a store as {@code StoreBenchmark}'s agni-zc and fills it, then checks that every key is present with the
     * expiry asked for.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final boolean expiring;
        switch (expiry)
        {
            case "none" -> expiring = false;
            case "future" -> expiring = true;
            default -> throw new IllegalArgumentException("expiry must be none or future: " + expiry);
        }
        keys = KeySet.generate(keyCount, StoreBenchmark.KEY_LENGTH, StoreBenchmark.HIT_TAG);
        final Value value = new Value(StoreBenchmark.VALUE_LENGTH, 42);
        final EpochClock epochClock = switch (clock)
        {
            case "system" -> SystemEpochClock.INSTANCE;
            case "cached" ->
            {
                final CachedEpochClock cached = new CachedEpochClock();
                cached.update(System.currentTimeMillis());
                yield cached;
            }
            default -> throw new IllegalArgumentException("clock must be system or cached: " + clock);
        };
        store = OffHeapStore.builder()
            .shards(OffHeapStoreBuilder.defaultShards())
            .maxMemory(StoreKind.BUDGET_BYTES)
            .clock(epochClock)
            .build();
        final long expireAt = epochClock.time() + ONE_HOUR_MS;
        final DirectBuffer keyBuffer = keys.buffer();
        for (int i = 0; i < keyCount; i++)
        {
            store.set(keyBuffer, keys.offset(i), keys.keyLength(), value.buffer(), 0, value.length(),
                SetCondition.ALWAYS, expiring ? ExpiryMode.AT : ExpiryMode.CLEAR, expiring ? expireAt : 0);
        }
        final ExpandableDirectByteBuffer check = new ExpandableDirectByteBuffer(StoreBenchmark.VALUE_LENGTH);
        for (int i = 0; i < keyCount; i++)
        {
            final long ttl = store.ttlMillis(keyBuffer, keys.offset(i), keys.keyLength());
            if (store.get(keyBuffer, keys.offset(i), keys.keyLength(), check, 0) != StoreBenchmark.VALUE_LENGTH ||
                (expiring ? ttl <= 0 : ttl != OffHeapStore.TTL_NO_EXPIRY))
            {
                throw new IllegalStateException("key " + i + " not stored as asked: expiry=" + expiry + ", ttl=" + ttl);
            }
        }
    }

    /**
     * Closes the store.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        store.close();
    }

    /**
     * Zero-copy GET of a present key.
     *
     * @param thread the thread's state.
     * @return the value's length.
     */
    @Benchmark
    public int getHit(final StoreBenchmark.PerThread thread)
    {
        final int index = Rng.index(thread.rng.next(), keyCount);
        return store.get(keys.buffer(), keys.offset(index), keys.keyLength(), thread.dst, 0);
    }
}
