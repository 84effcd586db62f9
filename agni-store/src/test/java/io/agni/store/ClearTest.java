package io.agni.store;

import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryLayout;
import io.agni.store.index.IndexLayout;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link OffHeapStore#clear()} when the budget has no room left: clearing must not depend on memory it has not
 * released yet, and must leave every shard consistent and usable.
 */
class ClearTest
{
    private static final int SHARDS = 2;
    private static final int INITIAL_INDEX_BYTES = 16 * IndexLayout.SLOT_BYTES;
    private static final int KEY_LENGTH = 2;
    private static final int VALUE_LENGTH = Arena.LARGE_ENTRY_BYTES + 1000;

    @Test
    void clearEmptiesAStoreWhoseBudgetHasNoRoomForANewIndex()
    {
        // One entry in a dedicated segment of exactly its length fills the budget to the byte, and it lives in
        // shard 1: shard 0 holds no segment, so clearing it releases nothing before it wants a fresh index.
        final long entryLength = EntryLayout.length(KEY_LENGTH, VALUE_LENGTH, false);
        final long budget = (long)SHARDS * INITIAL_INDEX_BYTES + entryLength;
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).maxMemory(budget)
            .maxKeyLength(KEY_LENGTH).maxValueLength(VALUE_LENGTH).build())
        {
            final byte[] key = keyInShard(store, 1);
            final byte[] value = new byte[VALUE_LENGTH];
            value[7] = 7;
            store.set(key, value);
            assertEquals(budget, store.stats().offHeapBytes(), "the budget is full to the byte");

            store.clear();

            assertEquals(0, store.size());
            assertNull(store.get(key));
            store.verifyIntegrity();
            assertTrue(store.stats().offHeapBytes() <= (long)SHARDS * INITIAL_INDEX_BYTES,
                "clear returned the entry's memory: " + store.stats());

            store.set(key, value);
            assertArrayEquals(value, store.get(key), "the whole budget is usable again");
            store.verifyIntegrity();
        }
    }

    private static byte[] keyInShard(final OffHeapStore store, final int shard)
    {
        for (char c = 'a'; c <= 'z'; c++)
        {
            final byte[] key = bytes("k" + c);
            if (store.shards().index(store.shards().hash(new UnsafeBuffer(key), 0, key.length)) == shard)
            {
                return key;
            }
        }
        throw new AssertionError("no two-byte key of 'k' + a letter hashes to shard " + shard);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
