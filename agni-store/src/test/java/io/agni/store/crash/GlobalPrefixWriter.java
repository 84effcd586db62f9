package io.agni.store.crash;

import io.agni.api.Durability;
import io.agni.store.OffHeapStore;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child of {@link GlobalPrefixCrashTest}: opens a store on a directory, says {@code open}, then runs
 * {@link NumberedWriters} on several threads, each line of their {@link Recorder} flushed at once (a line still in
 * a buffer when the child is killed would be lost), until it is killed. Thread 0 checkpoints every
 * {@link #CHECKPOINT_EVERY} of its operations. A writer the store fails ends the child with status 1.
 */
public final class GlobalPrefixWriter
{
    static final int CHECKPOINT_EVERY = 150;

    private GlobalPrefixWriter()
    {
    }

    /**
     * @param args directory, durability, seed, threads.
     * @throws Exception when the store cannot be opened; the test then sees no lines and an exit status.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path directory = Path.of(args[0]);
        final Durability durability = Durability.valueOf(args[1]);
        final long seed = Long.parseLong(args[2]);
        final int threads = Integer.parseInt(args[3]);
        final PrintStream out = new PrintStream(System.out, false);
        final OffHeapStore store = open(directory, durability);
        final Recorder recorder = new Recorder(line ->
        {
            out.println(line);
            out.flush();
        });
        out.println("open");
        out.flush();
        final List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final int thread = t;
            final Thread writer = new Thread(() ->
            {
                final RuntimeException failure = NumberedWriters.write(store, seed, thread, recorder, () -> true,
                    CHECKPOINT_EVERY, 0);
                failure.printStackTrace();
                Runtime.getRuntime().halt(1);
            }, "global-prefix-writer-" + t);
            writers.add(writer);
            writer.start();
        }
        for (final Thread writer : writers)
        {
            writer.join();
        }
    }

    /**
     * Opens the store the child writes and the test reopens.
     */
    static OffHeapStore open(final Path directory, final Durability durability)
    {
        return OffHeapStore.builder().shards(4).maxMemory(64L << 20).directory(directory).durability(durability)
            .build();
    }
}
