package io.agni.store.snapshot;

import io.agni.store.SnapshotDamagedException;
import io.agni.store.file.FileLayer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A snapshot loaded by several threads: every entry reaches a handler exactly once, large entries included; a
 * damaged block or a handler that throws stops the load with that failure, and no thread is left waiting.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelSnapshotLoadTest
{
    private static final int ENTRIES = 20_000;

    @TempDir
    Path directory;

    @Test
    void everyEntryReachesOneHandlerOnce() throws IOException
    {
        final Path snapshot = write();
        final Map<String, String> loaded = new ConcurrentHashMap<>();
        final AtomicInteger duplicates = new AtomicInteger();
        final List<SnapshotEntryHandler> handlers = new ArrayList<>();
        final Map<String, Boolean> threads = new ConcurrentHashMap<>();
        for (int i = 0; i < 3; i++)
        {
            handlers.add((buffer, keyOffset, keyLength, valueOffset, valueLength, expireAt) ->
            {
                threads.put(Thread.currentThread().getName(), true);
                final String key = buffer.getStringWithoutLengthUtf8(keyOffset, keyLength);
                if (loaded.put(key, buffer.getStringWithoutLengthUtf8(valueOffset, valueLength)) != null)
                {
                    duplicates.incrementAndGet();
                }
            });
        }
        final SnapshotReader.Summary summary = ParallelSnapshotLoad.read(snapshot, handlers, "test");
        assertEquals(ENTRIES + 2, summary.entries());
        assertEquals(ENTRIES + 2, loaded.size());
        assertEquals(0, duplicates.get());
        assertEquals(value(7), loaded.get("key-7"));
        assertEquals(200_000, loaded.get("large-1").length());
        assertTrue(threads.size() >= 1, threads.toString());
    }

    @Test
    void aDamagedBlockStopsTheLoad() throws IOException
    {
        final Path snapshot = write();
        try (RandomAccessFile file = new RandomAccessFile(snapshot.toFile(), "rw"))
        {
            // A byte inside a block in the middle of the file.
            final long at = file.length() / 2;
            file.seek(at);
            final int b = file.read();
            file.seek(at);
            file.write(b ^ 0x55);
        }
        assertThrows(SnapshotDamagedException.class, () -> ParallelSnapshotLoad.read(snapshot,
            List.of(ignore(), ignore()), "test"));
    }

    @Test
    void aHandlerThatThrowsStopsTheLoadWithItsFailure() throws IOException
    {
        final Path snapshot = write();
        final AtomicInteger calls = new AtomicInteger();
        final SnapshotEntryHandler failing = (buffer, keyOffset, keyLength, valueOffset, valueLength, expireAt) ->
        {
            if (calls.incrementAndGet() == 5_000)
            {
                throw new IllegalStateException("the budget is full");
            }
        };
        final IllegalStateException thrown = assertThrows(IllegalStateException.class,
            () -> ParallelSnapshotLoad.read(snapshot, List.of(failing, failing), "test"));
        assertEquals("the budget is full", thrown.getMessage());
    }

    private static SnapshotEntryHandler ignore()
    {
        return (buffer, keyOffset, keyLength, valueOffset, valueLength, expireAt) ->
        {
        };
    }

    private Path write() throws IOException
    {
        try (SnapshotWriter writer = SnapshotWriter.create(directory, FileLayer.system(), 1, 0))
        {
            for (int i = 0; i < ENTRIES; i++)
            {
                add(writer, "key-" + i, value(i));
                if (i == ENTRIES / 2)
                {
                    add(writer, "large-1", "x".repeat(200_000));
                    add(writer, "large-2", "y".repeat(100_000));
                }
            }
            return writer.commit();
        }
    }

    private static void add(final SnapshotWriter writer, final String key, final String value) throws IOException
    {
        final UnsafeBuffer k = new UnsafeBuffer(key.getBytes(StandardCharsets.UTF_8));
        final UnsafeBuffer v = new UnsafeBuffer(value.getBytes(StandardCharsets.UTF_8));
        writer.add(k, 0, k.capacity(), v, 0, v.capacity(), 0);
    }

    private static String value(final int i)
    {
        return "value-" + i + "-" + "v".repeat(i % 300);
    }
}
