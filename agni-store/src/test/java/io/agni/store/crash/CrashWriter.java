package io.agni.store.crash;

import io.agni.api.Durability;
import io.agni.store.OffHeapStore;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child of {@link CrashRecoveryTest}: opens a store on a directory, then writes with several threads, each
 * running its {@link CrashOps} and printing {@code ack <thread> <op>} after every operation returns, until it is
 * killed. Thread 0 checkpoints every {@link #CHECKPOINT_EVERY} of its operations.
 */
public final class CrashWriter
{
    static final int CHECKPOINT_EVERY = 300;

    private CrashWriter()
    {
    }

    /**
     * @param args directory, durability, seed, threads.
     * @throws Exception when the store fails; the test then sees no acks and an exit status.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path directory = Path.of(args[0]);
        final Durability durability = Durability.valueOf(args[1]);
        final long seed = Long.parseLong(args[2]);
        final int threads = Integer.parseInt(args[3]);
        final PrintStream out = new PrintStream(System.out, false);
        final OffHeapStore store = OffHeapStore.builder().shards(4).maxMemory(64L << 20).directory(directory)
            .durability(durability).build();
        synchronized (out)
        {
            out.println("open");
            out.flush();
        }
        final List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final int thread = t;
            final Thread writer = new Thread(() ->
            {
                final CrashOps ops = new CrashOps(seed, thread);
                for (int op = 1; ; op++)
                {
                    CrashOps.apply(store, ops.next());
                    synchronized (out)
                    {
                        out.println("ack " + thread + " " + op);
                        out.flush();
                    }
                    if (thread == 0 && op % CHECKPOINT_EVERY == 0)
                    {
                        store.checkpoint();
                    }
                }
            }, "crash-writer-" + t);
            writers.add(writer);
            writer.start();
        }
        for (final Thread writer : writers)
        {
            writer.join();
        }
    }
}
