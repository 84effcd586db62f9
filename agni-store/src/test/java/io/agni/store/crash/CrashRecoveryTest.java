package io.agni.store.crash;

import io.agni.api.Durability;
import io.agni.store.OffHeapStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kills a writing child JVM with SIGKILL at random moments and checks what it left: with {@code DURABLE} and
 * {@code PARANOID} every acknowledged operation is there; with every preset each thread's keys hold what a prefix of
 * its operations leaves (no batch half applied, no value never written); and a second reopen finds the same.
 */
@Tag("crash")
class CrashRecoveryTest
{
    private static final int THREADS = 3;
    private static final int KILLS_PER_PRESET = 18;
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path root;

    @Test
    void durable() throws Exception
    {
        killAndCheck(Durability.DURABLE, 11);
    }

    @Test
    void paranoid() throws Exception
    {
        killAndCheck(Durability.PARANOID, 23);
    }

    @Test
    void fast() throws Exception
    {
        killAndCheck(Durability.FAST, 37);
    }

    private void killAndCheck(final Durability durability, final long seed) throws Exception
    {
        final Random random = new Random(seed);
        for (int kill = 0; kill < KILLS_PER_PRESET; kill++)
        {
            final Path directory = Files.createDirectory(root.resolve(durability + "-" + kill));
            final long runSeed = seed * 1000 + kill;
            final int killAfterAcks = 50 + random.nextInt(1500);
            final int[] acked = runAndKill(directory, durability, runSeed, killAfterAcks);
            check(directory, durability, runSeed, acked);
        }
    }

    /**
     * Runs the child until it has acknowledged {@code acks} operations in all, kills it, and returns the last
     * operation each thread acknowledged.
     */
    private static int[] runAndKill(
        final Path directory, final Durability durability, final long seed, final int acks) throws Exception
    {
        // One line more than the acks: the child's "open".
        return lastAcked(KilledChild.runAndKill(CrashWriter.class, List.of(directory.toString(), durability.name(),
            Long.toString(seed), Integer.toString(THREADS)), acks + 1, DEADLINE_NANOS));
    }

    /**
     * The last acknowledged operation of each thread; a line cut by the kill (no newline) does not count.
     */
    private static int[] lastAcked(final String output)
    {
        final int[] last = new int[THREADS];
        final int end = output.lastIndexOf('\n');
        for (final String line : output.substring(0, Math.max(0, end)).split("\n"))
        {
            if (line.startsWith("ack "))
            {
                final String[] parts = line.split(" ");
                final int thread = Integer.parseInt(parts[1]);
                final int op = Integer.parseInt(parts[2]);
                assertEquals(last[thread] + 1, op, "thread " + thread + " acknowledged out of order");
                last[thread] = op;
            }
        }
        return last;
    }

    private static void check(final Path directory, final Durability durability, final long seed, final int[] acked)
    {
        final List<Map<String, CrashOps.Entry>> first = new ArrayList<>();
        try (OffHeapStore store = open(directory, durability))
        {
            for (int t = 0; t < THREADS; t++)
            {
                first.add(CrashOps.read(store, t));
            }
        }
        try (OffHeapStore store = open(directory, durability))
        {
            for (int t = 0; t < THREADS; t++)
            {
                assertTrue(first.get(t).equals(CrashOps.read(store, t)), "a second reopen differs, thread " + t);
            }
        }
        for (int t = 0; t < THREADS; t++)
        {
            final int prefix = matchingPrefix(seed, t, acked[t] + 1, first.get(t));
            assertTrue(prefix >= 0, durability + " seed " + seed + ": thread " + t + "'s " + first.get(t).size() +
                " keys hold no prefix of its operations (acknowledged " + acked[t] + ")");
            if (durability != Durability.FAST)
            {
                assertTrue(prefix >= acked[t], durability + " seed " + seed + ": thread " + t + " lost " +
                    "acknowledged operations: recovered the state after " + prefix + " of " + acked[t]);
            }
        }
    }

    /**
     * The largest k at most {@code limit} such that the first k operations leave {@code state}, or -1.
     */
    private static int matchingPrefix(final long seed, final int thread, final int limit,
        final Map<String, CrashOps.Entry> state)
    {
        final CrashOps ops = new CrashOps(seed, thread);
        final Map<String, CrashOps.Entry> model = new HashMap<>();
        int match = model.equals(state) ? 0 : -1;
        for (int k = 1; k <= limit; k++)
        {
            CrashOps.apply(model, ops.next());
            if (model.equals(state))
            {
                match = k;
            }
        }
        return match;
    }

    private static OffHeapStore open(final Path directory, final Durability durability)
    {
        return OffHeapStore.builder().shards(4).maxMemory(64L << 20).directory(directory).durability(durability)
            .build();
    }
}
