package io.agni.store.log;

import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Power loss, simulated by a file layer that keeps only what was synced: a record whose sync was awaited is never
 * lost, and what comes back is always a prefix of what was written.
 */
class LogPowerLossTest
{
    @TempDir
    Path root;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void awaitedRecordsSurviveAndTheRestIsAPrefix(final int seed) throws IOException
    {
        final Path directory = Files.createDirectory(root.resolve("log-" + seed));
        final Random random = new Random(seed);
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final LogWriter log = Logs.open(directory, files);
        if (seed % 2 == 0)
        {
            // PARANOID's way: records written through the file, not into the mapping.
            log.writeThrough();
        }
        final List<Logs.Entry> written = new ArrayList<>();
        final int records = 50 + random.nextInt(300);
        int lastDurable = 0;
        final List<Long> segmentOf = new ArrayList<>();
        for (int i = 1; i <= records; i++)
        {
            final String key = "k" + i;
            final String value = "v".repeat(random.nextInt(200));
            final long end = Logs.set(log, key, value);
            written.add(new Logs.Entry(LogLayout.SET, i, key, value, LogLayout.NO_EXPIRY));
            segmentOf.add(end >>> 40);
            if (random.nextInt(10) == 0)
            {
                log.awaitDurable(end);
                lastDurable = i;
            }
        }
        files.powerLoss();

        final List<Logs.Entry> recovered = Logs.replay(directory, FileLayer.system(), 1);
        assertTrue(recovered.size() >= lastDurable,
            "recovered " + recovered.size() + " records, " + lastDurable + " were durable");
        assertEquals(written.subList(0, recovered.size()), recovered);
        // Exactly what was synced survives: a sync covers every record appended before it, in every segment.
        assertEquals(lastDurable, recovered.size());
    }

    /**
     * The operating system writes dirty pages back in any order, so a power loss can keep a later page of the log
     * and lose an earlier one: what comes back is still a prefix, with every awaited record in it.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void aPowerLossThatKeepsSomeUnsyncedPagesGivesAPrefixWithEveryAwaitedRecord(final int seed) throws IOException
    {
        final Path directory = Files.createDirectory(root.resolve("log-" + seed));
        final Random random = new Random(seed);
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final LogWriter log = Logs.open(directory, files);
        if (seed % 2 == 0)
        {
            // PARANOID's way: records written through the file, not into the mapping.
            log.writeThrough();
        }
        final List<Logs.Entry> written = new ArrayList<>();
        final int records = 100 + random.nextInt(400);
        int lastDurable = 0;
        for (int i = 1; i <= records; i++)
        {
            final String key = "k" + i;
            final String value = "v".repeat(random.nextInt(300));
            final long end = Logs.set(log, key, value);
            written.add(new Logs.Entry(LogLayout.SET, i, key, value, LogLayout.NO_EXPIRY));
            if (random.nextInt(20) == 0)
            {
                log.awaitDurable(end);
                lastDurable = i;
            }
        }
        files.powerLoss(random, 0.5);

        final List<Logs.Entry> recovered = Logs.replay(directory, FileLayer.system(), 1);
        assertTrue(recovered.size() >= lastDurable,
            "recovered " + recovered.size() + " records, " + lastDurable + " were durable");
        assertEquals(written.subList(0, recovered.size()), recovered);
        assertEquals(recovered, Logs.replay(directory, FileLayer.system(), 1), "a second open finds the same");
    }
}
