package io.agni.bench;

import io.agni.bench.adapter.KeySet;
import io.agni.bench.adapter.StoreAdapter;
import io.agni.bench.adapter.StoreKind;
import io.agni.bench.adapter.Value;
import org.agrona.ExpandableDirectByteBuffer;

import java.util.function.LongConsumer;

/**
 * {@link StoreBenchmark#getHit}'s work without a harness: GETs of present keys on one store of {@link StoreKind}, the
 * same keys, value size, key choice and destination buffer, for a fixed number of operations on one thread. It
 * exists for instruction counting: run under {@code valgrind --tool=cachegrind} with two operation counts after the
 * same warm-up, the difference in instructions divided by the difference in counts is the instructions of one GET
 * (JIT-compiled, with the harness's key choice and loop), which does not move with the machine's load as time does
 * ({@code agni-bench/scripts/instructions-per-get.sh}, docs/experiments/in-process-store.md).
 *
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp agni-bench/target/benchmarks.jar \
 *     io.agni.bench.GetLoop STORE WARMUP_OPS OPS [KEY_COUNT]
 * </pre>
 * Prints the sum of the lengths read, so that the JIT cannot drop the loop, before it closes the store.
 */
public final class GetLoop
{
    private static final int DEFAULT_KEY_COUNT = 1000;

    private GetLoop()
    {
    }

    /**
     * Runs the GETs.
     *
     * @param args store id, warm-up operations, measured operations, optionally the key count (default 1,000).
     */
    public static void main(final String[] args)
    {
        if (args.length < 3 || args.length > 4)
        {
            System.err.println("usage: GetLoop STORE WARMUP_OPS OPS [KEY_COUNT]");
            System.exit(2);
        }
        final long warmup = Long.parseLong(args[1]);
        final long ops = Long.parseLong(args[2]);
        final int keyCount = args.length == 4 ? Integer.parseInt(args[3]) : DEFAULT_KEY_COUNT;
        sumOfGets(args[0], warmup, ops, keyCount, System.out::println);
    }

    /**
     * Fills a new store of the kind with {@code keyCount} keys and runs {@code warmup + ops} GETs of them.
     *
     * @param beforeClose gets the sum before the store is closed (a valgrind run can die in the JDK's thread-exit
     *                    code when the store's sweeper thread ends at close, after the count is done).
     * @return the sum of the lengths read: {@code (warmup + ops) * VALUE_LENGTH}.
     * @throws IllegalStateException if a GET missed.
     */
    static long sumOfGets(
        final String store, final long warmup, final long ops, final int keyCount, final LongConsumer beforeClose)
    {
        final KeySet keys = KeySet.generate(keyCount, StoreBenchmark.KEY_LENGTH, StoreBenchmark.HIT_TAG);
        final Value value = new Value(StoreBenchmark.VALUE_LENGTH, 42);
        final StoreAdapter adapter = StoreKind.byId(store).open(keyCount, StoreBenchmark.KEY_LENGTH,
            StoreBenchmark.VALUE_LENGTH);
        try
        {
            for (int i = 0; i < keyCount; i++)
            {
                adapter.put(keys, i, value);
            }
            final ExpandableDirectByteBuffer dst = new ExpandableDirectByteBuffer(2 * StoreBenchmark.VALUE_LENGTH);
            final Rng rng = new Rng(0x5eed_0000L);
            final long sum = run(adapter, keys, rng, dst, warmup) + run(adapter, keys, rng, dst, ops);
            if (sum != (warmup + ops) * StoreBenchmark.VALUE_LENGTH)
            {
                throw new IllegalStateException("a GET missed: store=" + store + ", sum=" + sum);
            }
            beforeClose.accept(sum);
            return sum;
        }
        finally
        {
            adapter.close();
        }
    }

    private static long run(
        final StoreAdapter adapter, final KeySet keys, final Rng rng, final ExpandableDirectByteBuffer dst,
        final long ops)
    {
        final int keyCount = keys.count();
        long sum = 0;
        for (long i = 0; i < ops; i++)
        {
            sum += adapter.get(keys, Rng.index(rng.next(), keyCount), dst);
        }
        return sum;
    }
}
