package io.agni.store.persist;

import io.agni.api.Durability;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.snapshot.SnapshotLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A checkpoint that fails on a full disk: it is refused before it writes (a snapshot that filled the disk would
 * take the room the log needs), and automatic checkpoints are retried after a delay that doubles with each failure,
 * not every tick of the background thread.
 */
class CheckpointRetryTest
{
    private static final int SEGMENT = 64 * 1024;
    private static final long MINIMUM = 1;

    @TempDir
    Path directory;

    @Test
    void automaticCheckpointsAfterAFailureWaitLongerEachTime() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final MapState state = new MapState();
        try (Persistence persistence = Persistence.open(directory, Durability.DURABLE, files, SEGMENT, state, state,
            new org.agrona.concurrent.SystemEpochClock()))
        {
            fill(state, persistence, 200);
            assertTrue(persistence.checkpointDue(MINIMUM, 0));
            files.quota(0);

            long previousDelay = 0;
            for (int failure = 1; failure <= 4; failure++)
            {
                assertThrows(IOException.class, () -> persistence.checkpoint(state));
                assertEquals(failure, persistence.failuresInARow());
                final long delay = persistence.retryInNanos();
                final long expected = Persistence.FIRST_RETRY_NANOS << (failure - 1);
                assertTrue(delay > expected - TimeUnit.MILLISECONDS.toNanos(500) && delay <= expected,
                    "retry in " + delay + " ns after failure " + failure + ", expected about " + expected);
                assertTrue(delay > previousDelay);
                previousDelay = delay;
                assertFalse(persistence.checkpointDue(MINIMUM, 0), "not due again before the delay ran out");
            }

            files.quota(Long.MAX_VALUE / 2);
            persistence.checkpoint(state);
            assertEquals(0, persistence.failuresInARow());
            assertEquals(-1, persistence.retryInNanos());
            assertFalse(persistence.lastCheckpointFailed());
        }
    }

    @Test
    void theDelayRunsOutAndTheCheckpointIsDueAgain() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final MapState state = new MapState();
        try (Persistence persistence = Persistence.open(directory, Durability.DURABLE, files, SEGMENT, state, state,
            new org.agrona.concurrent.SystemEpochClock()))
        {
            fill(state, persistence, 200);
            files.quota(0);
            assertThrows(IOException.class, () -> persistence.checkpoint(state));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!persistence.checkpointDue(MINIMUM, 0))
            {
                if (System.nanoTime() - deadline > 0)
                {
                    fail("the checkpoint never became due again");
                }
                Thread.yield();
            }
            assertEquals(0, persistence.retryInNanos());
        }
    }

    @Test
    void aCheckpointWithoutRoomForItsSnapshotAndTheLogWritesNothing() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final MapState state = new MapState();
        try (Persistence persistence = Persistence.open(directory, Durability.DURABLE, files, SEGMENT, state, state,
            new org.agrona.concurrent.SystemEpochClock()))
        {
            fill(state, persistence, 200);
            // Room for the snapshot, not for it and the log's next two segments.
            files.quota(state.estimatedSnapshotBytes() + SEGMENT);
            final IOException refused = assertThrows(IOException.class, () -> persistence.checkpoint(state));
            assertTrue(refused.getMessage().contains("not enough room"), refused.getMessage());
            try (Stream<Path> listing = Files.list(directory))
            {
                assertFalse(listing.anyMatch(p -> p.getFileName().toString().startsWith("snapshot")),
                    "a refused checkpoint wrote no snapshot file");
            }
            assertTrue(persistence.lastCheckpointFailed());
        }
    }

    private static void fill(final MapState state, final Persistence persistence, final int keys)
    {
        for (int i = 0; i < keys; i++)
        {
            final String key = "key-" + i;
            final String value = "value-".repeat(20) + i;
            final var k = MapState.bytes(key);
            final var v = MapState.bytes(value);
            persistence.log().appendSet(k, 0, k.capacity(), v, 0, v.capacity(), 0);
            state.entries.put(key, new MapState.Value(value, 0));
        }
    }
}
