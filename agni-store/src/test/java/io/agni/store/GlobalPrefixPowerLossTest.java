package io.agni.store;

import io.agni.api.Durability;
import io.agni.store.crash.CrashOps;
import io.agni.store.crash.GlobalPrefixCheck;
import io.agni.store.crash.NumberedWriters;
import io.agni.store.crash.Recorder;
import io.agni.store.crash.Timeline;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writers on several threads number their operations through one shared counter, with checkpoints and syncs among
 * them, until the power goes out with part of the pages not synced written back in no order
 * ({@link FaultInjectingFileLayer#powerLoss(Random, double)}); the store opened on what reached the disk must hold
 * one prefix of all the threads' writes taken together, as {@link GlobalPrefixCheck} states it. With
 * {@code DURABLE} acknowledged operations may be lost, but never one that returned before an operation that is
 * there began, nor one acknowledged before a checkpoint or sync that returned; with {@code PARANOID}, none.
 */
@Tag("once")
class GlobalPrefixPowerLossTest
{
    private static final int THREADS = 3;
    private static final int RUNS = 10;
    private static final int SEGMENT = 64 * 1024;
    private static final int CHECKPOINT_EVERY = 150;
    private static final int SYNC_EVERY = 40;
    private static final long RUN_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final long WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    @TempDir
    Path root;

    @ParameterizedTest
    @EnumSource(value = Durability.class, names = {"DURABLE", "PARANOID"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aPowerLossLeavesOnePrefixOfEveryThreadsWrites(final Durability durability) throws Exception
    {
        final Random random = new Random(durability == Durability.DURABLE ? 53 : 59);
        for (int run = 0; run < RUNS; run++)
        {
            final Path directory = Files.createDirectory(root.resolve(durability + "-" + run));
            final long runSeed = random.nextLong();
            final List<String> lines = new ArrayList<>();
            final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
            writeUntilPowerLoss(open(directory, durability, files), files, new Recorder(lines::add), runSeed,
                50 + random.nextInt(1500), random.nextDouble());
            final Map<String, CrashOps.Entry> recovered;
            try (OffHeapStore store = open(directory, durability, FileLayer.system()))
            {
                recovered = GlobalPrefixCheck.read(store);
            }
            try (OffHeapStore store = open(directory, durability, FileLayer.system()))
            {
                assertEquals(recovered, GlobalPrefixCheck.read(store), "a second reopen differs");
            }
            GlobalPrefixCheck.check(recovered, Timeline.parse(lines), runSeed, durability == Durability.PARANOID,
                durability + " seed " + runSeed);
        }
    }

    /**
     * Runs the writers until {@code acks} operations were acknowledged, cuts the power while they go on, then
     * stops them and closes the store (which fails: the power is off). A writer the store fails before the power
     * is cut fails the test.
     */
    private static void writeUntilPowerLoss(final OffHeapStore store, final FaultInjectingFileLayer files,
        final Recorder recorder, final long seed, final int acks, final double writeback) throws Exception
    {
        final long deadline = System.nanoTime() + RUN_DEADLINE_NANOS;
        // Set before the power is cut: from then on the store may fail writers.
        final AtomicBoolean cutting = new AtomicBoolean();
        // Set once it is cut, or when a writer failed before: the writers stop.
        final AtomicBoolean stop = new AtomicBoolean();
        try (store)
        {
            final Workers writers = new Workers("global-prefix-writer").add(THREADS, thread ->
            {
                final RuntimeException failure = NumberedWriters.write(store, seed, thread, recorder,
                    () -> !stop.get(), CHECKPOINT_EVERY, SYNC_EVERY);
                if (failure != null && !cutting.get())
                {
                    stop.set(true);
                    throw failure;
                }
            }).start();
            // In slices, so that a writer that failed ends the wait at once (the join reports its failure).
            boolean reached = false;
            while (!reached && !stop.get() && System.nanoTime() < deadline)
            {
                reached = recorder.awaitAcks(acks, Math.min(deadline, System.nanoTime() + WAIT_SLICE_NANOS));
            }
            if (reached)
            {
                cutting.set(true);
                files.powerLoss(new Random(seed), writeback);
            }
            stop.set(true);
            writers.join(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertTrue(reached, "the writers did not acknowledge " + acks + " operations");
            try
            {
                store.close();
            }
            catch (final RuntimeException expected)
            {
                // The last checkpoint cannot be written.
            }
        }
    }

    private static OffHeapStore open(final Path directory, final Durability durability, final FileLayer files)
    {
        return OffHeapStore.builder().shards(4).maxMemory(TestStores.ROOMY_BUDGET).directory(directory)
            .durability(durability).fileLayer(files).logSegmentBytes(SEGMENT).build();
    }
}
