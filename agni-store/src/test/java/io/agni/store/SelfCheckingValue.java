package io.agni.store;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Values that say which key they belong to, which write made them and how long they are, with every later byte
 * derived from those, so that a reader can tell a whole value from a torn, mixed or misplaced one.
 *
 * <pre>
 *   0        4            8        12
 *   | key id | generation | length | body: (key * 31 + generation * 17 + i * 7) for i from 12 |
 * </pre>
 */
final class SelfCheckingValue
{
    static final int HEADER = 12;

    private SelfCheckingValue()
    {
    }

    static byte[] encode(final int keyId, final int generation, final int length)
    {
        final byte[] value = new byte[Math.max(HEADER, length)];
        final UnsafeBuffer buffer = new UnsafeBuffer(value);
        buffer.putInt(0, keyId);
        buffer.putInt(4, generation);
        buffer.putInt(8, value.length);
        for (int i = HEADER; i < value.length; i++)
        {
            value[i] = expected(keyId, generation, i);
        }
        return value;
    }

    /**
     * Checks a value read for a key.
     *
     * @param keyId  the key it was read from.
     * @param value  the bytes read.
     * @param offset where they start.
     * @param length how many.
     * @return the generation of the write that made the value.
     * @throws AssertionError if the value is not one whole value written for this key.
     */
    static int check(final int keyId, final DirectBuffer value, final int offset, final int length)
    {
        if (length < HEADER)
        {
            throw new AssertionError("value of key " + keyId + " too short: " + length);
        }
        final int id = value.getInt(offset);
        final int generation = value.getInt(offset + 4);
        final int declared = value.getInt(offset + 8);
        if (id != keyId || declared != length)
        {
            throw new AssertionError("value read for key " + keyId + " says key " + id + ", length " + declared +
                ", but " + length + " bytes were read (generation " + generation + ")");
        }
        for (int i = HEADER; i < length; i++)
        {
            if (value.getByte(offset + i) != expected(keyId, generation, i))
            {
                throw new AssertionError("torn value for key " + keyId + " generation " + generation +
                    ": byte " + i + " of " + length + " is " + value.getByte(offset + i) + ", expected " +
                    expected(keyId, generation, i));
            }
        }
        return generation;
    }

    static int check(final int keyId, final byte[] value)
    {
        return check(keyId, new UnsafeBuffer(value), 0, value.length);
    }

    private static byte expected(final int keyId, final int generation, final int i)
    {
        return (byte)(keyId * 31 + generation * 17 + i * 7);
    }
}
