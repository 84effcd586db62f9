package io.agni.store.crash;

import io.agni.store.OffHeapStore;

import java.util.function.BooleanSupplier;

/**
 * The loop of one writer thread of the global-prefix tests: numbered operations ({@link NumberedOps}) with every
 * start and acknowledgement written down by a shared {@link Recorder}. Thread 0 also makes the store durable now and
 * then, each time between a {@code durable-start} and a {@code durable-end} line: a checkpoint every
 * {@code checkpointEvery} of its operations (the snapshot and log boundary is where a global prefix could break),
 * and a sync every {@code syncEvery}.
 */
public final class NumberedWriters
{
    private NumberedWriters()
    {
    }

    /**
     * Writes until {@code running} says stop or the store throws.
     *
     * @param store           the store.
     * @param seed            the seed the operations are generated from.
     * @param thread          the writer's index, from 0.
     * @param recorder        the run's recorder, shared by its writers.
     * @param running         asked before each operation.
     * @param checkpointEvery how many of thread 0's operations between checkpoints.
     * @param syncEvery       how many of thread 0's operations between syncs, 0 for none.
     * @return what the store threw, or {@code null} if it was told to stop.
     */
    public static RuntimeException write(final OffHeapStore store, final long seed, final int thread,
        final Recorder recorder, final BooleanSupplier running, final int checkpointEvery, final int syncEvery)
    {
        try
        {
            for (long done = 1; running.getAsBoolean(); done++)
            {
                final long n = recorder.start(thread);
                CrashOps.apply(store, NumberedOps.op(seed, n, thread));
                recorder.ack(n);
                if (thread == 0 && done % checkpointEvery == 0)
                {
                    recorder.durableStart();
                    store.checkpoint();
                    recorder.durableEnd();
                }
                else if (thread == 0 && syncEvery > 0 && done % syncEvery == 0)
                {
                    recorder.durableStart();
                    store.sync();
                    recorder.durableEnd();
                }
            }
            return null;
        }
        catch (final RuntimeException ex)
        {
            return ex;
        }
    }
}
