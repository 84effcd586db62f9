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
 * One scan step does about {@code count} buckets of work whatever the shard boundaries: it continues into the next
 * shards when one ends early, so a count above the whole index ends the scan in one call, as Redis's SCAN does for
 * a small keyspace (docs/architecture.md, "Scan").
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

            final ScanResult result = store.scan(0, null, 1000);

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

            assertEquals(1L << 32, store.scan(0, null, buckets).cursor(), "the first shard exactly");
            final long intoSecond = store.scan(0, null, buckets + 1).cursor();
            assertEquals(1, intoSecond >>> 32, "one bucket into the second shard");
            assertNotEquals(0, intoSecond & 0xFFFF_FFFFL);
            assertEquals(3L << 32, store.scan(1L << 32, null, 2 * buckets).cursor(), "from the second shard");
            assertNotEquals(0, store.scan(0, null, SHARDS * buckets - 1).cursor(), "one bucket short of the end");
            assertEquals(0, store.scan(0, null, SHARDS * buckets).cursor(), "every bucket");
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
                final ScanResult result = store.scan(cursor, null, 100);
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
    void aCursorNamingAShardTheStoreDoesNotHaveIsRefused()
    {
        try (OffHeapStore store = TestStores.builder(SHARDS, TestStores.clock()).build())
        {
            final InvalidCursorException ex =
                assertThrows(InvalidCursorException.class, () -> store.scan((long)SHARDS << 32, null, 1000));
            assertEquals("invalid cursor: " + ((long)SHARDS << 32), ex.getMessage());
            assertThrows(InvalidCursorException.class, () -> store.scan(-1L, null, 1000));
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
            cursor = store.scan(cursor, null, 1).cursor();
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
