package io.agni.store.log;

import io.agni.store.file.FileLayer;
import io.agni.store.file.HoldingFileLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A roll that takes the spare segment renames the spare's file outside any lock; the background thread that makes
 * the next spare must leave that file alone meanwhile. (It used to delete it and make a new one at the same path:
 * the roll then renamed the new file into place while it wrote into the unlinked old one, and its records were
 * gone at the next open.)
 */
class SpareSegmentRaceTest
{
    @TempDir
    Path directory;

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void makingASpareWhileARollRenamesTheLastOneLosesNothing() throws Exception
    {
        final AtomicBoolean holding = new AtomicBoolean();
        final HoldingFileLayer files = new HoldingFileLayer((call, path) -> holding.get() &&
            call == HoldingFileLayer.Call.MOVE && path.getFileName().toString().equals(LogReader.SPARE_NAME));
        final CountDownLatch entered = files.entered;
        final CountDownLatch release = files.release;
        final LogWriter log = Logs.open(directory, files);
        log.startSegment();
        log.prepareSpare();
        holding.set(true);

        // Appends until a roll takes the spare and stops inside its rename.
        final CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() ->
        {
            int n = 0;
            while (entered.getCount() > 0 || n < 40)
            {
                Logs.set(log, "k" + n, "v".repeat(100));
                n++;
            }
            return n;
        });
        assertTrue(entered.await(20, TimeUnit.SECONDS), "a roll renamed the spare");
        log.prepareSpare();
        release.countDown();
        final int written = writer.get(20, TimeUnit.SECONDS);

        assertNull(log.failure(), "the log did not fail");
        log.sync();
        log.close();
        final List<Logs.Entry> replayed = Logs.replay(directory, FileLayer.system(), 1);
        final long sets = replayed.stream().filter(e -> e.type() == LogLayout.SET).count();
        assertEquals(written, sets, "every record appended is replayed");
    }
}
