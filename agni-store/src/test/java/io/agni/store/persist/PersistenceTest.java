package io.agni.store.persist;

import io.agni.api.Durability;
import io.agni.store.DirectoryInUseException;
import io.agni.store.LogCorruptedException;
import io.agni.store.SnapshotDamagedException;
import io.agni.store.file.Crc;
import io.agni.store.file.FileLayer;
import io.agni.store.file.MappedFile;
import io.agni.store.log.LogLayout;
import io.agni.store.log.LogWriter;
import io.agni.store.snapshot.SnapshotLayout;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PersistenceTest
{
    private static final int SEGMENT = 4096;

    @TempDir
    Path directory;

    private final FakeClock clock = new FakeClock();

    @Test
    void theLogAloneBringsTheStateBack() throws IOException
    {
        final MapState state = new MapState();
        final Persistence persistence = open(Durability.DURABLE, state);
        set(persistence.log(), "a", "1", 0);
        set(persistence.log(), "b", "2", 99);
        delete(persistence.log(), "a");
        expire(persistence.log(), "b", 0);
        set(persistence.log(), "c", "3", 0);
        persistence.close(); // as a crash: no checkpoint

        final MapState reopened = new MapState();
        open(Durability.DURABLE, reopened).close();
        assertEquals(map("b", "2", 0, "c", "3", 0), reopened.entries);
    }

    @Test
    void aDirectoryOpenCreatesIsMadeDurableInItsParent() throws IOException
    {
        final List<Path> synced = new java.util.ArrayList<>();
        final FileLayer files = new io.agni.store.file.ForwardingFileLayer(FileLayer.system())
        {
            @Override
            public void syncDirectory(final Path path) throws IOException
            {
                synced.add(path);
                super.syncDirectory(path);
            }
        };
        final Path nested = directory.resolve("a").resolve("b");
        final MapState state = new MapState();
        Persistence.open(nested, Durability.DURABLE, files, SEGMENT, state, state, clock).close();
        assertTrue(synced.contains(directory.toAbsolutePath()), "synced " + synced);
        assertTrue(synced.contains(directory.resolve("a").toAbsolutePath()), "synced " + synced);

        synced.clear();
        Persistence.open(nested, Durability.DURABLE, files, SEGMENT, state, state, clock).close();
        assertFalse(synced.contains(directory.toAbsolutePath()), "nothing was created: " + synced);
    }

    @Test
    void aStoreClosedWithoutAChangeSinceItsSnapshotKeepsThatSnapshot() throws IOException
    {
        final java.util.concurrent.atomic.AtomicInteger snapshots = new java.util.concurrent.atomic.AtomicInteger();
        final FileLayer files = new io.agni.store.file.ForwardingFileLayer(FileLayer.system())
        {
            @Override
            public io.agni.store.file.WritableFile createWritable(final Path path) throws IOException
            {
                snapshots.incrementAndGet();
                return super.createWritable(path);
            }
        };
        final MapState state = new MapState();
        final Persistence first = Persistence.open(directory, Durability.DURABLE, files, SEGMENT, state, state, clock);
        apply(state, first.log(), "a", "1");
        first.close(state);
        assertEquals(1, snapshots.get());

        final MapState reopened = new MapState();
        Persistence.open(directory, Durability.DURABLE, files, SEGMENT, reopened, reopened, clock).close(reopened);
        assertEquals(1, snapshots.get(), "nothing changed: the snapshot is not written again");

        final MapState third = new MapState();
        final Persistence changed = Persistence.open(directory, Durability.DURABLE, files, SEGMENT, third, third,
            clock);
        apply(third, changed.log(), "b", "2");
        changed.close(third);
        assertEquals(2, snapshots.get());

        final MapState last = new MapState();
        open(Durability.DURABLE, last).close();
        assertEquals(map("a", "1", 0, "b", "2", 0), last.entries);
    }

    @Test
    void aCheckpointIsDueOnceTheLogHasGrownByTheLiveDataSoAFillWritesNone() throws IOException
    {
        final MapState state = new MapState();
        try (Persistence persistence = open(Durability.DURABLE, state))
        {
            for (int i = 0; i < 100; i++)
            {
                apply(state, persistence.log(), "key-" + i, "v".repeat(100));
            }
            persistence.checkpoint(state);
            // A fill: the log grows, and the live data with it, so no checkpoint is due however far it goes.
            for (int i = 100; i < 400; i++)
            {
                apply(state, persistence.log(), "key-" + i, "v".repeat(100));
                assertFalse(persistence.checkpointDue(1, state.estimatedSnapshotBytes()), "after key " + i);
            }
            // Overwrites: the live data stays, the log grows past it.
            int overwrites = 0;
            while (!persistence.checkpointDue(1, state.estimatedSnapshotBytes()))
            {
                apply(state, persistence.log(), "key-" + overwrites % 400, "w".repeat(100));
                overwrites++;
                assertTrue(overwrites <= 400, "not due after the whole store was written over");
            }
            assertTrue(overwrites > 0, "the fill alone made it due");
        }
    }

    @Test
    void aCheckpointPrunesTheLogAndReplayStartsAtItsSequence() throws IOException
    {
        final MapState state = new MapState();
        final Persistence persistence = open(Durability.DURABLE, state);
        for (int i = 0; i < 300; i++)
        {
            apply(state, persistence.log(), "key-" + (i % 50), "value-" + i);
        }
        final int segmentsBefore = files(".log").size();
        persistence.checkpoint(state);
        assertTrue(files(".log").size() < segmentsBefore, "segments " + files(".log"));
        assertEquals(1, files(".snap").size());
        apply(state, persistence.log(), "after", "checkpoint");
        persistence.close();

        final MapState reopened = new MapState();
        open(Durability.DURABLE, reopened).close();
        assertEquals(state.entries, reopened.entries);
    }

    @Test
    void aCleanCloseLeavesOnlyASnapshot() throws IOException
    {
        final MapState state = new MapState();
        final Persistence persistence = open(Durability.DURABLE, state);
        for (int i = 0; i < 100; i++)
        {
            apply(state, persistence.log(), "key-" + i, "v" + i);
        }
        persistence.close(state);

        assertEquals(List.of(), files(".log"));
        assertEquals(1, files(".snap").size());
        final MapState reopened = new MapState();
        final Persistence again = open(Durability.DURABLE, reopened);
        assertEquals(state.entries, reopened.entries);
        apply(reopened, again.log(), "more", "after reopen");
        again.close();
        final MapState third = new MapState();
        open(Durability.DURABLE, third).close();
        assertEquals(reopened.entries, third.entries);
    }

    @Test
    void fastKeepsOnlySnapshotsAndTakesOverALog() throws IOException
    {
        final MapState durable = new MapState();
        final Persistence persistence = open(Durability.DURABLE, durable);
        apply(durable, persistence.log(), "from", "the log");
        persistence.close(); // crash: the log is all there is

        final MapState fast = new MapState();
        final Persistence opened = open(Durability.FAST, fast);
        assertNull(opened.log());
        assertEquals(durable.entries, fast.entries);
        assertEquals(List.of(), files(".log"));
        fast.entries.put("only", new MapState.Value("in memory", 0));
        opened.close(); // a crash loses what came after the last snapshot

        final MapState afterCrash = new MapState();
        final Persistence third = open(Durability.FAST, afterCrash);
        assertEquals(durable.entries, afterCrash.entries);
        afterCrash.entries.put("kept", new MapState.Value("by close", 0));
        third.close(afterCrash);

        final MapState last = new MapState();
        open(Durability.FAST, last).close();
        assertEquals(afterCrash.entries, last.entries);
        assertEquals(1, files(".snap").size());
    }

    @Test
    void aDamagedSnapshotStopsTheOpenAndNamesIt() throws IOException
    {
        final MapState state = new MapState();
        final Persistence persistence = open(Durability.DURABLE, state);
        for (int i = 0; i < 100; i++)
        {
            apply(state, persistence.log(), "key-" + i, "v" + i);
        }
        persistence.close(state);
        final Path snapshot = files(".snap").get(0);
        try (RandomAccessFile file = new RandomAccessFile(snapshot.toFile(), "rw"))
        {
            file.seek(200);
            final int b = file.read();
            file.seek(200);
            file.write(b ^ 1);
        }

        final SnapshotDamagedException ex = assertThrows(SnapshotDamagedException.class,
            () -> open(Durability.DURABLE, new MapState()));
        assertEquals(snapshot, ex.file());
        // The failed open gave the directory up.
        Files.delete(snapshot);
        open(Durability.DURABLE, new MapState()).close();
    }

    @Test
    void aRecordWhoseKeyLengthRunsPastItsPayloadStopsTheOpenBeforeItIsApplied() throws IOException
    {
        final Persistence persistence = open(Durability.DURABLE, new MapState());
        set(persistence.log(), "a", "1", 0);
        set(persistence.log(), "key", "value", 0);
        persistence.close(); // as a crash: no checkpoint
        // The second record's key length, past its payload, with a checksum that matches again: a writer's bug.
        final Path segment = directory.resolve(LogLayout.segmentFileName(1));
        final int offset =
            LogLayout.SEGMENT_HEADER_LENGTH + (int)LogLayout.recordLength(LogLayout.SET_FIXED_LENGTH + 2);
        final MappedFile file = FileLayer.system().open(segment);
        try
        {
            assertEquals(2, LogLayout.sequence(file.buffer(), offset));
            file.buffer().putInt(offset + LogLayout.RECORD_HEADER_LENGTH, 1000, ByteOrder.LITTLE_ENDIAN);
            LogLayout.sealRecord(file.buffer(), new Crc(file.memory()), offset,
                LogLayout.payloadLength(file.buffer(), offset));
        }
        finally
        {
            file.close();
        }

        final MapState state = new MapState();
        final LogCorruptedException ex = assertThrows(LogCorruptedException.class,
            () -> open(Durability.DURABLE, state));
        assertEquals(segment, ex.file());
        assertEquals(offset, ex.offset());
        assertTrue(ex.getMessage().contains("a SET of key length 1000 and value length 5 does not fit in 24 bytes"),
            ex.getMessage());
        assertEquals(List.of("a"), List.copyOf(state.entries.keySet()));
    }

    @Test
    void aMissingSnapshotIsNoticedThroughTheLog() throws IOException
    {
        final MapState state = new MapState();
        final Persistence persistence = open(Durability.DURABLE, state);
        for (int i = 0; i < 300; i++)
        {
            apply(state, persistence.log(), "key-" + i, "v" + i);
        }
        persistence.checkpoint(state);
        apply(state, persistence.log(), "after", "checkpoint");
        persistence.close();
        Files.delete(files(".snap").get(0));

        assertThrows(LogCorruptedException.class, () -> open(Durability.DURABLE, new MapState()));
    }

    @Test
    void leftoversOfACrashedCheckpointAreRemoved() throws IOException
    {
        final MapState state = new MapState();
        final Persistence persistence = open(Durability.DURABLE, state);
        apply(state, persistence.log(), "a", "1");
        persistence.close(state);
        final Path leftover = directory.resolve(SnapshotLayout.fileName(77) + ".tmp");
        Files.write(leftover, new byte[10]);

        final MapState reopened = new MapState();
        open(Durability.DURABLE, reopened).close();
        assertEquals(state.entries, reopened.entries);
        assertFalse(Files.exists(leftover));
    }

    @Test
    void theDirectoryHasOneOwner() throws IOException
    {
        final Persistence persistence = open(Durability.DURABLE, new MapState());
        final DirectoryInUseException ex = assertThrows(DirectoryInUseException.class,
            () -> open(Durability.PARANOID, new MapState()));
        assertTrue(ex.getMessage().contains(directory.toRealPath().toString()), ex.getMessage());
        persistence.close();
        open(Durability.PARANOID, new MapState()).close();
    }

    @Test
    void noneHasNoDirectory()
    {
        assertThrows(IllegalArgumentException.class, () -> open(Durability.NONE, new MapState()));
    }

    private Persistence open(final Durability durability, final MapState state) throws IOException
    {
        return Persistence.open(directory, durability, FileLayer.system(), SEGMENT, state, state, clock);
    }

    private static void apply(final MapState state, final LogWriter log, final String key, final String value)
    {
        set(log, key, value, 0);
        state.entries.put(key, new MapState.Value(value, 0));
    }

    private static void set(final LogWriter log, final String key, final String value, final long expireAt)
    {
        final UnsafeBuffer k = MapState.bytes(key);
        final UnsafeBuffer v = MapState.bytes(value);
        log.appendSet(k, 0, k.capacity(), v, 0, v.capacity(), expireAt);
    }

    private static void delete(final LogWriter log, final String key)
    {
        final UnsafeBuffer k = MapState.bytes(key);
        log.appendDelete(k, 0, k.capacity());
    }

    private static void expire(final LogWriter log, final String key, final long at)
    {
        final UnsafeBuffer k = MapState.bytes(key);
        log.appendExpire(k, 0, k.capacity(), at);
    }

    private static TreeMap<String, MapState.Value> map(
        final String k1, final String v1, final long e1, final String k2, final String v2, final long e2)
    {
        final TreeMap<String, MapState.Value> map = new TreeMap<>();
        map.put(k1, new MapState.Value(v1, e1));
        map.put(k2, new MapState.Value(v2, e2));
        return map;
    }

    private List<Path> files(final String suffix) throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    private static final class FakeClock implements org.agrona.concurrent.EpochClock
    {
        long now = 1_000;

        @Override
        public long time()
        {
            return now;
        }
    }
}
