package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.Durability;
import io.agni.api.ExpiryMode;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.api.WriteBatch;
import io.agni.store.file.FileLayer;
import io.agni.store.log.LogLayout;
import io.agni.store.log.LogReader;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@code write(WriteBatch)} on a store with a directory: a batch is one log record, and comes back whole after a
 * close and after a crash of the log alone (docs/durability.md). {@code CrashRecoveryTest} kills a child JVM that
 * writes batches among other writes.
 */
class DurableWriteBatchTest
{
    private static final int SEGMENT = 64 * 1024;
    private static final long HOUR = 3_600_000L;

    @TempDir
    Path directory;

    private final CachedEpochClock clock = TestStores.clock();

    /**
     * How a store gives its directory up.
     */
    enum Ending
    {
        CLOSE, CRASH
    }

    @ParameterizedTest
    @EnumSource(Ending.class)
    void batchesComeBackWhole(final Ending ending)
    {
        final Map<String, String> expected;
        try (OffHeapStore store = open(Durability.DURABLE))
        {
            for (int i = 0; i < 40; i++)
            {
                store.set(b("k" + i), b("old-" + i));
            }
            store.set(b("timed"), b("t"), SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + HOUR);
            store.set(b("gains"), b("g"));
            for (int round = 0; round < 50; round++)
            {
                final WriteBatch batch = new WriteBatch();
                for (int i = round % 5; i < 40; i += 5)
                {
                    batch.set(b("k" + i), b("round-" + round + "-" + "x".repeat(round % 7)));
                }
                batch.delete(b("k" + (round % 40)))
                    .set(b("new-" + round), b("n"), ExpiryMode.AFTER, HOUR + round)
                    .set(b("kept"), b("v" + round), ExpiryMode.KEEP, 0)
                    .expire(b("gains"), clock.time() + 2 * HOUR + round)
                    .persist(b("timed"));
                store.write(batch);
            }
            store.write(new WriteBatch().persist(b("gains")).expire(b("timed"), clock.time() + 3 * HOUR));
            expected = contents(store);
            if (ending == Ending.CRASH)
            {
                store.closeWithoutCheckpoint();
            }
        }
        try (OffHeapStore store = open(Durability.DURABLE))
        {
            assertEquals(expected, contents(store));
        }
    }

    @Test
    void aBatchIsOneLogRecord() throws IOException
    {
        try (OffHeapStore store = open(Durability.DURABLE))
        {
            store.set(b("a"), b("old"));
            store.set(b("b"), b("old"), SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + HOUR);
            store.write(new WriteBatch()
                .set(b("a"), b("new"))
                .delete(b("a"))
                .set(b("a"), b("newer"))
                .persist(b("b"))
                .set(b("c"), b("fresh"))
                .delete(b("absent")));
            store.closeWithoutCheckpoint();
        }

        final List<Byte> types = new ArrayList<>();
        LogReader.replay(directory, FileLayer.system(), SEGMENT, 1, (type, sequence, buffer, offset, length) ->
        {
            types.add(type);
            if (type == LogLayout.BATCH)
            {
                assertEquals(3, buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN), "one change per key the batch changed");
            }
        }).writer().close();

        assertEquals(List.of(LogLayout.SET, LogLayout.SET, LogLayout.BATCH), types);
    }

    /**
     * The log holds each key's state after a batch as a whole value, never a change of its expiry time alone: a key
     * whose expiry the batch removed must not be lost when replay meets its old expiry time in the past.
     */
    @Test
    void aKeyABatchPersistedOutlivesItsOldExpiryTimeAfterACrash()
    {
        try (OffHeapStore store = open(Durability.DURABLE))
        {
            store.set(b("saved"), b("s"), SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 1_000);
            store.set(b("moved"), b("m"), SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 1_000);
            store.write(new WriteBatch().persist(b("saved")).expire(b("moved"), clock.time() + HOUR));
            store.closeWithoutCheckpoint();
        }
        clock.update(clock.time() + 2_000);
        try (OffHeapStore store = open(Durability.DURABLE))
        {
            assertEquals("s", text(store.get(b("saved"))));
            assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(b("saved")));
            assertEquals("m", text(store.get(b("moved"))));
            assertEquals(TestStores.START_MS + HOUR, store.expireTimeMillis(b("moved")));
        }
    }

    @Test
    void aBatchAfterTheLastSnapshotOfAFastStoreIsLostWhole()
    {
        try (OffHeapStore store = open(Durability.FAST))
        {
            store.write(new WriteBatch().set(b("a"), b("1")).set(b("b"), b("2")));
            store.checkpoint();
            store.write(new WriteBatch().set(b("a"), b("3")).delete(b("b")).set(b("c"), b("4")));
            store.closeWithoutCheckpoint();
        }
        try (OffHeapStore store = open(Durability.FAST))
        {
            assertEquals(Map.of("a", "1@-1", "b", "2@-1"), contents(store));
            assertNull(store.get(b("c")));
        }
    }

    private OffHeapStore open(final Durability durability)
    {
        return OffHeapStore.builder().shards(4).maxMemory(TestStores.ROOMY_BUDGET).clock(clock)
            .expirySweepInterval(Duration.ZERO).directory(directory).durability(durability)
            .logSegmentBytes(SEGMENT).build();
    }

    /**
     * Every key with its value and expiry time.
     */
    private static Map<String, String> contents(final OffHeapStore store)
    {
        final Map<String, String> all = new TreeMap<>();
        long cursor = 0;
        do
        {
            final ScanResult page = store.scan(cursor, null, 1000);
            for (final byte[] key : page.keys())
            {
                all.put(text(key), text(store.get(key)) + "@" + store.expireTimeMillis(key));
            }
            cursor = page.cursor();
        }
        while (cursor != 0);
        return all;
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
