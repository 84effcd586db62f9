package io.agni.store;

import io.agni.api.Durability;
import io.agni.api.StoreReadOnlyException;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.agni.api.ExpireCondition;
import io.agni.api.SetCondition;
import io.agni.api.WriteBatch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write into the log's mapping that faults (SIGBUS: on btrfs or ZFS, a full disk inside a page fault) fails the log
 * as a failed write does: the store becomes read-only, the write that faulted is refused and never seen, and the
 * next open has every write acknowledged before it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MappedLogFaultTest
{
    @TempDir
    Path directory;

    private final CachedEpochClock clock = TestStores.clock();

    @Test
    void aFaultInTheMappingMakesTheStoreReadOnlyAndTheWriteIsNotSeen()
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(files))
        {
            store.set(b("before"), b("1"));
            store.set(b("key"), b("old"));
            // On the device (this file layer keeps only what was synced, and a failed log syncs nothing more).
            store.checkpoint();
            files.faultNextMappedWrite();
            final StoreReadOnlyException refused =
                assertThrows(StoreReadOnlyException.class, () -> store.set(b("key"), b("new")));
            assertTrue(refused.getMessage().contains("a fault in its mapping"), refused.getMessage());
            assertArrayEquals(b("old"), store.get(b("key")), "the refused write is not seen");
            assertThrows(StoreReadOnlyException.class, () -> store.set(b("after"), b("2")));
            assertTrue(store.checkpointStatus().logFailed());
        }
        try (OffHeapStore store = open(FileLayer.system()))
        {
            assertArrayEquals(b("1"), store.get(b("before")));
            assertArrayEquals(b("old"), store.get(b("key")));
            assertNull(store.get(b("after")));
        }
    }

    /**
     * Every kind of write, each faulting in the log: refused, and memory as it was (the entry is written in place,
     * in fresh space, or as a new key; a value built from parts; an expiry alone; a batch and a setAll, whose one
     * record is appended before any key changes).
     */
    @ParameterizedTest
    @ValueSource(strings = {"same length", "longer", "new key", "append", "setRange", "expire", "batch", "setAll",
        "delete", "rename", "incr"})
    void aWriteTheLogRefusedIsNeverSeen(final String write)
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        try (OffHeapStore store = open(files))
        {
            store.set(b("key"), b("old"));
            store.set(b("other"), b("kept"));
            final long expireBefore = store.expireTimeMillis(b("key"));
            files.faultNextMappedWrite();
            assertThrows(StoreReadOnlyException.class, () ->
            {
                switch (write)
                {
                    case "same length" -> store.set(b("key"), b("new"));
                    case "longer" -> store.set(b("key"), b("a much longer value than before"));
                    case "new key" -> store.set(b("fresh"), b("1"));
                    case "append" -> store.append(b("key"), b("-tail"));
                    case "setRange" -> store.setRange(b("key"), 1, b("XY"));
                    case "expire" -> store.expire(b("key"), TestStores.START_MS + 60_000, ExpireCondition.ALWAYS);
                    case "batch" -> store.write(new WriteBatch().set(b("key"), b("batched")).set(b("fresh"), b("1"))
                        .delete(b("other")));
                    case "setAll" -> store.setAll(List.of(b("key"), b("fresh")), List.of(b("all"), b("1")),
                        SetCondition.ALWAYS);
                    case "delete" -> store.delete(b("key"));
                    case "rename" -> store.rename(b("key"), b("fresh"), true);
                    case "incr" -> store.incrementBy(b("fresh"), 1);
                    default -> throw new AssertionError(write);
                }
            });
            assertArrayEquals(b("old"), store.get(b("key")), write);
            assertEquals(expireBefore, store.expireTimeMillis(b("key")), write);
            assertArrayEquals(b("kept"), store.get(b("other")), write);
            assertNull(store.get(b("fresh")), write);
        }
    }

    private OffHeapStore open(final FileLayer files)
    {
        return TestStores.builder(4, clock).directory(directory).durability(Durability.DURABLE).fileLayer(files)
            .logSegmentBytes(1 << 20).build();
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
