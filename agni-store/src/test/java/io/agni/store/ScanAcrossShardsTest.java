package io.agni.store;

import io.agni.api.InvalidCursorException;
import io.agni.api.ScanResult;
import io.agni.testsupport.ByteArrayKey;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One scan step does its work whatever the shard boundaries: it continues into the next shards when one ends early,
 * so a step that may visit every bucket ends the scan in one call, as Redis's SCAN does for a small keyspace
 * (docs/architecture.md, "Scan"). Its count, as Redis's, is about the keys it looks at: it stops at the end of the
 * bucket in which it has seen that many, or after ten buckets per key of it (at least 4,096).
 */
class ScanAcrossShardsTest
{
    private static final int SHARDS = 4;

    @Test
    void oneStepWithACountAboveEveryBucketReturnsEveryKeyAndEndsTheScan()
    {
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            final Set<ByteArrayKey> expected = new TreeSet<>();
            for (int i = 0; i < 10; i++)
            {
                store.set(bytes("key:" + i), bytes("v"));
                expected.add(ByteArrayKey.of("key:" + i));
            }

            final ScanResult result = store.scanBuckets(0, null, 1000);

            assertEquals(0, result.cursor());
            assertEquals(expected, keys(result));
            assertEquals(10, result.keys().size(), "no key twice");
        }
    }

    @Test
    void aStepStopsAfterCountBucketsInWhicheverShardTheyRunOut()
    {
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            final int buckets = bucketsOfFirstShard(store);

            assertEquals(1L << 32, store.scanBuckets(0, null, buckets).cursor(), "the first shard exactly");
            final long intoSecond = store.scanBuckets(0, null, buckets + 1).cursor();
            assertEquals(1, intoSecond >>> 32, "one bucket into the second shard");
            assertNotEquals(0, intoSecond & 0xFFFF_FFFFL);
            assertEquals(3L << 32, store.scanBuckets(1L << 32, null, 2 * buckets).cursor(), "from the second shard");
            assertNotEquals(0, store.scanBuckets(0, null, SHARDS * buckets - 1).cursor(),
                "one bucket short of the end");
            assertEquals(0, store.scanBuckets(0, null, SHARDS * buckets).cursor(), "every bucket");
        }
    }

    @Test
    void stepsThatCrossShardsReturnEveryKeyPresentThroughoutWhileShardsGrow()
    {
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            final Set<ByteArrayKey> present = new TreeSet<>();
            for (int i = 0; i < 200; i++)
            {
                store.set(bytes("pre:" + i), bytes("v"));
                present.add(ByteArrayKey.of("pre:" + i));
            }

            final Set<ByteArrayKey> found = new HashSet<>();
            long cursor = 0;
            int steps = 0;
            int added = 0;
            int shardsCrossed = 0;
            do
            {
                final long before = cursor >>> 32;
                final ScanResult result = store.scanBuckets(cursor, null, 100);
                found.addAll(keys(result));
                cursor = result.cursor();
                if (crossedIntoAnotherShard(before, cursor))
                {
                    shardsCrossed++;
                }
                for (int i = 0; i < 300; i++, added++)
                {
                    store.set(bytes("grown:" + added), bytes("value-" + added));
                }
                assertTrue(++steps < 10_000, "scan did not end");
            }
            while (cursor != 0);

            present.removeAll(found);
            assertEquals(Set.of(), present, "keys present for the whole scan but never returned");
            assertTrue(shardsCrossed > 0, "no step went past the end of a shard into another");
            store.verifyIntegrity();
        }
    }

    @Test
    void aDefaultStepOfAStoreOfTwelveKeysReturnsAtLeastTenOfThem()
    {
        // 8 shards (the default on 2 cores) of 16 slots: 128 buckets for 12 keys. Counting buckets, a step of 10
        // returned about one key, and often none.
        try (OffHeapStore store = TestStores.builder(8, TestStores.clock()).build())
        {
            for (int i = 0; i < 12; i++)
            {
                store.set(bytes("key:" + i), bytes("v"));
            }
            final ScanResult first = store.scan(0, null, 10);
            assertTrue(first.keys().size() >= 10, () -> first.keys().size() + " keys");
            final Set<ByteArrayKey> found = new TreeSet<>(keys(first));
            if (first.cursor() != 0)
            {
                final ScanResult second = store.scan(first.cursor(), null, 10);
                assertEquals(0, second.cursor(), "two steps walk twelve keys");
                found.addAll(keys(second));
            }
            assertEquals(12, found.size());
        }
    }

    @Test
    void aStepStopsAtTheEndOfTheBucketInWhichItHasSeenCountKeysMatchingOrNot()
    {
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            for (int i = 0; i < 10_000; i++)
            {
                store.set(bytes("key:" + i), bytes("v"));
            }
            final ScanResult all = store.scan(0, null, 10);
            assertNotEquals(0, all.cursor());
            // a bucket holds the keys whose home it is: a few at most at this table's load
            assertTrue(all.keys().size() >= 10 && all.keys().size() < 30, () -> all.keys().size() + " keys");

            final ScanResult none = store.scan(0, bytes("nomatch*"), 10);
            assertNotEquals(0, none.cursor(), "keys that do not match count too: the step's work is bounded");
            assertEquals(0, none.keys().size());
        }
    }

    @Test
    void aDefaultStepOverAnEmptyStoreOfSixtyFourShardsEndsTheScan()
    {
        try (OffHeapStore store = TestStores.builder(64, TestStores.clock()).build())
        {
            final ScanResult result = store.scan(0, null, 10);
            assertEquals(0, result.cursor(), "1,024 empty buckets are within a step's 4,096");
            assertEquals(0, result.keys().size());
        }
    }

    @Test
    void aCursorNamingAShardTheStoreDoesNotHaveIsRefused()
    {
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            final InvalidCursorException ex =
                assertThrows(InvalidCursorException.class, () -> store.scanBuckets((long)SHARDS << 32, null, 1000));
            assertEquals("invalid cursor: " + ((long)SHARDS << 32), ex.getMessage());
            assertThrows(InvalidCursorException.class, () -> store.scanBuckets(-1L, null, 1000));
        }
    }

    /**
     * Whether a step that started in shard {@code from} visited buckets of a later shard: it ended inside one, past
     * the start of the next, or at the end of the scan without having started in the last shard.
     */
    private static boolean crossedIntoAnotherShard(final long from, final long cursor)
    {
        if (cursor == 0)
        {
            return from < SHARDS - 1;
        }
        final long to = cursor >>> 32;
        return to > from + 1 || to == from + 1 && (cursor & 0xFFFF_FFFFL) != 0;
    }

    /**
     * Counts the home buckets of the first shard by stepping one bucket at a time until the cursor moves on.
     */
    private static int bucketsOfFirstShard(final OffHeapStore store)
    {
        long cursor = 0;
        int buckets = 0;
        do
        {
            cursor = store.scanBuckets(cursor, null, 1).cursor();
            buckets++;
            assertTrue(buckets < 1 << 20, "the first shard did not end");
        }
        while ((cursor >>> 32) == 0);
        assertEquals(1L << 32, cursor);
        return buckets;
    }

    private static Set<ByteArrayKey> keys(final ScanResult result)
    {
        final Set<ByteArrayKey> keys = new TreeSet<>();
        result.keys().forEach(k -> keys.add(new ByteArrayKey(k)));
        return keys;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
