package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.store.index.IndexLayout;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keys whose hashes share an index tag: the probe must compare keys, not tags, whatever the shape of the entry it
 * meets first. The zero-copy GET's fast path ({@code FastRead}) decides from one header load whether an entry is
 * of a common shape (with or without an expiry time), a different key of a common shape (probe on), or of another
 * shape (general path); each case here puts a key behind a same-tag entry of one kind and reads both back, and the
 * second test reads a key with an expiry time up to the millisecond it expires.
 * <p>
 * Tags are 26 bits of a seeded hash, so same-tag pairs are found by hashing enough generated keys with the store's
 * own seed (about 60,000 for 30 pairs) rather than built in advance.
 */
class SameTagTest
{
    private static final int[] KEY_LENGTHS = {5, 8, 12, 16, 17, 20};
    private static final int PAIRS = 30;

    @Test
    void aKeyBehindASameTagEntryIsFoundWhateverTheEntrysShape()
    {
        forEachCase((store, clock, first, second, shape) ->
        {
            final byte[] firstValue = shape.write(store, first, clock);
            final byte[] secondValue = value(second, 100);
            assertEquals(AgniStore.NOT_FOUND, zeroCopyGet(store, second), shape + ": absent");
            store.set(second, secondValue);
            assertArrayEquals(secondValue, zeroCopyGetBytes(store, second), shape + ": second");
            assertArrayEquals(firstValue, zeroCopyGetBytes(store, first), shape + ": first");
            assertArrayEquals(secondValue, store.get(second), shape + ": second, byte[] path");
            assertTrue(store.delete(first));
            assertArrayEquals(secondValue, zeroCopyGetBytes(store, second), shape + ": after delete");
        });
    }

    @Test
    void anExpiringKeyBehindASameTagEntryIsReadUntilItExpires()
    {
        forEachCase((store, clock, first, second, shape) ->
        {
            for (final int valueLength : new int[] {0, 100, 127, 128, 200})
            {
                final String what = shape + ", value " + valueLength;
                store.clear();
                final byte[] firstValue = shape.write(store, first, clock);
                final byte[] secondValue = value(second, valueLength);
                final long expiredBefore = store.stats().expired();
                assertTrue(store.set(second, secondValue, SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 1_000));
                assertArrayEquals(secondValue, zeroCopyGetBytes(store, second), what + ": second");
                assertArrayEquals(firstValue, zeroCopyGetBytes(store, first), what + ": first");

                clock.advance(999);
                assertArrayEquals(secondValue, zeroCopyGetBytes(store, second), what + ": 1 ms left");
                clock.advance(1);
                assertEquals(AgniStore.NOT_FOUND, zeroCopyGet(store, second), what + ": expired");
                assertEquals(expiredBefore + 1, store.stats().expired(), what + ": counted and removed");
                assertEquals(1, store.size(), what + ": size");
                assertArrayEquals(firstValue, zeroCopyGetBytes(store, first), what + ": first after");
                store.verifyIntegrity();
            }
        });
    }

    /**
     * One case: {@code first} and {@code second} share a tag, and the first entry will be of {@code shape}.
     */
    @FunctionalInterface
    private interface Case
    {
        void run(OffHeapStore store, CachedEpochClock clock, byte[] first, byte[] second, Shape shape);
    }

    /**
     * Runs a case for every same-tag pair, in both orders, with every first shape, on a cleared one-shard store,
     * and checks the store's integrity after each.
     */
    private static void forEachCase(final Case test)
    {
        final CachedEpochClock clock = TestStores.clock();
        try (OffHeapStore store = TestStores.builder(1, clock).build())
        {
            for (final byte[][] pair : sameTagPairs(store))
            {
                for (int order = 0; order < 2; order++)
                {
                    for (final Shape shape : Shape.values())
                    {
                        store.clear();
                        test.run(store, clock, pair[order], pair[1 - order], shape);
                        store.verifyIntegrity();
                    }
                }
            }
        }
    }

    /**
     * The entry a probe meets first.
     */
    private enum Shape
    {
        /** Common shape: no expiry, key and value shorter than 128 bytes. */
        SMALL
        {
            byte[] write(final OffHeapStore store, final byte[] key, final CachedEpochClock clock)
            {
                final byte[] value = value(key, 100);
                store.set(key, value);
                return value;
            }
        },
        /** An expiry time: the header's flags are set. */
        EXPIRING
        {
            byte[] write(final OffHeapStore store, final byte[] key, final CachedEpochClock clock)
            {
                final byte[] value = value(key, 100);
                assertTrue(store.set(key, value, SetCondition.ALWAYS, ExpiryMode.AT, clock.time() + 60_000));
                return value;
            }
        },
        /** A value of 200 bytes: its length does not fit the header's one-byte form. */
        LONG_VALUE
        {
            byte[] write(final OffHeapStore store, final byte[] key, final CachedEpochClock clock)
            {
                final byte[] value = value(key, 200);
                store.set(key, value);
                return value;
            }
        },
        /** An empty value. */
        EMPTY_VALUE
        {
            byte[] write(final OffHeapStore store, final byte[] key, final CachedEpochClock clock)
            {
                store.set(key, new byte[0]);
                return new byte[0];
            }
        };

        abstract byte[] write(OffHeapStore store, byte[] key, CachedEpochClock clock);
    }

    private static List<byte[][]> sameTagPairs(final OffHeapStore store)
    {
        final Map<Integer, byte[]> byTag = new HashMap<>();
        final List<byte[][]> pairs = new ArrayList<>();
        final UnsafeBuffer wrapper = new UnsafeBuffer(new byte[0]);
        for (int i = 0; pairs.size() < PAIRS; i++)
        {
            final byte[] key = key(i, KEY_LENGTHS[i % KEY_LENGTHS.length]);
            wrapper.wrap(key);
            final int tag = IndexLayout.tag(store.shards().hash(wrapper, 0, key.length));
            final byte[] other = byTag.putIfAbsent(tag, key);
            if (other != null)
            {
                pairs.add(new byte[][] {other, key});
            }
        }
        return pairs;
    }

    private static byte[] key(final int i, final int length)
    {
        final byte[] key = new byte[length];
        Arrays.fill(key, (byte)'k');
        for (int b = 0, v = i; b < 4 && b < length; b++, v >>>= 8)
        {
            key[length - 1 - b] = (byte)v;
        }
        key[0] = (byte)length;
        return key;
    }

    private static byte[] value(final byte[] key, final int length)
    {
        final byte[] value = new byte[length];
        for (int i = 0; i < length; i++)
        {
            value[i] = (byte)(key[i % key.length] + i);
        }
        return value;
    }

    private static int zeroCopyGet(final OffHeapStore store, final byte[] key)
    {
        return store.get(new UnsafeBuffer(key), 0, key.length, new ExpandableArrayBuffer(16), 0);
    }

    private static byte[] zeroCopyGetBytes(final OffHeapStore store, final byte[] key)
    {
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(16);
        final int length = store.get(new UnsafeBuffer(key), 0, key.length, dst, 0);
        assertTrue(length >= 0, "absent");
        final byte[] read = new byte[length];
        dst.getBytes(0, read);
        return read;
    }
}
