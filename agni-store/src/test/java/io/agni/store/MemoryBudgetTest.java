package io.agni.store;

import io.agni.api.CapacityExceededException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory budget under {@code NOEVICTION}: a store filled until a write is refused holds everything it accepted,
 * never holds more than its budget, counts the refusals, keeps serving reads and same-size overwrites, and has room
 * again after deletes.
 */
class MemoryBudgetTest
{
    private static final long BUDGET = 256 * 1024;
    private static final int VALUE_SIZE = 200;
    private static final int MAX_ENTRIES = 100_000;

    private OffHeapStore store;
    private int accepted;
    private long refusals;

    @BeforeEach
    void openAndFill()
    {
        store = TestStores.builder(4, TestStores.clock()).maxMemory(BUDGET)
            .maxKeyLength(1024).maxValueLength(64 * 1024).build();
        accepted = fill(0);
    }

    @AfterEach
    void close()
    {
        if (store != null)
        {
            store.close();
        }
    }

    /**
     * Writes new keys from {@code first} on until a write is refused, checking the budget at every step.
     *
     * @return how many keys were written.
     */
    private int fill(final int first)
    {
        for (int i = first; i < first + MAX_ENTRIES; i++)
        {
            try
            {
                store.set(key(i), value(i, 0));
            }
            catch (final CapacityExceededException ex)
            {
                refusals++;
                assertNull(store.get(key(i)), "the refused key is absent");
                assertEquals(refusals, store.stats().rejectedWrites(), "rejectedWrites counts every refusal");
                return i - first;
            }
            final StoreStats stats = store.stats();
            assertTrue(stats.offHeapBytes() <= stats.budgetBytes(), "over budget after key " + i + ": " + stats);
        }
        throw new AssertionError("the store accepted " + MAX_ENTRIES + " entries of " + VALUE_SIZE +
            " bytes within a budget of " + BUDGET + " bytes");
    }

    @Test
    void aFullStoreRefusesTheWriteAndKeepsEverythingItAccepted()
    {
        assertTrue(accepted > 100, "a 256 KiB store holds more than 100 small entries: " + accepted);
        assertEquals(BUDGET, store.stats().budgetBytes());
        assertEquals(accepted, store.size());
        for (int i = 0; i < accepted; i++)
        {
            assertArrayEquals(value(i, 0), store.get(key(i)), "key " + i);
        }
        store.verifyIntegrity();
    }

    @Test
    void readsKeepWorkingWhenTheStoreIsFull()
    {
        assertTrue(store.exists(key(0)));
        assertEquals(2, store.getAll(List.of(key(0), key(1))).size());
        assertEquals(-1, store.ttlMillis(key(0)));
        assertTrue(store.scan(0, null, 100).cursor() >= 0);
        assertNull(store.get(key(accepted + 5)));
        assertEquals(accepted, store.stats().entries());
    }

    @Test
    void everyRefusalIsCountedAndChangesNothing()
    {
        final byte[] big = new byte[32 * 1024];
        int refusedNow = 0;
        for (int i = 0; i < 20; i++)
        {
            try
            {
                store.set(key(MAX_ENTRIES + i), big);
            }
            catch (final CapacityExceededException ex)
            {
                refusedNow++;
                assertNull(store.get(key(MAX_ENTRIES + i)));
            }
        }

        assertTrue(refusedNow > 0, "32 KiB values do not fit in a full store");
        assertEquals(refusals + refusedNow, store.stats().rejectedWrites());
        assertTrue(store.stats().offHeapBytes() <= BUDGET);
        store.verifyIntegrity();
    }

    @Test
    void aRefusedOverwriteKeepsTheOldValueAndExpiry()
    {
        final long at = TestStores.START_MS + 60_000;
        store.expire(key(3), at, ExpireCondition.ALWAYS);
        final byte[] big = new byte[60 * 1024];

        assertThrows(CapacityExceededException.class, () -> store.set(key(3), big));
        assertThrows(CapacityExceededException.class,
            () -> store.getAndSet(key(3), big, SetCondition.ALWAYS, ExpiryMode.CLEAR, 0));
        assertThrows(CapacityExceededException.class, () -> store.append(key(3), big));

        assertArrayEquals(value(3, 0), store.get(key(3)));
        assertEquals(at, store.expireTimeMillis(key(3)));
        store.verifyIntegrity();
    }

    @Test
    void aRefusedSetRangeKeepsTheOldValueAndExpiry()
    {
        final long at = TestStores.START_MS + 60_000;
        store.expire(key(3), at, ExpireCondition.ALWAYS);
        final long rejected = store.stats().rejectedWrites();

        assertThrows(CapacityExceededException.class, () -> store.setRange(key(3), 0, new byte[60 * 1024]));
        assertThrows(CapacityExceededException.class, () -> store.setRange(key(3), 60 * 1024, bytes("x")));
        assertThrows(CapacityExceededException.class, () -> store.setRange(key(MAX_ENTRIES), 60 * 1024, bytes("x")));

        assertArrayEquals(value(3, 0), store.get(key(3)));
        assertEquals(at, store.expireTimeMillis(key(3)));
        assertFalse(store.exists(key(MAX_ENTRIES)));
        assertEquals(rejected + 3, store.stats().rejectedWrites());
        store.verifyIntegrity();
    }

    @Test
    void setRangeInsideTheValueKeepsWorkingAtTheLimit()
    {
        for (int i = 0; i < accepted; i++)
        {
            assertEquals(VALUE_SIZE, store.setRange(key(i), VALUE_SIZE - 4, bytes("tail")));
        }

        for (int i = 0; i < accepted; i++)
        {
            final byte[] expected = value(i, 0);
            System.arraycopy(bytes("tail"), 0, expected, VALUE_SIZE - 4, 4);
            assertArrayEquals(expected, store.get(key(i)), "key " + i);
        }
        store.verifyIntegrity();
    }

    @Test
    void aRenameThatDoesNotFitChangesNothingAndFitsOnceThereIsRoom()
    {
        // one shard: space freed by deletes in other shards stays with them (as their spare and head segments)
        store.close();
        store = TestStores.builder(1, TestStores.clock()).maxMemory(BUDGET)
            .maxKeyLength(1024).maxValueLength(64 * 1024).build();
        refusals = 0;
        final long at = TestStores.START_MS + 60_000;
        final byte[] big = new byte[40 * 1024];
        big[123] = 7;
        store.set(bytes("big"), big, SetCondition.ALWAYS, ExpiryMode.AT, at);
        final int small = fill(0);
        final long rejected = store.stats().rejectedWrites();

        assertThrows(CapacityExceededException.class, () -> store.rename(bytes("big"), bytes("moved"), true));

        assertArrayEquals(big, store.get(bytes("big")));
        assertEquals(at, store.expireTimeMillis(bytes("big")));
        assertFalse(store.exists(bytes("moved")));
        assertEquals(small + 1, store.size());
        assertEquals(rejected + 1, store.stats().rejectedWrites());
        store.verifyIntegrity();

        for (int i = 0; i < small; i++)
        {
            store.delete(key(i));
        }
        assertEquals(RenameResult.RENAMED, store.rename(bytes("big"), bytes("moved"), true));
        assertArrayEquals(big, store.get(bytes("moved")));
        assertEquals(at, store.expireTimeMillis(bytes("moved")));
        store.verifyIntegrity();
    }

    @Test
    void aRefusedSetAllWritesNone()
    {
        final byte[] big = new byte[60 * 1024];

        assertThrows(CapacityExceededException.class, () -> store.setAll(
            List.of(key(0), key(MAX_ENTRIES), key(MAX_ENTRIES + 1)),
            List.of(bytes("small"), big, big), SetCondition.ALWAYS));

        assertArrayEquals(value(0, 0), store.get(key(0)));
        assertFalse(store.exists(key(MAX_ENTRIES)));
        assertFalse(store.exists(key(MAX_ENTRIES + 1)));
        store.verifyIntegrity();
    }

    @Test
    void sameSizeOverwritesKeepWorkingAtTheLimit()
    {
        for (int round = 1; round <= 3; round++)
        {
            for (int i = 0; i < accepted; i++)
            {
                store.set(key(i), value(i, round));
            }
            final StoreStats stats = store.stats();
            assertTrue(stats.offHeapBytes() <= stats.budgetBytes(), "round " + round + ": " + stats);
        }

        for (int i = 0; i < accepted; i++)
        {
            assertArrayEquals(value(i, 3), store.get(key(i)), "key " + i);
        }
        store.verifyIntegrity();
    }

    @Test
    void deletingMakesRoomAgain()
    {
        for (int i = 0; i < accepted; i++)
        {
            assertTrue(store.delete(key(i)));
        }
        assertEquals(0, store.size());

        final int again = fill(1_000_000);

        assertTrue(again >= accepted / 2,
            "after deleting everything, " + again + " entries fit where " + accepted + " did before");
        store.verifyIntegrity();
    }

    @Test
    void deletingHalfMakesRoomForNewEntries()
    {
        for (int i = 0; i < accepted; i += 2)
        {
            store.delete(key(i));
        }

        for (int i = 0; i < accepted / 4; i++)
        {
            store.set(key(MAX_ENTRIES + i), value(i, 9));
        }

        assertTrue(store.stats().offHeapBytes() <= BUDGET);
        store.verifyIntegrity();
    }

    private static byte[] key(final int i)
    {
        return bytes("key:" + i);
    }

    private static byte[] value(final int i, final int round)
    {
        final byte[] value = new byte[VALUE_SIZE];
        for (int j = 0; j < value.length; j++)
        {
            value[j] = (byte)(i + j * 13 + round * 101);
        }
        return value;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
