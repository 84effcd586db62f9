package io.agni.bench.durability;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The keys and values of {@link FillOnce}: TurboKV's shape (sequential keys of 20 bytes, values of 400 random
 * bytes), with each value a function of its key's index alone, so that a later process can check any key without
 * generating the ones before it.
 */
final class FillData
{
    /**
     * The length of every key, in bytes.
     */
    static final int KEY_LENGTH = 20;

    /**
     * The length of every value, in bytes.
     */
    static final int VALUE_LENGTH = 400;

    private FillData()
    {
    }

    /**
     * The key at an index: {@code key:} and the index in 16 digits.
     *
     * @param index from 0.
     * @return a new array of {@link #KEY_LENGTH} bytes.
     */
    static byte[] key(final int index)
    {
        return String.format("key:%016d", index).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The value at an index: random bytes (incompressible) from a generator seeded with the index.
     *
     * @param index from 0.
     * @return a new array of {@link #VALUE_LENGTH} bytes.
     */
    static byte[] value(final int index)
    {
        final byte[] value = new byte[VALUE_LENGTH];
        new SplittableRandom(index).nextBytes(value);
        return value;
    }

    /**
     * The bytes of user data in a fill: keys and values, nothing of a store's own.
     *
     * @param keys the number of keys.
     * @return {@code keys * (KEY_LENGTH + VALUE_LENGTH)}.
     */
    static long userBytes(final int keys)
    {
        return (long)keys * (KEY_LENGTH + VALUE_LENGTH);
    }
}
