package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.Durability;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.api.StoreReadOnlyException;
import io.agni.api.Transactional;
import io.agni.api.WriteBatch;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import io.agni.store.log.LogLayout;
import io.agni.store.log.LogReader;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code runExclusive} (docs/architecture.md, "Exclusive sections"): the thread of a section can call every operation
 * without waiting for its own locks, no other thread's operation runs while it does, a refusal inside fails one
 * operation, and everything it changed is one log record, recovered whole; and {@code write(batch, found)} reports
 * what each operation found.
 */
class ExclusiveSectionTest
{
    private static final int SEGMENT = 64 * 1024;
    private static final long HOUR = 3_600_000L;

    @TempDir
    Path directory;

    private final CachedEpochClock clock = TestStores.clock();

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void everyOperationWorksOnTheThreadOfTheSection()
    {
        try (OffHeapStore store = TestStores.builder(4, clock).build())
        {
            store.set(b("counter"), b("41"));
            store.set(b("timed"), b("t"), SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + HOUR);
            store.set(b("expired"), b("e"), SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 10);
            clock.update(clock.time() + 20);

            store.runExclusive(() ->
            {
                assertNull(store.get(b("expired")), "an expired entry met by a read is removed in place");
                store.set(b("a"), b("1"));
                assertArrayEquals(b("1"), store.get(b("a")));
                final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(16);
                assertEquals(1, store.get(new UnsafeBuffer(b("a")), 0, 1, dst, 0), "zero-copy read");
                assertTrue(store.exists(b("a")));
                assertEquals(42, store.incrementBy(b("counter"), 1));
                assertEquals(3, store.append(b("a"), b("23")));
                assertEquals(5, store.setRange(b("a"), 3, b("45")));
                assertArrayEquals(b("234"), store.getRange(b("a"), 1, 3));
                assertEquals(5, store.valueLength(b("a")));
                assertArrayEquals(b("12345"), store.getAndSet(b("a"), b("x"), SetCondition.ALWAYS, ExpiryMode.CLEAR, 0));
                assertTrue(store.setAll(List.of(b("m1"), b("m2")), List.of(b("v1"), b("v2")), SetCondition.ALWAYS));
                assertEquals(List.of("v1", "v2", "x"), texts(store.getAll(List.of(b("m1"), b("m2"), b("a")))));
                store.write(new WriteBatch().set(b("w"), b("batch")).delete(b("m1")).persist(b("timed")));
                assertEquals(RenameResult.RENAMED, store.rename(b("w"), b("renamed"), true));
                assertTrue(store.expire(b("renamed"), clock.time() + HOUR, ExpireCondition.ALWAYS));
                assertEquals(HOUR, store.ttlMillis(b("renamed")));
                assertTrue(store.persist(b("renamed")));
                assertArrayEquals(b("v2"), store.getAndDelete(b("m2")));
                assertTrue(store.delete(b("a")));
                assertEquals(List.of("counter", "renamed", "timed"), scanAll(store));
                assertTrue(List.of("counter", "renamed", "timed").contains(text(store.randomKey())));
                assertEquals(3, store.size());
                assertEquals(3, store.stats().entries());
                assertEquals(0, store.sweepExpired());
                store.clear();
                assertEquals(0, store.size());
                store.set(b("after-clear"), b("c"));
            });

            assertEquals(List.of("after-clear"), scanAll(store));
            store.set(b("later"), b("l"));
            assertArrayEquals(b("l"), store.get(b("later")), "every lock was released");
            store.verifyIntegrity();
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anotherThreadsWriteWaitsUntilTheSectionEnds() throws InterruptedException
    {
        try (OffHeapStore store = TestStores.builder(4, clock).build())
        {
            store.set(b("k"), b("before"));
            final Thread writer = new Thread(() -> store.set(b("k"), b("other")), "writer");

            store.runExclusive(() ->
            {
                store.set(b("k"), b("mine"));
                writer.start();
                awaitParked(writer);
                assertTrue(writer.isAlive(), "the other thread's write waits");
                assertArrayEquals(b("mine"), store.get(b("k")));
            });

            writer.join();
            assertArrayEquals(b("other"), store.get(b("k")), "the waiting write came after the section");
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anotherThreadsReadsSeeTheSectionWholeOrNotAtAll() throws InterruptedException
    {
        try (OffHeapStore store = TestStores.builder(4, clock).build())
        {
            store.set(b("k"), b("before"));
            final AtomicReference<byte[]> single = new AtomicReference<>();
            final AtomicReference<List<byte[]>> several = new AtomicReference<>();
            final Thread reader = new Thread(() -> single.set(store.get(b("k"))), "reader");
            final Thread multiReader = new Thread(() -> several.set(store.getAll(List.of(b("k"), b("j")))), "getAll");

            store.runExclusive(() ->
            {
                store.set(b("k"), b("half-done"));
                reader.start();
                multiReader.start();
                awaitParked(reader);
                awaitParked(multiReader);
                store.set(b("k"), b("done"));
                store.set(b("j"), b("done too"));
            });

            reader.join();
            multiReader.join();
            assertArrayEquals(b("done"), single.get());
            assertEquals(List.of("done", "done too"), texts(several.get()));
        }
    }

    @Test
    void aNestedSectionRunsWithinTheOuterOne()
    {
        try (OffHeapStore store = TestStores.builder(2, clock).build())
        {
            final List<String> steps = new ArrayList<>();
            store.runExclusive(() ->
            {
                steps.add("outer");
                store.runExclusive(() ->
                {
                    steps.add("inner");
                    store.set(b("k"), b("v"));
                });
                assertArrayEquals(b("v"), store.get(b("k")));
            });
            assertEquals(List.of("outer", "inner"), steps);
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aRefusedOperationChangesNothingAndTheOthersStay()
    {
        try (OffHeapStore store = TestStores.builder(1, clock).maxMemory(1 << 20).build())
        {
            final List<String> written = new ArrayList<>();
            final AtomicReference<CapacityExceededException> refused = new AtomicReference<>();

            store.runExclusive(() ->
            {
                store.set(b("small"), b("s"));
                for (int i = 0; i < 20 && refused.get() == null; i++)
                {
                    try
                    {
                        store.set(b("large" + i), new byte[100_000]);
                        written.add("large" + i);
                    }
                    catch (final CapacityExceededException ex)
                    {
                        refused.set(ex);
                        assertNull(store.get(b("large" + i)), "the refused set changed nothing");
                    }
                }
                assertArrayEquals(b("s"), store.get(b("small")));
            });

            assertTrue(refused.get() != null, "the budget refused a set");
            assertEquals(written.size() + 1, store.size(), "the writes before the refusal stay: " + written);
            store.verifyIntegrity();
        }
    }

    @Test
    void aSectionOnAStoreWhoseLogFailedServesReadsAndRefusesWrites()
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(Durability.PARANOID, files))
        {
            store.set(b("before"), b("1"));
            files.failNextSync(new IOException("Input/output error"));
            assertThrows(RuntimeException.class, () -> store.set(b("a"), b("2")));

            store.runExclusive(() ->
            {
                assertArrayEquals(b("1"), store.get(b("before")));
                assertThrows(StoreReadOnlyException.class, () -> store.set(b("b"), b("3")));
                assertThrows(StoreReadOnlyException.class, () -> store.delete(b("before")));
                assertArrayEquals(b("1"), store.get(b("before")));
            });
            assertArrayEquals(b("1"), store.get(b("before")));
        }
    }

    @Test
    void closingOrCheckpointingInsideTheSectionIsRefused()
    {
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            store.runExclusive(() ->
            {
                assertThrows(IllegalStateException.class, store::checkpoint);
                assertThrows(IllegalStateException.class, store::close);
                store.set(b("k"), b("v"));
            });
            assertArrayEquals(b("v"), store.get(b("k")));
            store.checkpoint();
        }
    }

    @Test
    void aSectionIsOneLogRecordAppendedWhenItEnds() throws IOException
    {
        final Map<String, String> expected;
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            store.set(b("old"), b("o"));
            store.set(b("counter"), b("1"));
            final long recordsBefore = store.checkpointStatus().changesSinceCheckpoint();

            store.runExclusive(() ->
            {
                store.set(b("a"), b("1"));
                store.incrementBy(b("counter"), 5);
                store.setAll(List.of(b("m1"), b("m2")), List.of(b("x"), b("y")), SetCondition.ALWAYS);
                store.write(new WriteBatch().set(b("w"), b("batch"), ExpiryMode.AFTER, HOUR).delete(b("m2")));
                store.rename(b("m1"), b("moved"), true);
                store.delete(b("old"));
                store.expire(b("a"), clock.time() + 2 * HOUR, ExpireCondition.ALWAYS);
                assertEquals(recordsBefore, store.checkpointStatus().changesSinceCheckpoint(),
                    "nothing is logged while the section runs");
            });

            assertEquals(recordsBefore + 1, store.checkpointStatus().changesSinceCheckpoint());
            expected = contents(store);
            store.closeWithoutCheckpoint();
        }

        final List<Byte> types = new ArrayList<>();
        LogReader.replay(directory, FileLayer.system(), SEGMENT, 1,
            (type, sequence, buffer, offset, length) -> types.add(type)).writer().close();
        assertEquals(List.of(LogLayout.SET, LogLayout.SET, LogLayout.BATCH), types);

        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertEquals(expected, contents(store));
            assertEquals(Map.of("a", "1@" + (TestStores.START_MS + 2 * HOUR), "counter", "6@-1",
                "moved", "x@-1", "w", "batch@" + (TestStores.START_MS + HOUR)), expected);
        }
    }

    @Test
    void aClearInsideASectionIsReplayedInItsPlace()
    {
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            store.set(b("x"), b("gone"));
            store.runExclusive(() ->
            {
                store.set(b("a"), b("gone too"));
                store.clear();
                store.set(b("b"), b("kept"));
            });
            store.closeWithoutCheckpoint();
        }
        try (OffHeapStore store = open(Durability.DURABLE, FileLayer.system()))
        {
            assertEquals(Map.of("b", "kept@-1"), contents(store));
        }
    }

    @Test
    void writeReportsWhatEachOperationFound()
    {
        try (OffHeapStore store = TestStores.builder(4, clock).build())
        {
            store.set(b("plain"), b("p"));
            store.set(b("timed"), b("t"), SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + HOUR);
            final WriteBatch batch = new WriteBatch()
                .delete(b("plain"))
                .delete(b("plain"))
                .persist(b("timed"))
                .persist(b("timed"))
                .expireAfter(b("absent"), HOUR)
                .set(b("new"), b("n"), ExpiryMode.AFTER, HOUR)
                .expire(b("new"), clock.time() - 1)
                .expire(b("new"), clock.time() + HOUR);
            final byte[] found = new byte[batch.size() + 1];
            Arrays.fill(found, (byte)-1);

            store.write(batch, found);

            final byte present = Transactional.KEY_PRESENT;
            final byte expiring = Transactional.KEY_PRESENT | Transactional.KEY_EXPIRING;
            assertArrayEquals(new byte[] {present, 0, expiring, present, 0, 0, expiring, 0, -1}, found);
            assertEquals(List.of("timed"), scanAll(store));
            assertThrows(IllegalArgumentException.class, () -> store.write(batch, new byte[batch.size() - 1]));
            assertEquals(List.of("timed"), scanAll(store), "a short array is refused before anything changes");
        }
    }

    /**
     * Waits until a thread is parked (waiting for a lock), failing after a deadline.
     */
    private static void awaitParked(final Thread thread)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING)
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail(thread.getName() + " did not wait for the section: " + thread.getState());
            }
            LockSupport.parkNanos(100_000);
        }
    }

    private OffHeapStore open(final Durability durability, final FileLayer files)
    {
        return OffHeapStore.builder().shards(4).maxMemory(TestStores.ROOMY_BUDGET).clock(clock)
            .expirySweepInterval(Duration.ZERO).directory(directory).durability(durability).fileLayer(files)
            .logSegmentBytes(SEGMENT).build();
    }

    private static List<String> scanAll(final AgniStore store)
    {
        final List<String> keys = new ArrayList<>();
        long cursor = 0;
        do
        {
            final ScanResult page = store.scan(cursor, null, 1000);
            for (final byte[] key : page.keys())
            {
                keys.add(text(key));
            }
            cursor = page.cursor();
        }
        while (cursor != 0);
        keys.sort(String::compareTo);
        return keys;
    }

    private static Map<String, String> contents(final AgniStore store)
    {
        final Map<String, String> all = new TreeMap<>();
        for (final String key : scanAll(store))
        {
            all.put(key, text(store.get(b(key))) + "@" + store.expireTimeMillis(b(key)));
        }
        return all;
    }

    private static List<String> texts(final List<byte[]> values)
    {
        final List<String> texts = new ArrayList<>();
        for (final byte[] value : values)
        {
            texts.add(text(value));
        }
        return texts;
    }

    private static String text(final byte[] bytes)
    {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
