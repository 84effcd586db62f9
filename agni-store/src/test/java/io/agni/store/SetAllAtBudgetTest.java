package io.agni.store;

import io.agni.api.CapacityExceededException;
import io.agni.api.SetCondition;
import io.agni.store.arena.EntryCursor;
import io.agni.store.shard.Shard;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A full store with garbage takes new entries by compacting in place (docs/architecture.md, "Reuse of freed
 * space", step 4), and {@code setAll} takes exactly what one {@code set} per entry takes, also when the garbage is
 * in the segment its own first entries go to (docs/architecture.md, "Multi-key set", step 5).
 */
class SetAllAtBudgetTest
{
    private static final long BUDGET = 256 * 1024;
    private static final int VALUE_SIZE = 200;
    private static final int NEW_ENTRIES = 200;
    private static final int MAX_ENTRIES = 100_000;

    @Test
    void setAllOfAFullStoreWithGarbageReclaimsInPlaceAsSetDoes()
    {
        try (OffHeapStore bySet = fullStoreWithGarbage(); OffHeapStore bySetAll = fullStoreWithGarbage())
        {
            final List<byte[]> keys = new ArrayList<>();
            final List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < NEW_ENTRIES; i++)
            {
                keys.add(bytes("new:" + i));
                values.add(value(i + 1_000));
            }

            for (int i = 0; i < NEW_ENTRIES; i++)
            {
                bySet.set(keys.get(i), values.get(i));
            }
            assertTrue(bySetAll.setAll(keys, values, SetCondition.ALWAYS));

            for (int i = 0; i < NEW_ENTRIES; i++)
            {
                assertArrayEquals(values.get(i), bySet.get(keys.get(i)));
                assertArrayEquals(values.get(i), bySetAll.get(keys.get(i)));
            }
            assertTrue(bySetAll.stats().offHeapBytes() <= BUDGET);
            bySet.verifyIntegrity();
            bySetAll.verifyIntegrity();
        }
    }

    @Test
    void setAllReclaimsTheGarbageOfTheSegmentItsFirstEntriesPin()
    {
        try (GarbageInTheHead bySet = new GarbageInTheHead(); GarbageInTheHead bySetAll = new GarbageInTheHead())
        {
            assertEquals(bySet.toString(), bySetAll.toString(), "both stores are laid out alike");
            // more than the head's free tail holds, no more than its free tail and its garbage hold together
            final int entries = bySetAll.freeEntries + bySetAll.garbageEntries / 2;
            assertTrue(bySetAll.garbageEntries >= 4, bySetAll.toString());
            final List<byte[]> keys = new ArrayList<>();
            final List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < entries; i++)
            {
                keys.add(fixedKey("new", i));
                values.add(value(i + 1_000));
            }

            for (int i = 0; i < entries; i++)
            {
                bySet.store.set(keys.get(i), values.get(i));
            }
            assertTrue(bySetAll.store.setAll(keys, values, SetCondition.ALWAYS));

            for (int i = 0; i < entries; i++)
            {
                assertArrayEquals(values.get(i), bySet.store.get(keys.get(i)));
                assertArrayEquals(values.get(i), bySetAll.store.get(keys.get(i)));
            }
            assertTrue(bySetAll.store.stats().offHeapBytes() <= BUDGET);
            bySet.store.verifyIntegrity();
            bySetAll.store.verifyIntegrity();
        }
    }

    @Test
    void setAllRefusedAfterReclaimingChangesNothingVisible()
    {
        try (GarbageInTheHead full = new GarbageInTheHead())
        {
            final long entriesBefore = full.store.stats().entries();
            // as many new keys as the head's free tail and garbage hold together, and one more entry: an overwrite
            // (the table needs no room for it), where nothing else has room
            final int entries = full.freeEntries + full.garbageEntries;
            final List<byte[]> keys = new ArrayList<>();
            final List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < entries; i++)
            {
                keys.add(fixedKey("new", i));
                values.add(value(i + 2_000));
            }
            keys.add(full.survivor);
            values.add(value(3_000));

            final CapacityExceededException refused = assertThrows(
                CapacityExceededException.class, () -> full.store.setAll(keys, values, SetCondition.ALWAYS));
            assertTrue(refused.getMessage().startsWith("memory budget exceeded: "), refused.getMessage());

            for (int i = 0; i < entries; i++)
            {
                assertNull(full.store.get(keys.get(i)));
            }
            assertArrayEquals(full.survivorValue, full.store.get(full.survivor));
            assertEquals(entriesBefore, full.store.stats().entries());
            full.store.verifyIntegrity();

            // what the refused batch compacted stays usable: the new keys alone fit
            assertTrue(full.store.setAll(keys.subList(0, entries), values.subList(0, entries), SetCondition.ALWAYS));
            full.store.verifyIntegrity();
        }
    }

    /**
     * One shard filled with entries of one length until a write is refused, so that no segment has room for one more
     * entry. Then the head segment (where the last entry went) gets a free tail and garbage: half of its entries are
     * deleted, one new entry makes the store compact the head in place (its free tail then holds one entry fewer than
     * were deleted), and half of the head's remaining old entries are deleted. Every other segment is full and holds
     * no garbage.
     */
    private static final class GarbageInTheHead implements AutoCloseable
    {
        final OffHeapStore store = TestStores.builder(1, TestStores.clock()).maxMemory(BUDGET)
            .maxKeyLength(64).maxValueLength(64 * 1024).build();
        /**
         * Entries the head's free tail holds.
         */
        final int freeEntries;
        /**
         * Entries' worth of garbage in the head.
         */
        final int garbageEntries;
        /**
         * A key still in the head, and its value.
         */
        final byte[] survivor;
        final byte[] survivorValue;

        GarbageInTheHead()
        {
            try
            {
                int accepted = 0;
                try
                {
                    for (; accepted < MAX_ENTRIES; accepted++)
                    {
                        store.set(fixedKey("key", accepted), value(accepted));
                    }
                    throw new AssertionError(MAX_ENTRIES + " entries fit a budget of " + BUDGET + " bytes");
                }
                catch (final CapacityExceededException full)
                {
                    assertTrue(accepted > 2 * NEW_ENTRIES, "the store holds " + accepted + " entries");
                }
                final int head = segmentOf(store, fixedKey("key", accepted - 1));
                final List<Integer> kept = new ArrayList<>();
                int deleted = 0;
                for (int i = 0; i < accepted; i++)
                {
                    if (segmentOf(store, fixedKey("key", i)) == head)
                    {
                        if ((deleted + kept.size()) % 2 == 0)
                        {
                            store.delete(fixedKey("key", i));
                            deleted++;
                        }
                        else
                        {
                            kept.add(i);
                        }
                    }
                }
                store.set(fixedKey("one", 0), value(-1));
                assertEquals(head, segmentOf(store, fixedKey("one", 0)), "the head was compacted in place");
                int garbage = 0;
                for (int j = 0; j < kept.size() - 1; j += 2)
                {
                    store.delete(fixedKey("key", kept.get(j)));
                    garbage++;
                }
                final int last = kept.get(kept.size() - 1);
                freeEntries = deleted - 1;
                garbageEntries = garbage;
                survivor = fixedKey("key", last);
                survivorValue = value(last);
            }
            catch (final RuntimeException | Error ex)
            {
                store.close();
                throw ex;
            }
        }

        @Override
        public void close()
        {
            store.close();
        }

        @Override
        public String toString()
        {
            return "head: room for " + freeEntries + " entries, garbage of " + garbageEntries + " entries";
        }
    }

    private static int segmentOf(final OffHeapStore store, final byte[] key)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(key);
        final Shard shard = store.shards().at(0);
        final EntryCursor e = new EntryCursor();
        final long stamp = shard.lockWrite(null);
        try
        {
            assertTrue(shard.findLocked(store.shards().hash(buffer, 0, key.length), buffer, 0, key.length, e) >= 0);
            return e.segmentId;
        }
        finally
        {
            shard.unlockWrite(stamp);
        }
    }

    /**
     * A key of a fixed length, so that every entry of the store has the same length.
     */
    private static byte[] fixedKey(final String prefix, final int i)
    {
        return bytes(String.format("%s:%06d", prefix, i));
    }

    /**
     * One shard filled until a write is refused, then every other key deleted: half of every segment is garbage,
     * no segment is empty, and the budget has no room for a new one.
     */
    private static OffHeapStore fullStoreWithGarbage()
    {
        final OffHeapStore store = TestStores.builder(1, TestStores.clock()).maxMemory(BUDGET)
            .maxKeyLength(64).maxValueLength(64 * 1024).build();
        int accepted = 0;
        try
        {
            for (; accepted < MAX_ENTRIES; accepted++)
            {
                store.set(bytes("key:" + accepted), value(accepted));
            }
            throw new AssertionError(MAX_ENTRIES + " entries fit a budget of " + BUDGET + " bytes");
        }
        catch (final CapacityExceededException full)
        {
            assertTrue(accepted > 2 * NEW_ENTRIES, "the store holds " + accepted + " entries");
        }
        for (int i = 0; i < accepted; i += 2)
        {
            store.delete(bytes("key:" + i));
        }
        return store;
    }

    private static byte[] value(final int i)
    {
        final byte[] value = new byte[VALUE_SIZE];
        for (int j = 0; j < value.length; j++)
        {
            value[j] = (byte)(i + j * 13);
        }
        return value;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
