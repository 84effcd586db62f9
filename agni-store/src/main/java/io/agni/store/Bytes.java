package io.agni.store;

import org.agrona.DirectBuffer;

/**
 * Byte-range comparison for the multi-key operations, which compare keys the caller passed (not yet in the store).
 */
final class Bytes
{
    private Bytes()
    {
    }

    /**
     * Whether two ranges hold the same bytes, compared a word at a time.
     *
     * @param a       the first buffer.
     * @param aOffset where its range starts.
     * @param b       the second buffer.
     * @param bOffset where its range starts.
     * @param length  the length of both ranges.
     * @return whether every byte is equal.
     */
    static boolean equal(final DirectBuffer a, final int aOffset, final DirectBuffer b, final int bOffset,
        final int length)
    {
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            if (a.getLong(aOffset + i) != b.getLong(bOffset + i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (a.getByte(aOffset + i) != b.getByte(bOffset + i))
            {
                return false;
            }
        }
        return true;
    }
}
