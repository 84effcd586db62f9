package io.agni.store.log;

import io.agni.store.file.FileLayer;
import io.agni.store.file.ForwardingFileLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final HoldingSpareRename files = new HoldingSpareRename(FileLayer.system(), entered, release);
        final LogWriter log = Logs.open(directory, files);
        log.startSegment();
        log.prepareSpare();
        files.holding = true;

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

    /**
     * Holds the first rename of the spare segment's file until the test releases it.
     */
    private static final class HoldingSpareRename extends ForwardingFileLayer
    {
        private final CountDownLatch entered;
        private final CountDownLatch release;
        volatile boolean holding;

        HoldingSpareRename(final FileLayer files, final CountDownLatch entered, final CountDownLatch release)
        {
            super(files);
            this.entered = entered;
            this.release = release;
        }

        @Override
        public void move(final Path from, final Path to) throws IOException
        {
            if (holding && from.getFileName().toString().equals(LogReader.SPARE_NAME) && entered.getCount() > 0)
            {
                entered.countDown();
                try
                {
                    if (!release.await(20, TimeUnit.SECONDS))
                    {
                        throw new IOException("the test never released the rename");
                    }
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    throw new IOException(ex);
                }
            }
            super.move(from, to);
        }
    }
}
