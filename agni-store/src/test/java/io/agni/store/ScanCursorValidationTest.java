package io.agni.store;

import io.agni.api.InvalidCursorException;
import io.agni.api.ScanResult;
import io.agni.api.StoreClosedException;
import io.agni.testsupport.ByteArrayKey;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A scan takes back every cursor the store returned and refuses, without a stack trace, every cursor with a bit the
 * store never returned: a shard it does not have, or a bucket bit no cursor of that shard had (docs/architecture.md,
 * "Scan").
 */
class ScanCursorValidationTest
{
    private static final int SHARDS = 4;
    private static final long BUCKET_MASK = 0xFFFF_FFFFL;

    @Test
    void aStoreThatReturnedNoCursorTakesOnlyZeroAndTheStartOfAShard()
    {
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            store.set(bytes("k"), bytes("v"));
            for (int bit = 0; bit < 64; bit++)
            {
                final long cursor = 1L << bit;
                if (bit == 32 || bit == 33)
                {
                    store.scanBuckets(cursor, null, 1);
                }
                else
                {
                    final InvalidCursorException ex =
                        assertThrows(InvalidCursorException.class, () -> store.scanBuckets(cursor, null, 1),
                            "bit " + bit);
                    assertEquals("invalid cursor: " + Long.toUnsignedString(cursor), ex.getMessage());
                }
            }
            assertEquals(1, store.scanBuckets(0, null, 1000).keys().size());
        }
    }

    @Test
    void everyBitTheStoreNeverReturnedIsRefusedAndEveryCursorItReturnedIsTakenBack()
    {
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            for (int i = 0; i < 3000; i++)
            {
                store.set(bytes("key:" + i), bytes("v"));
            }
            final List<Long> returned = new ArrayList<>();
            final long[] returnedBits = new long[SHARDS];
            long cursor = 0;
            do
            {
                cursor = store.scanBuckets(cursor, null, 7).cursor();
                returned.add(cursor);
                returnedBits[(int)(cursor >>> 32)] |= cursor & BUCKET_MASK;
            }
            while (cursor != 0);
            assertTrue(Long.bitCount(returnedBits[0]) >= 8, "the tables grew past 256 buckets");

            int refused = 0;
            int taken = 0;
            for (final long c : returned)
            {
                store.scanBuckets(c, null, 1);
                for (int bit = 0; bit < 64; bit++)
                {
                    final long flipped = c ^ (1L << bit);
                    final long shard = flipped >>> 32;
                    final boolean couldHaveReturned =
                        shard < SHARDS && ((flipped & BUCKET_MASK) & ~returnedBits[(int)shard]) == 0;
                    if (couldHaveReturned)
                    {
                        store.scanBuckets(flipped, null, 1);
                        taken++;
                    }
                    else
                    {
                        assertThrows(InvalidCursorException.class, () -> store.scanBuckets(flipped, null, 1),
                            () -> "cursor " + Long.toHexString(flipped));
                        refused++;
                    }
                }
            }
            assertTrue(refused > 0 && taken > 0, "refused " + refused + ", taken " + taken);
        }
    }

    @Test
    void aCursorReturnedBeforeTheStoreGrewOrWasClearedIsTakenBack()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).build())
        {
            for (int i = 0; i < 500; i++)
            {
                store.set(bytes("before:" + i), bytes("v"));
            }
            final long early = store.scanBuckets(0, null, 3).cursor();
            long late = early;
            for (int i = 0; i < 200; i++)
            {
                late = store.scanBuckets(late, null, 3).cursor();
            }
            assertTrue(early != 0 && late != 0 && late != early, "two cursors inside the one shard's scan");

            for (int i = 0; i < 5000; i++)
            {
                store.set(bytes("grown:" + i), bytes("v"));
            }
            store.scanBuckets(early, null, 3);
            store.scanBuckets(late, null, 3);

            store.clear();
            store.set(bytes("after"), bytes("v"));
            final Set<ByteArrayKey> found = new HashSet<>();
            long cursor = late;
            do
            {
                final ScanResult result = store.scanBuckets(cursor, null, 3);
                result.keys().forEach(k -> found.add(new ByteArrayKey(k)));
                cursor = result.cursor();
            }
            while (cursor != 0);
            assertTrue(found.size() <= 1, "a cleared store has at most the one key written since: " + found);
        }
    }

    @Test
    void aRefusedCursorCostsNoStackTrace()
    {
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            final InvalidCursorException ex =
                assertThrows(InvalidCursorException.class, () -> store.scanBuckets(1L << 31, null, 10));

            assertEquals(0, ex.getStackTrace().length);
        }
    }

    @Test
    void aClosedStoreSaysSoWhateverTheCursor()
    {
        final OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build();
        store.close();

        assertThrows(StoreClosedException.class, () -> store.scan(1L << 31, null, 10));
        assertThrows(StoreClosedException.class, () -> store.scan(-1L, null, 10));
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
