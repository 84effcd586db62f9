package io.agni.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A byte string with value equality, for keying heap maps and sets in tests and models. Copies the bytes it is
 * given, so a caller may reuse its array.
 */
public final class ByteArrayKey implements Comparable<ByteArrayKey>
{
    private final byte[] bytes;
    private final int hash;

    /**
     * A key holding a copy of {@code bytes}.
     *
     * @param bytes the bytes.
     */
    public ByteArrayKey(final byte[] bytes)
    {
        this.bytes = bytes.clone();
        this.hash = Arrays.hashCode(this.bytes);
    }

    /**
     * A key holding the ISO-8859-1 bytes of {@code text} (one byte per char).
     *
     * @param text the text.
     * @return the key.
     */
    public static ByteArrayKey of(final String text)
    {
        return new ByteArrayKey(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * A copy of the bytes.
     *
     * @return a new array.
     */
    public byte[] bytes()
    {
        return bytes.clone();
    }

    /**
     * The number of bytes.
     *
     * @return the length.
     */
    public int length()
    {
        return bytes.length;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ByteArrayKey && Arrays.equals(bytes, ((ByteArrayKey)other).bytes);
    }

    @Override
    public int hashCode()
    {
        return hash;
    }

    @Override
    public int compareTo(final ByteArrayKey other)
    {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    /**
     * The bytes as text, printable ASCII as is and every other byte as {@code \xNN}.
     *
     * @return a readable form.
     */
    @Override
    public String toString()
    {
        return printable(bytes);
    }

    /**
     * Renders bytes readably: printable ASCII as is, every other byte as {@code \xNN}.
     *
     * @param bytes the bytes, or {@code null}.
     * @return the readable form, or {@code "null"}.
     */
    public static String printable(final byte[] bytes)
    {
        if (bytes == null)
        {
            return "null";
        }
        final StringBuilder sb = new StringBuilder(bytes.length + 2).append('"');
        for (final byte b : bytes)
        {
            if (b >= 0x20 && b < 0x7f && b != '\\' && b != '"')
            {
                sb.append((char)b);
            }
            else
            {
                sb.append(String.format("\\x%02x", b & 0xff));
            }
        }
        return sb.append('"').toString();
    }
}
