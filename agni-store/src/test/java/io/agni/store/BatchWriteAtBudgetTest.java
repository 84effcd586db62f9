package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import io.agni.api.WriteBatch;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code write(WriteBatch)} at the memory budget (docs/architecture.md, "Batch write"): a batch the budget cannot
 * hold is refused whole, with nothing changed; one that needs no new entry (removals, overwrites of the same length)
 * goes through on a full store; and one that fits only once the store compacts in place takes what a set per entry
 * takes.
 */
class BatchWriteAtBudgetTest
{
    private static final long BUDGET = 256 * 1024;
    private static final int VALUE_SIZE = 200;
    private static final int NEW_ENTRIES = 200;
    private static final int MAX_ENTRIES = 100_000;
    private static final long LATER = TestStores.START_MS + 60_000;

    @Test
    void aBatchTheBudgetRefusesChangesNothing()
    {
        try (OffHeapStore store = newStore())
        {
            store.set(bytes("timed"), value(-9), SetCondition.ALWAYS, ExpiryMode.AT, LATER);
            final int held = fill(store) + 1;
            final StoreStats before = store.stats();
            final WriteBatch batch = new WriteBatch()
                .delete(key(0))
                .set(key(1), value(-1))
                .expire(key(2), LATER)
                .persist(bytes("timed"));
            for (int i = 0; i < NEW_ENTRIES; i++)
            {
                batch.set(bytes("new:" + i), value(i));
            }

            final CapacityExceededException refused =
                assertThrows(CapacityExceededException.class, () -> store.write(batch));

            assertTrue(refused.getMessage().startsWith("memory budget exceeded: "), refused.getMessage());
            assertArrayEquals(value(0), store.get(key(0)), "the delete was not applied");
            assertArrayEquals(value(1), store.get(key(1)), "the overwrite in place was not applied");
            assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(key(2)), "the expire was not applied");
            assertEquals(LATER, store.expireTimeMillis(bytes("timed")), "the persist was not applied");
            for (int i = 0; i < NEW_ENTRIES; i++)
            {
                assertNull(store.get(bytes("new:" + i)));
            }
            final StoreStats after = store.stats();
            assertEquals(held, after.entries());
            assertEquals(before.liveEntryBytes(), after.liveEntryBytes());
            assertEquals(before.rejectedWrites() + 1, after.rejectedWrites(), "one refusal counted");
            store.verifyIntegrity();
        }
    }

    @Test
    void aBatchThatNeedsNoNewEntryGoesThroughOnAFullStore()
    {
        try (OffHeapStore store = newStore())
        {
            final int held = fill(store);
            assertThrows(CapacityExceededException.class, () -> store.set(bytes("one-more"), value(-5)));

            store.write(new WriteBatch()
                .delete(key(0))
                .set(key(1), value(-1))
                .set(key(2), value(-2)).delete(key(2)).set(key(2), value(-3))
                .persist(key(4))
                .delete(bytes("absent")));

            assertNull(store.get(key(0)));
            assertArrayEquals(value(-1), store.get(key(1)));
            assertArrayEquals(value(-3), store.get(key(2)));
            assertArrayEquals(value(4), store.get(key(4)));
            assertEquals(held - 1, store.stats().entries());
            store.verifyIntegrity();
        }
    }

    @Test
    void aBatchOnAFullStoreWithGarbageTakesWhatASetPerEntryTakes()
    {
        try (OffHeapStore bySet = newStore(); OffHeapStore byBatch = newStore())
        {
            final int held = fill(bySet);
            assertEquals(held, fill(byBatch));
            for (int i = 0; i < held; i += 2)
            {
                bySet.delete(key(i));
                byBatch.delete(key(i));
            }
            final WriteBatch batch = new WriteBatch();
            for (int i = 0; i < NEW_ENTRIES; i++)
            {
                batch.set(bytes("new:" + i), value(i + 1_000));
                bySet.set(bytes("new:" + i), value(i + 1_000));
                if (i % 10 == 0)
                {
                    // a copy of an old entry with an expiry field: its source must stay put while the store compacts
                    batch.expire(key(2 * i + 1), LATER);
                    bySet.expire(key(2 * i + 1), LATER, ExpireCondition.ALWAYS);
                }
            }

            byBatch.write(batch);

            for (int i = 0; i < NEW_ENTRIES; i++)
            {
                assertArrayEquals(value(i + 1_000), byBatch.get(bytes("new:" + i)));
                assertArrayEquals(value(i + 1_000), bySet.get(bytes("new:" + i)));
            }
            for (int i = 0; i < NEW_ENTRIES; i += 10)
            {
                assertArrayEquals(value(2 * i + 1), byBatch.get(key(2 * i + 1)));
                assertEquals(LATER, byBatch.expireTimeMillis(key(2 * i + 1)));
            }
            assertEquals(bySet.stats().entries(), byBatch.stats().entries());
            assertTrue(byBatch.stats().offHeapBytes() <= BUDGET);
            bySet.verifyIntegrity();
            byBatch.verifyIntegrity();
        }
    }

    private static OffHeapStore newStore()
    {
        return TestStores.builder(1, TestStores.clock()).maxMemory(BUDGET).maxKeyLength(64)
            .maxValueLength(64 * 1024).build();
    }

    /**
     * Sets entries of one length until the budget refuses one.
     *
     * @return how many the store holds.
     */
    private static int fill(final OffHeapStore store)
    {
        int accepted = 0;
        try
        {
            for (; accepted < MAX_ENTRIES; accepted++)
            {
                store.set(key(accepted), value(accepted));
            }
            throw new AssertionError(MAX_ENTRIES + " entries fit a budget of " + BUDGET + " bytes");
        }
        catch (final CapacityExceededException full)
        {
            assertTrue(accepted > 2 * NEW_ENTRIES, "the store holds " + accepted + " entries");
        }
        return accepted;
    }

    private static byte[] key(final int i)
    {
        return bytes(String.format("key:%06d", i));
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
