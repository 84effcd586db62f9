package io.agni.store.hash;

import org.agrona.DirectBuffer;

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
 */
public final class KeyHash
{
    private static final long P0 = 0xA0761D6478BD642FL;
    private static final long P1 = 0xE7037ED1A0B428DBL;
    private static final long P2 = 0x8EBC6AF09C88C6E3L;

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
        final long secret = (seed ^ P2) * P1;
        long state = seed ^ P0;
        final long a;
        final long b;
        if (length <= 16)
        {
            if (length >= 8)
            {
                a = buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
                b = buffer.getLong(offset + length - 8, ByteOrder.LITTLE_ENDIAN);
            }
            else if (length >= 4)
            {
                a = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
                b = buffer.getInt(offset + length - 4, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
            }
            else if (length > 0)
            {
                a = ((buffer.getByte(offset) & 0xFFL) << 16) |
                    ((buffer.getByte(offset + (length >> 1)) & 0xFFL) << 8) |
                    (buffer.getByte(offset + length - 1) & 0xFFL);
                b = 0;
            }
            else
            {
                a = 0;
                b = 0;
            }
        }
        else
        {
            int i = 0;
            int remaining = length;
            while (remaining > 16)
            {
                state = fold(
                    buffer.getLong(offset + i, ByteOrder.LITTLE_ENDIAN) ^ secret,
                    buffer.getLong(offset + i + 8, ByteOrder.LITTLE_ENDIAN) ^ state);
                i += 16;
                remaining -= 16;
            }
            a = buffer.getLong(offset + length - 16, ByteOrder.LITTLE_ENDIAN);
            b = buffer.getLong(offset + length - 8, ByteOrder.LITTLE_ENDIAN);
        }
        final long x = a ^ secret;
        final long y = b ^ state;
        return fold((x * y) ^ P0 ^ length, Math.multiplyHigh(x, y) ^ P2);
    }

    private static long fold(final long x, final long y)
    {
        return (x * y) ^ Math.multiplyHigh(x, y);
    }
}
