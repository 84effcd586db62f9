package io.agni.net;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Encodes requests as a server reads them: each command a RESP array of bulk strings ({@code *3 $3 SET $1 k $1 v}),
 * appended one after the other so that several commands can go out in one write.
 *
 * <h2>Memory</h2>
 * The bytes go into a heap buffer, so that a blocking socket can write them in one call. Keys and values are
 * copied straight from the caller's array or buffer into it; command names and options are encoded once, as
 * constants made by {@link #keyword(String)}; integers are written as ASCII in place. Encoding allocates nothing
 * once the buffer is large enough. A request that made the buffer grow past {@link #RETAINED_CAPACITY} gets a
 * fresh small buffer at the next {@link #reset()}, so one large value does not pin its size for the life of
 * the connection.
 *
 * <h2>Threads</h2>
 * Not thread-safe: one per connection.
 */
final class ClientRequestWriter
{
    /**
     * The capacity a writer starts with, in bytes.
     */
    static final int INITIAL_CAPACITY = 4096;

    /**
     * The largest capacity kept from one request to the next, in bytes.
     */
    static final int RETAINED_CAPACITY = 1024 * 1024;

    private static final int LONGEST_HEADER = 1 + 20 + 2;

    private ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(INITIAL_CAPACITY);
    private int position;

    /**
     * Encodes a constant argument (a command name or option) once, as a complete bulk string.
     *
     * @param text the argument, ASCII.
     * @return the encoded bulk string, to pass to {@link #keyword(DirectBuffer)}.
     */
    static DirectBuffer keyword(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        final ExpandableArrayBuffer encoded = new ExpandableArrayBuffer(bytes.length + LONGEST_HEADER + 2);
        int length = encoded.putStringWithoutLengthAscii(0, "$" + bytes.length + "\r\n");
        encoded.putBytes(length, bytes);
        length += bytes.length;
        length += encoded.putStringWithoutLengthAscii(length, "\r\n");
        return new UnsafeBuffer(encoded.byteArray(), 0, length);
    }

    /**
     * Forgets every encoded byte, to start the next request.
     */
    void reset()
    {
        if (buffer.capacity() > RETAINED_CAPACITY)
        {
            buffer = new ExpandableArrayBuffer(INITIAL_CAPACITY);
        }
        position = 0;
    }

    /**
     * @return the array holding the encoded bytes, {@code [0, length())}.
     */
    byte[] array()
    {
        return buffer.byteArray();
    }

    /**
     * @return the number of encoded bytes.
     */
    int length()
    {
        return position;
    }

    /**
     * Starts a command of {@code count} arguments, the command name included.
     *
     * @param count the number of bulk strings that follow.
     * @return this writer.
     */
    ClientRequestWriter command(final int count)
    {
        return header('*', count);
    }

    /**
     * A constant argument encoded by {@link #keyword(String)}.
     *
     * @param keyword the encoded bulk string.
     * @return this writer.
     */
    ClientRequestWriter keyword(final DirectBuffer keyword)
    {
        final int length = keyword.capacity();
        buffer.putBytes(position, keyword, 0, length);
        position += length;
        return this;
    }

    /**
     * An argument copied from an array.
     *
     * @param bytes the bytes.
     * @return this writer.
     */
    ClientRequestWriter bulk(final byte[] bytes)
    {
        header('$', bytes.length);
        buffer.putBytes(position, bytes);
        position += bytes.length;
        return crlf();
    }

    /**
     * An argument copied from a range of a buffer.
     *
     * @param src    the buffer.
     * @param offset where the bytes start.
     * @param length how many.
     * @return this writer.
     */
    ClientRequestWriter bulk(final DirectBuffer src, final int offset, final int length)
    {
        header('$', length);
        buffer.putBytes(position, src, offset, length);
        position += length;
        return crlf();
    }

    /**
     * The decimal text of an integer as an argument.
     *
     * @param value the value.
     * @return this writer.
     */
    ClientRequestWriter bulk(final long value)
    {
        header('$', decimalLength(value));
        position += buffer.putLongAscii(position, value);
        return crlf();
    }

    /**
     * An ASCII text as an argument (for arguments that are built as text anyway, e.g. a float).
     *
     * @param text the text.
     * @return this writer.
     */
    ClientRequestWriter bulk(final String text)
    {
        header('$', text.length());
        position += buffer.putStringWithoutLengthAscii(position, text);
        return crlf();
    }

    private ClientRequestWriter header(final char type, final int value)
    {
        final MutableDirectBuffer b = buffer;
        b.putByte(position++, (byte)type);
        position += b.putIntAscii(position, value);
        return crlf();
    }

    private ClientRequestWriter crlf()
    {
        buffer.putByte(position++, (byte)'\r');
        buffer.putByte(position++, (byte)'\n');
        return this;
    }

    static int decimalLength(final long value)
    {
        if (value == Long.MIN_VALUE)
        {
            return 20;
        }
        int length = value < 0 ? 2 : 1;
        for (long v = Math.abs(value); v >= 10; v /= 10)
        {
            length++;
        }
        return length;
    }
}
