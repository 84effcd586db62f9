package io.agni.store;

import io.agni.api.Durability;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreReadOnlyException;
import io.agni.store.crash.CrashOps;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import io.agni.store.log.LogLayout;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@link OffHeapStore} with a directory: every kind of write comes back after a close, after a simulated power
 * loss what each preset promises survives, and a failed sync or a full disk stops writes.
 */
class DurableStoreTest
{
    private static final int SEGMENT = 64 * 1024;

    @TempDir
    Path directory;

    private final CachedEpochClock clock = TestStores.clock();

    @ParameterizedTest
    @EnumSource(value = Durability.class, names = {"FAST", "DURABLE", "PARANOID"})
    void everyKindOfWriteComesBackAfterAClose(final Durability durability)
    {
        final Map<String, String> expected;
        try (OffHeapStore store = open(durability, FileLayer.system()))
        {
            store.set(b("plain"), b("1"));
            store.set(b("expiring"), b("2"), SetCondition.ALWAYS, ExpiryMode.AT, TestStores.START_MS + 60_000);
            store.set(b("gone"), b("3"));
            store.delete(b("gone"));
            store.append(b("appended"), b("ab"));
            store.append(b("appended"), b("cd"));
            store.incrementBy(b("counter"), 41);
            store.incrementBy(b("counter"), 1);
            store.incrementByFloat(b("float"), 1.5);
            store.set(b("ranged"), b("hello world"));
            store.setRange(b("ranged"), 0, b("J"));
            store.setRange(b("ranged"), 20, b("!"));
            store.getAndSet(b("swapped"), b("new"), SetCondition.ALWAYS, ExpiryMode.CLEAR, 0);
            store.set(b("taken"), b("x"));
            store.getAndDelete(b("taken"));
            store.set(b("persisted"), b("p"), SetCondition.ALWAYS, ExpiryMode.AT, TestStores.START_MS + 5_000);
            store.persist(b("persisted"));
            store.set(b("expire-later"), b("e"));
            store.expire(b("expire-later"), TestStores.START_MS + 90_000, ExpireCondition.ALWAYS);
            store.set(b("old-name"), b("renamed"));
            store.rename(b("old-name"), b("new-name"), true);
            store.setAll(List.of(b("m1"), b("m2"), b("m3")), List.of(b("a"), b("b"), b("c")), SetCondition.ALWAYS);
            store.set(b("expired"), b("soon gone"), SetCondition.ALWAYS, ExpiryMode.AT, TestStores.START_MS + 10);
            for (int i = 0; i < 2_000; i++)
            {
                store.set(b("bulk-" + (i % 300)), b("value-" + i + "-" + "z".repeat(i % 97)));
            }
            expected = contents(store);
            assertEquals(TestStores.START_MS + 60_000, store.expireTimeMillis(b("expiring")));
        }
        clock.update(TestStores.START_MS + 20);
        try (OffHeapStore store = open(durability, FileLayer.system()))
        {
            expected.remove("expired");
            assertEquals(expected, contents(store));
            assertEquals(TestStores.START_MS + 60_000, store.expireTimeMillis(b("expiring")));
            assertEquals(TestStores.START_MS + 90_000, store.expireTimeMillis(b("expire-later")));
            assertEquals(-1, store.expireTimeMillis(b("persisted")));
            assertNull(store.get(b("old-name")));
            assertArrayEquals(b("Jello world\0\0\0\0\0\0\0\0\0!"), store.get(b("ranged")));
        }
        assertEquals(1, files(".snap").size());
        assertEquals(List.of(), files(".log"));
    }

    @Test
    void aKeyPersistedOrExtendedBeforeItsFirstTimeSurvivesARecoveryAfterThatTime()
    {
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            store.set(b("persisted"), b("1"), SetCondition.ALWAYS, ExpiryMode.AFTER, 1_000);
            store.persist(b("persisted"));
            store.set(b("extended"), b("2"), SetCondition.ALWAYS, ExpiryMode.AFTER, 1_000);
            store.expire(b("extended"), TestStores.START_MS + 60_000, ExpireCondition.ALWAYS);
            store.closeWithoutCheckpoint();
        }
        clock.update(TestStores.START_MS + 2_000);
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertArrayEquals(b("1"), store.get(b("persisted")));
            assertEquals(-1, store.expireTimeMillis(b("persisted")));
            assertArrayEquals(b("2"), store.get(b("extended")));
            assertEquals(TestStores.START_MS + 60_000, store.expireTimeMillis(b("extended")));
        }
    }

    @Test
    void aClearIsKeptAndWritesAfterItToo()
    {
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            for (int i = 0; i < 100; i++)
            {
                store.set(b("k" + i), b("v" + i));
            }
            store.clear();
            store.set(b("after"), b("clear"));
            abandon(store);
        }
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertEquals(Map.of("after", "clear"), contents(store));
        }
    }

    @Test
    void theLogAloneBringsEveryAcknowledgedWriteBack()
    {
        final Map<String, String> expected;
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            for (int i = 0; i < 3_000; i++)
            {
                store.set(b("k" + (i % 500)), b("value-" + i));
                if (i % 7 == 0)
                {
                    store.delete(b("k" + (i % 11)));
                }
            }
            expected = contents(store);
            abandon(store);
        }
        assertTrue(files(".log").size() > 1, "the log spans segments");
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertEquals(expected, contents(store));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Durability.class, names = {"DURABLE", "PARANOID"})
    void afterAPowerLossWhatWasSyncedIsThereAndNothingHalfDone(final Durability durability) throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final CrashOps ops = new CrashOps(5, 0);
        final List<CrashOps.Op> done = new ArrayList<>();
        try (OffHeapStore store = open(durability, files))
        {
            for (int i = 0; i < 400; i++)
            {
                final CrashOps.Op op = ops.next();
                CrashOps.apply(store, op);
                done.add(op);
            }
            files.powerLoss();
            assertThrows(RuntimeException.class, store::close);
        }
        try (OffHeapStore store = open(durability, FileLayer.system()))
        {
            final Map<String, CrashOps.Entry> recovered = CrashOps.read(store, 0);
            final Map<String, CrashOps.Entry> model = new HashMap<>();
            int prefix = model.equals(recovered) ? 0 : -1;
            for (int k = 1; k <= done.size(); k++)
            {
                CrashOps.apply(model, done.get(k - 1));
                if (model.equals(recovered))
                {
                    prefix = k;
                }
            }
            assertTrue(prefix >= 0, "the recovered state is no prefix of the writes: " + recovered);
            if (durability == Durability.PARANOID)
            {
                assertEquals(done.size(), prefix, "PARANOID lost acknowledged writes");
            }
        }
    }

    @Test
    void aSyncMakesEveryAcknowledgedWriteSurviveAPowerLoss() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.DURABLE, files))
        {
            for (int i = 0; i < 200; i++)
            {
                store.set(b("k" + i), b("v" + i));
            }
            store.sync();
            store.set(b("after-sync"), b("lost"));
            files.powerLoss();
            assertThrows(RuntimeException.class, store::close);
        }
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            final Map<String, String> recovered = contents(store);
            assertEquals(200, recovered.size());
            assertEquals("v199", recovered.get("k199"));
        }
    }

    @Test
    void aCheckpointStoppedWhileDeletingSegmentsLeavesAHoleTheSnapshotCovers() throws IOException
    {
        final Path kept = Files.createDirectories(directory.resolve("kept"));
        final Map<String, String> expected;
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            for (int i = 0; i < 3_000; i++)
            {
                store.set(b("k" + (i % 500)), b("value-" + i + "-" + "x".repeat(i % 50)));
            }
            abandon(store);
        }
        for (final Path segment : files(".log"))
        {
            Files.copy(segment, kept.resolve(segment.getFileName()));
        }
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            store.checkpoint();
            store.set(b("after"), b("the checkpoint"));
            expected = contents(store);
            abandon(store);
        }
        // The checkpoint deleted segments 1 to n-1; as if it had stopped with only segment n-1 deleted.
        final long firstLeft = files(".log").stream()
            .mapToLong(p -> LogLayout.segmentIdOf(p.getFileName().toString())).min().orElseThrow();
        assertTrue(firstLeft >= 3, "the checkpoint deleted segments: " + files(".log"));
        for (long id = 1; id < firstLeft - 1; id++)
        {
            Files.copy(kept.resolve(LogLayout.segmentFileName(id)), directory.resolve(LogLayout.segmentFileName(id)));
        }

        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertEquals(expected, contents(store));
        }
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertEquals(expected, contents(store));
        }
    }

    @Test
    void aFailedSyncMakesTheStoreReadOnlyAndSaysWhy()
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.PARANOID, files))
        {
            store.set(b("before"), b("1"));
            files.failNextSync(new IOException("Input/output error"));
            final RuntimeException failed = assertThrows(RuntimeException.class, () -> store.set(b("a"), b("2")));
            assertTrue(failed.getMessage().contains("syncing"), failed.getMessage());
            final RuntimeException refused = assertThrows(RuntimeException.class, () -> store.set(b("b"), b("3")));
            assertTrue(refused instanceof StoreReadOnlyException, refused.toString());
            assertNull(store.get(b("b")));
            assertArrayEquals(b("1"), store.get(b("before")));
        }
    }

    @Test
    void aFullDiskStopsWritesAndSaysSo()
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.DURABLE, files))
        {
            store.set(b("first"), b("1"));
            // Every create fails from now on: the background thread's spare segment may be the first to try.
            files.failCreates(new IOException("No space left on device"));
            final RuntimeException full = assertThrows(RuntimeException.class, () ->
            {
                for (int i = 0; i < 10_000; i++)
                {
                    store.set(b("k" + i), b("v".repeat(200)));
                }
            });
            assertTrue(full.getMessage().contains("the disk is full"), full.getMessage());
            assertThrows(RuntimeException.class, () -> store.set(b("more"), b("x")));
        }
    }

    @Test
    void aDirectoryHasOneOpenStore()
    {
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            store.set(b("a"), b("1"));
            assertThrows(DirectoryInUseException.class, () -> open(Durability.DURABLE, FileLayer.system()));
        }
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertArrayEquals(b("1"), store.get(b("a")));
        }
    }

    @Test
    void presetsAndDirectoriesGoTogether()
    {
        assertThrows(IllegalArgumentException.class, () -> OffHeapStore.builder().durability(Durability.DURABLE)
            .maxMemory(TestStores.ROOMY_BUDGET).build());
        assertThrows(IllegalArgumentException.class, () -> OffHeapStore.builder().directory(directory)
            .durability(Durability.NONE).maxMemory(TestStores.ROOMY_BUDGET).build());
        try (OffHeapStore store = OffHeapStore.builder().directory(directory).shards(2)
            .maxMemory(TestStores.ROOMY_BUDGET).build())
        {
            assertEquals(Durability.DURABLE, store.durability());
        }
        try (OffHeapStore store = OffHeapStore.builder().shards(2).maxMemory(TestStores.ROOMY_BUDGET).build())
        {
            assertEquals(Durability.NONE, store.durability());
            assertThrows(IllegalStateException.class, store::checkpoint);
        }
    }

    @Test
    void aCleanCloseLeavesTheSnapshotAndOneSegmentForReuseWhichTheNextOpenDoesNotNeed() throws IOException
    {
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            store.set(b("kept"), b("across the close"));
        }
        final List<Path> recycled;
        try (Stream<Path> files = Files.list(directory))
        {
            recycled = files.filter(p -> p.getFileName().toString().startsWith("wal-recycled-")).toList();
        }
        assertEquals(1, recycled.size(), "docs/durability.md: one segment kept for reuse");
        Files.delete(recycled.get(0));
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertArrayEquals(b("across the close"), store.get(b("kept")), "deleting it while closed loses nothing");
            store.set(b("after"), b("the reopen"));
        }
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertArrayEquals(b("the reopen"), store.get(b("after")));
        }
    }

    private OffHeapStore open(final Durability durability, final FileLayer files)
    {
        return OffHeapStore.builder().shards(4).maxMemory(TestStores.ROOMY_BUDGET).clock(clock)
            .expirySweepInterval(Duration.ZERO).directory(directory)
            .durability(durability).fileLayer(files).logSegmentBytes(SEGMENT).build();
    }

    /**
     * Gives the directory up as a crash would: no checkpoint, the log as it is.
     */
    private static void abandon(final OffHeapStore store)
    {
        store.closeWithoutCheckpoint();
    }

    private static Map<String, String> contents(final OffHeapStore store)
    {
        final Map<String, String> all = new TreeMap<>();
        long cursor = 0;
        do
        {
            final io.agni.api.ScanResult page = store.scan(cursor, null, 1000);
            for (final byte[] key : page.keys())
            {
                all.put(new String(key, StandardCharsets.UTF_8), new String(store.get(key), StandardCharsets.UTF_8));
            }
            cursor = page.cursor();
        }
        while (cursor != 0);
        return all;
    }

    private List<Path> files(final String suffix)
    {
        try (Stream<Path> list = Files.list(directory))
        {
            return list.filter(p -> p.getFileName().toString().endsWith(suffix)).toList();
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
