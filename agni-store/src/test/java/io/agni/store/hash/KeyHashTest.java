package io.agni.store.hash;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyHashTest
{
    /**
     * The public constant the hash before this one XORed into a key's first word without the seed.
     */
    private static final long P1 = 0xE7037ED1A0B428DBL;
    private static final long[] SEEDS = {0x1234_5678_9ABC_DEF0L, -7L, new SplittableRandom(3).nextLong()};
    private static final int KEYS = 1000;
    private static final int SLOTS = 1024;

    @Test
    void keysWhoseFirstWordIsTheConstantCollidedUnderEverySeedBeforeAndNowSpread()
    {
        // 16-byte keys: the first word is P1, the second the key's number. The hash before this one computed
        // x = first ^ P1 = 0, so x * y was 0 whatever the seed: 1,000 keys, one hash.
        final Set<Long> before = new HashSet<>();
        for (final long seed : SEEDS)
        {
            for (int k = 0; k < KEYS; k++)
            {
                before.add(previousHashOf16Bytes(P1, k, seed));
            }
        }
        assertEquals(1, before.size(), "the attack on the previous hash: one hash for every key and seed");

        for (final long seed : SEEDS)
        {
            final int[] slots = new int[SLOTS];
            final Set<Long> hashes = new HashSet<>();
            for (int k = 0; k < KEYS; k++)
            {
                final long hash = KeyHash.hash(key(P1, k), 0, 16, seed);
                hashes.add(hash);
                slots[(int)(hash & (SLOTS - 1))]++;
            }
            assertEquals(KEYS, hashes.size(), "every key its own hash under seed " + seed);
            assertTrue(maxOf(slots) <= 8, "1,000 keys in 1,024 home slots, at most " + maxOf(slots) + " in one");
        }
    }

    @Test
    void longKeysCannotResetTheStateWithoutTheSeed()
    {
        // 48-byte keys [P1, k, P1, 0, P1, 0]: the previous hash's loop folded (P1 ^ P1) * y = 0 into its state, so
        // the seed was lost after the first 16 bytes, and the last pair's P1 made the result a constant.
        for (final long seed : SEEDS)
        {
            final Set<Long> hashes = new HashSet<>();
            final int[] slots = new int[SLOTS];
            for (int k = 0; k < KEYS; k++)
            {
                final long hash = KeyHash.hash(key(P1, k, P1, 0, P1, 0), 0, 48, seed);
                hashes.add(hash);
                slots[(int)(hash & (SLOTS - 1))]++;
            }
            assertEquals(KEYS, hashes.size());
            assertTrue(maxOf(slots) <= 8, "at most " + maxOf(slots) + " in one slot");
        }
    }

    @Test
    void theSeedChangesTheHashOfEveryKeyLength()
    {
        final SplittableRandom random = new SplittableRandom(7);
        for (int length = 0; length <= 70; length++)
        {
            final byte[] bytes = new byte[length];
            for (int i = 0; i < length; i++)
            {
                bytes[i] = (byte)random.nextInt();
            }
            final UnsafeBuffer key = new UnsafeBuffer(bytes);
            assertEquals(KeyHash.hash(key, 0, length, SEEDS[0]), KeyHash.hash(key, 0, length, SEEDS[0]),
                "the same seed, the same hash");
            assertNotEquals(KeyHash.hash(key, 0, length, SEEDS[0]), KeyHash.hash(key, 0, length, SEEDS[1]),
                "length " + length);
            assertNotEquals(KeyHash.hash(key, 0, length, SEEDS[1]), KeyHash.hash(key, 0, length, SEEDS[2]),
                "length " + length);
        }
    }

    @Test
    void theHighBitsThatPickAShardSpreadToo()
    {
        final int[] shards = new int[16];
        for (int k = 0; k < 16_000; k++)
        {
            shards[(int)(KeyHash.hash(key(P1, k), 0, 16, SEEDS[0]) >>> 60)]++;
        }
        for (final int count : shards)
        {
            assertTrue(count > 800 && count < 1200, "16,000 keys over 16 shards: " + count);
        }
    }

    /**
     * The last step of the hash as it was before the seed entered every word, for a 16-byte key.
     */
    private static long previousHashOf16Bytes(final long first, final long second, final long seed)
    {
        final long p0 = 0xA0761D6478BD642FL;
        final long p2 = 0x8EBC6AF09C88C6E3L;
        final long x = first ^ P1;
        final long y = second ^ (seed ^ p0);
        final long low = (x * y) ^ p0 ^ 16;
        final long high = Math.multiplyHigh(x, y) ^ p2;
        return (low * high) ^ Math.multiplyHigh(low, high);
    }

    private static UnsafeBuffer key(final long... words)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[words.length * Long.BYTES]);
        for (int i = 0; i < words.length; i++)
        {
            key.putLong(i * Long.BYTES, words[i], ByteOrder.LITTLE_ENDIAN);
        }
        return key;
    }

    private static int maxOf(final int[] counts)
    {
        int max = 0;
        for (final int count : counts)
        {
            max = Math.max(max, count);
        }
        return max;
    }
}
