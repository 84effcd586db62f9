package io.agni.bench.adapter;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * A fixed set of distinct keys, made once before measuring, held twice: as one off-heap block for the zero-copy
 * path (key {@code i} at {@link #offset(int)}) and as one {@code byte[]} per key for the {@code byte[]} path.
 *
 * <p>Key {@code i} starts with a bijective mix of {@code i}, so keys of one set are distinct; the next eight bytes
 * mix {@code i} with the set's tag, so two sets with different tags share no key. Any further bytes are filler.
 * Immutable after construction; safe to share between threads.
 */
public final class KeySet
{
    /**
     * The shortest key a set can make distinct by construction.
     */
    public static final int MIN_KEY_LENGTH = 2 * Long.BYTES;

    private final int count;
    private final int keyLength;
    private final UnsafeBuffer block;
    private final byte[][] arrays;

    private KeySet(final int count, final int keyLength, final long tag)
    {
        this.count = count;
        this.keyLength = keyLength;
        this.block = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.multiplyExact(count, keyLength)));
        this.arrays = new byte[count][];
        for (int i = 0; i < count; i++)
        {
            final int offset = i * keyLength;
            block.putLong(offset, mix(i + 1L));
            block.putLong(offset + Long.BYTES, mix(i + 1L) ^ mix(tag));
            for (int j = MIN_KEY_LENGTH; j < keyLength; j++)
            {
                block.putByte(offset + j, (byte)(i + j));
            }
            final byte[] key = new byte[keyLength];
            block.getBytes(offset, key);
            arrays[i] = key;
        }
    }

    /**
     * Makes a key set.
     *
     * @param count     how many keys.
     * @param keyLength the length of every key, at least {@link #MIN_KEY_LENGTH}.
     * @param tag       sets with different tags are disjoint; the same tag gives the same keys.
     * @return the key set.
     */
    public static KeySet generate(final int count, final int keyLength, final long tag)
    {
        if (count < 1 || keyLength < MIN_KEY_LENGTH)
        {
            throw new IllegalArgumentException(
                "key set too small: count=" + count + ", keyLength=" + keyLength + ", minKeyLength=" + MIN_KEY_LENGTH);
        }
        return new KeySet(count, keyLength, tag);
    }

    /**
     * The number of keys.
     *
     * @return the count.
     */
    public int count()
    {
        return count;
    }

    /**
     * The length of every key in bytes.
     *
     * @return the key length.
     */
    public int keyLength()
    {
        return keyLength;
    }

    /**
     * The off-heap block holding every key, for the zero-copy path.
     *
     * @return the block; do not write to it.
     */
    public DirectBuffer buffer()
    {
        return block;
    }

    /**
     * Where key {@code index} starts in {@link #buffer()}.
     *
     * @param index the key's index.
     * @return its offset.
     */
    public int offset(final int index)
    {
        return index * keyLength;
    }

    /**
     * Key {@code index} as an array, for the {@code byte[]} path.
     *
     * @param index the key's index.
     * @return the shared array; do not write to it.
     */
    public byte[] array(final int index)
    {
        return arrays[index];
    }

    /**
     * The finaliser of MurmurHash3's 64-bit hash: a bijection on {@code long}, so distinct inputs stay distinct.
     */
    private static long mix(final long value)
    {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
