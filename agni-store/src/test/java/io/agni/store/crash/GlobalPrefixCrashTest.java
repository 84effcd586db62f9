package io.agni.store.crash;

import io.agni.api.Durability;
import io.agni.store.OffHeapStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Kills a child JVM ({@link GlobalPrefixWriter}) whose threads write numbered operations through one shared
 * counter, with checkpoints among them, and checks that what comes back is one prefix of all the threads' writes
 * taken together (docs/durability.md), as {@link GlobalPrefixCheck} states it: whole operations only, none missing
 * that returned before one that is there began, the shared keys as the last of their writers there left them, and
 * with {@code DURABLE} and {@code PARANOID} every acknowledged operation; a second reopen finds the same.
 * {@link CrashRecoveryTest} checks each thread's prefix on its own.
 */
@Tag("crash")
class GlobalPrefixCrashTest
{
    private static final int THREADS = 3;
    private static final int KILLS_PER_PRESET = 6;
    private static final long CHILD_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path root;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void durableRecoversOnePrefixOfEveryThreadsWrites() throws Exception
    {
        killAndCheck(Durability.DURABLE, 41);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void paranoidRecoversOnePrefixOfEveryThreadsWrites() throws Exception
    {
        killAndCheck(Durability.PARANOID, 43);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void fastRecoversOnePrefixOfEveryThreadsWrites() throws Exception
    {
        killAndCheck(Durability.FAST, 47);
    }

    private void killAndCheck(final Durability durability, final long seed) throws Exception
    {
        final Random random = new Random(seed);
        for (int kill = 0; kill < KILLS_PER_PRESET; kill++)
        {
            final Path directory = Files.createDirectory(root.resolve(durability + "-" + kill));
            final long runSeed = seed * 1000 + kill;
            // Each operation writes two lines, its start and its ack; the child's first line is "open".
            final int lines = 1 + 2 * (50 + random.nextInt(1500));
            final String output = KilledChild.runAndKill(GlobalPrefixWriter.class, List.of(directory.toString(),
                durability.name(), Long.toString(runSeed), Integer.toString(THREADS)), lines, CHILD_DEADLINE_NANOS);
            final Map<String, CrashOps.Entry> recovered;
            try (OffHeapStore store = GlobalPrefixWriter.open(directory, durability))
            {
                recovered = GlobalPrefixCheck.read(store);
            }
            try (OffHeapStore store = GlobalPrefixWriter.open(directory, durability))
            {
                assertEquals(recovered, GlobalPrefixCheck.read(store), "a second reopen differs");
            }
            GlobalPrefixCheck.check(recovered, Timeline.parse(output), runSeed, durability != Durability.FAST,
                durability + " seed " + runSeed);
        }
    }
}
