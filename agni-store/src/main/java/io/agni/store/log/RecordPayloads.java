package io.agni.store.log;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes the payloads of SET, DELETE and EXPIRE records ({@link LogLayout}), for a record of their own
 * ({@link LogWriter}) and for an operation of a batch ({@link ChangeRecorder}, after its type byte): one encoder for
 * both, so that they cannot drift apart.
 */
final class RecordPayloads
{
    private RecordPayloads()
    {
    }

    /**
     * The length of a SET payload.
     *
     * @param keyLength   the key's length.
     * @param valueLength the value's length.
     * @return bytes.
     */
    static long setLength(final int keyLength, final long valueLength)
    {
        return (long)LogLayout.SET_FIXED_LENGTH + keyLength + valueLength;
    }

    /**
     * Writes a SET payload whose value is given in parts: the first, {@code gap} zero bytes, the second, the third.
     *
     * @param buffer         where.
     * @param at             the payload's offset.
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param value1         the value's first part.
     * @param offset1        where it starts.
     * @param length1        its length.
     * @param gap            zero bytes after it.
     * @param value2         the second part.
     * @param offset2        where it starts.
     * @param length2        its length.
     * @param value3         the third part.
     * @param offset3        where it starts.
     * @param length3        its length.
     * @param expireAtMillis the absolute expiry time, {@link LogLayout#NO_EXPIRY} for none.
     */
    static void putSet(
        final MutableDirectBuffer buffer, final int at,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value1, final int offset1, final int length1, final int gap,
        final DirectBuffer value2, final int offset2, final int length2,
        final DirectBuffer value3, final int offset3, final int length3, final long expireAtMillis)
    {
        buffer.putInt(at, keyLength, LogLayout.ORDER);
        buffer.putInt(at + Integer.BYTES, length1 + gap + length2 + length3, LogLayout.ORDER);
        buffer.putLong(at + 2 * Integer.BYTES, expireAtMillis, LogLayout.ORDER);
        int p = at + LogLayout.SET_FIXED_LENGTH;
        buffer.putBytes(p, key, keyOffset, keyLength);
        p += keyLength;
        buffer.putBytes(p, value1, offset1, length1);
        p += length1;
        if (gap > 0)
        {
            buffer.setMemory(p, gap, (byte)0);
            p += gap;
        }
        if (length2 > 0)
        {
            buffer.putBytes(p, value2, offset2, length2);
            p += length2;
        }
        if (length3 > 0)
        {
            buffer.putBytes(p, value3, offset3, length3);
        }
    }

    /**
     * Writes a DELETE payload.
     *
     * @param buffer    where.
     * @param at        the payload's offset.
     * @param key       the key's bytes.
     * @param keyOffset where they start.
     * @param keyLength how many.
     */
    static void putDelete(
        final MutableDirectBuffer buffer, final int at, final DirectBuffer key, final int keyOffset,
        final int keyLength)
    {
        buffer.putInt(at, keyLength, LogLayout.ORDER);
        buffer.putBytes(at + LogLayout.DELETE_FIXED_LENGTH, key, keyOffset, keyLength);
    }

    /**
     * Writes an EXPIRE payload.
     *
     * @param buffer         where.
     * @param at             the payload's offset.
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param expireAtMillis the absolute expiry time, {@link LogLayout#NO_EXPIRY} to remove it.
     */
    static void putExpire(
        final MutableDirectBuffer buffer, final int at, final DirectBuffer key, final int keyOffset,
        final int keyLength, final long expireAtMillis)
    {
        buffer.putInt(at, keyLength, LogLayout.ORDER);
        buffer.putLong(at + Integer.BYTES, expireAtMillis, LogLayout.ORDER);
        buffer.putBytes(at + LogLayout.EXPIRE_FIXED_LENGTH, key, keyOffset, keyLength);
    }
}
