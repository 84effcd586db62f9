package io.agni.store.persist;

import io.agni.api.Durability;
import io.agni.store.file.FileLayer;
import io.agni.store.log.ChangeRecorder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ChangeRecorderTest
{
    @TempDir
    Path directory;

    @Test
    void aBatchIsOneRecordAppliedWhole() throws IOException
    {
        final Persistence persistence = open(new MapState());
        final ChangeRecorder changes = new ChangeRecorder(persistence.log());
        set(changes, "kept", "1", 0);
        final long before = persistence.log().nextSequence();

        changes.beginBatch();
        set(changes, "a", "x".repeat(3000), 0);
        set(changes, "b", "2", 12345);
        delete(changes, "kept");
        final UnsafeBuffer c = MapState.bytes("b");
        changes.expire(c, 0, c.capacity(), 777);
        changes.endBatch();
        assertEquals(before + 1, persistence.log().nextSequence());

        changes.beginBatch();
        changes.endBatch();
        assertEquals(before + 1, persistence.log().nextSequence());
        changes.awaitDurable();
        persistence.close();

        final MapState state = new MapState();
        open(state).close();
        assertEquals(2, state.entries.size());
        assertEquals(new MapState.Value("x".repeat(3000), 0), state.entries.get("a"));
        assertEquals(new MapState.Value("2", 777), state.entries.get("b"));
    }

    @Test
    void aClearInsideABatchIsRefused() throws IOException
    {
        try (Persistence persistence = open(new MapState()))
        {
            final ChangeRecorder changes = new ChangeRecorder(persistence.log());
            changes.beginBatch();
            assertThrows(IllegalStateException.class, changes::clear);
            assertThrows(IllegalStateException.class, changes::beginBatch);
        }
    }

    @Test
    void aHeldBatchTakesInTheBatchesAndClearsOfItsOperations() throws IOException
    {
        final Persistence persistence = open(new MapState());
        final ChangeRecorder changes = new ChangeRecorder(persistence.log());
        set(changes, "before", "0", 0);
        final long before = persistence.log().nextSequence();

        changes.beginHeldBatch();
        set(changes, "a", "1", 0);
        changes.beginBatch();
        set(changes, "b", "2", 0);
        changes.endBatch();
        assertEquals(before, persistence.log().nextSequence(), "an operation's batch within a held one appends nothing");
        changes.clear();
        set(changes, "c", "3", 99);
        changes.beginBatch();
        delete(changes, "absent");
        changes.endBatch();
        assertThrows(IllegalStateException.class, changes::beginHeldBatch);
        changes.endHeldBatch();
        assertEquals(before + 1, persistence.log().nextSequence(), "one record for the held batch");

        changes.beginBatch();
        assertThrows(IllegalStateException.class, changes::clear, "an operation's own batch cannot clear");
        changes.endBatch();
        changes.awaitDurable();
        persistence.close();

        final MapState state = new MapState();
        open(state).close();
        assertEquals(Map.of("c", new MapState.Value("3", 99)), state.entries, "replayed in order, the clear included");
    }

    @Test
    void aHeldBatchPastTheRecordLimitIsLoggedInSeveralRecords() throws IOException
    {
        final Persistence persistence = open(new MapState());
        final ChangeRecorder changes = new ChangeRecorder(persistence.log(), 200);
        final long before = persistence.log().nextSequence();

        changes.beginHeldBatch();
        for (int i = 0; i < 10; i++)
        {
            set(changes, "k" + i, "v".repeat(40), 0);
        }
        changes.endHeldBatch();
        assertEquals(before + 4, persistence.log().nextSequence(), "three changes of 59 bytes fit in 200");
        assertThrows(IllegalArgumentException.class, () ->
        {
            changes.beginBatch();
            try
            {
                set(changes, "large", "x".repeat(300), 0);
            }
            finally
            {
                changes.endBatch();
            }
        }, "a change larger than a record is refused");
        changes.awaitDurable();
        persistence.close();

        final MapState state = new MapState();
        open(state).close();
        assertEquals(10, state.entries.size());
        assertEquals(new MapState.Value("v".repeat(40), 0), state.entries.get("k9"));
    }

    private Persistence open(final MapState state) throws IOException
    {
        return Persistence.open(directory, Durability.DURABLE, FileLayer.system(), 4096, state, state, () -> 0);
    }

    private static void set(final ChangeRecorder changes, final String key, final String value, final long at)
    {
        final UnsafeBuffer k = MapState.bytes(key);
        final UnsafeBuffer v = MapState.bytes(value);
        changes.set(k, 0, k.capacity(), v, 0, v.capacity(), at);
    }

    private static void delete(final ChangeRecorder changes, final String key)
    {
        final UnsafeBuffer k = MapState.bytes(key);
        changes.delete(k, 0, k.capacity());
    }
}
