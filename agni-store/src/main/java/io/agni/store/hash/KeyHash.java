package io.agni.store.hash;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

/**
 * A keyed 64-bit hash of a byte string in the style of wyhash: the input is read eight bytes at a time and folded
 * with 64 x 64 -> 128-bit multiplications ({@link Math#multiplyHigh}), whose two halves are XORed. A key of up to
 * 16 bytes costs two loads and two multiplications.
 *
 * <h2>The seed enters every word</h2>
 * Each store draws its own random seed. Every word of the key is XORed with a value derived from it before it is
 * multiplied: the first of each pair with {@code secret = (seed ^ P2) * P1}, the second with the running state
 * that starts as {@code seed ^ P0}. The secret is a multiple of the seed rather than a rotation, so that the two
 * masks' difference ({@code secret ^ state}, which a pair of keys with swapped words could exploit) takes all 64 bits
 * of the seed to know, not 32. A multiplication by zero loses everything multiplied into it, so a word that
 * can be made zero without knowing the seed (as {@code word ^ P1} could, with the word equal to the public
 * constant {@code P1}) makes any number of keys hash alike under every seed: a remote client could then put them all
 * in one slot of one shard (O(n^2) probing under one lock). With the seed in every word, making a product zero, or
 * two keys' products equal, needs the seed, which never leaves the store.
 * <p>
 * This is not a cryptographic MAC (SipHash would be one, at several times the cost of a GET's hash); it is a keyed
 * mix that leaves no seed-independent collision of the kind above.
 * <p>
 * The store takes a key's shard from the high bits and its index slot from the low bits
 * (docs/architecture.md, "Sharding"); the final fold mixes every input bit into both.
 *
 * <h2>Bounds</h2>
 * The key's range is checked once, with {@link DirectBuffer#boundsCheck}, whatever Agrona's bounds-check setting;
 * the words are then read without Agrona's per-access check, which would repeat it for every word.
 */
public final class KeyHash
{
    private static final long P0 = 0xA0761D6478BD642FL;
    private static final long P1 = 0xE7037ED1A0B428DBL;
    private static final long P2 = 0x8EBC6AF09C88C6E3L;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private KeyHash()
    {
    }

    /**
     * Hashes {@code length} bytes of {@code buffer} from {@code offset}.
     *
     * @param buffer the bytes.
     * @param offset where they start.
     * @param length how many.
     * @param seed   the store's seed.
     * @return the hash.
     */
    public static long hash(final DirectBuffer buffer, final int offset, final int length, final long seed)
    {
        buffer.boundsCheck(offset, length);
        return hashInRange(buffer, offset, length, seed);
    }

    /**
     * As {@link #hash}, for a range the caller has checked with {@link DirectBuffer#boundsCheck} (a GET checks its
     * key once, for the hash and the probe's comparison both).
     *
     * @param buffer the bytes.
     * @param offset where they start; {@code [offset, offset + length)} is inside the buffer.
     * @param length how many.
     * @param seed   the store's seed.
     * @return the hash.
     */
    public static long hashInRange(final DirectBuffer buffer, final int offset, final int length, final long seed)
    {
        final byte[] array = buffer.byteArray();
        final long address = buffer.addressOffset() + offset;
        if (length >= 8 && length <= 16)
        {
            // the common key: two words, no loop (kept apart so that this method stays small enough to inline)
            return finish(word(array, address), word(array, address + length - 8), seed ^ P0, length, seed);
        }
        return hashOther(array, address, length, seed);
    }

    private static long hashOther(final byte[] array, final long address, final int length, final long seed)
    {
        if (length < 8)
        {
            final long a;
            final long b;
            if (length >= 4)
            {
                a = half(array, address);
                b = half(array, address + length - 4);
            }
            else if (length > 0)
            {
                a = ((UnsafeApi.getByte(array, address) & 0xFFL) << 16) |
                    ((UnsafeApi.getByte(array, address + (length >> 1)) & 0xFFL) << 8) |
                    (UnsafeApi.getByte(array, address + length - 1) & 0xFFL);
                b = 0;
            }
            else
            {
                a = 0;
                b = 0;
            }
            return finish(a, b, seed ^ P0, length, seed);
        }
        final long secret = (seed ^ P2) * P1;
        long state = seed ^ P0;
        int i = 0;
        int remaining = length;
        while (remaining > 16)
        {
            state = fold(word(array, address + i) ^ secret, word(array, address + i + 8) ^ state);
            i += 16;
            remaining -= 16;
        }
        return finish(word(array, address + length - 16), word(array, address + length - 8), state, length, seed);
    }

    private static long finish(final long a, final long b, final long state, final int length, final long seed)
    {
        final long x = a ^ ((seed ^ P2) * P1);
        final long y = b ^ state;
        return fold((x * y) ^ P0 ^ length, Math.multiplyHigh(x, y) ^ P2);
    }

    /**
     * Eight bytes, little-endian, at an address of a range already checked.
     */
    private static long word(final byte[] array, final long address)
    {
        final long v = UnsafeApi.getLong(array, address);
        return LITTLE_ENDIAN ? v : Long.reverseBytes(v);
    }

    /**
     * Four bytes, little-endian and unsigned, at an address of a range already checked.
     */
    private static long half(final byte[] array, final long address)
    {
        final int v = UnsafeApi.getInt(array, address);
        return (LITTLE_ENDIAN ? v : Integer.reverseBytes(v)) & 0xFFFF_FFFFL;
    }

    private static long fold(final long x, final long y)
    {
        return (x * y) ^ Math.multiplyHigh(x, y);
    }
}
