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

    private static final byte[] KEY_PREFIX = "key:".getBytes(StandardCharsets.US_ASCII);

    private FillData()
    {
    }

    /**
     * The key at an index: {@code key:} and the index in 16 digits.
     * <p>
     * Written digit by digit rather than with {@code String.format}: a fill generates its keys just before the clock
     * starts, and two million calls to the formatter left the JIT compiling the formatter's code (its locale and
     * decimal-symbol setup above all) well into the measured fill, on the CPUs the store under test needed.
     *
     * @param index from 0.
     * @return a new array of {@link #KEY_LENGTH} bytes.
     */
    static byte[] key(final int index)
    {
        if (index < 0)
        {
            throw new IllegalArgumentException("index must not be negative: " + index);
        }
        final byte[] key = new byte[KEY_LENGTH];
        System.arraycopy(KEY_PREFIX, 0, key, 0, KEY_PREFIX.length);
        int rest = index;
        for (int i = KEY_LENGTH - 1; i >= KEY_PREFIX.length; i--)
        {
            key[i] = (byte)('0' + rest % 10);
            rest /= 10;
        }
        return key;
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
