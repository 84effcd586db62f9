package io.agni.store;

import io.agni.api.CapacityExceededException;
import io.agni.api.SetCondition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A full store with garbage takes new entries by compacting in place (docs/architecture.md, "Reuse of freed
 * space", step 4), and {@code setAll} takes exactly what one {@code set} per entry takes.
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
