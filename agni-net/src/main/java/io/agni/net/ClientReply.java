package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.api.StoreConnectionException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static io.agni.net.ClientReplyReader.ARRAY;
import static io.agni.net.ClientReplyReader.BULK;
import static io.agni.net.ClientReplyReader.ERROR;
import static io.agni.net.ClientReplyReader.INTEGER;
import static io.agni.net.ClientReplyReader.NULL_ARRAY;
import static io.agni.net.ClientReplyReader.NULL_BULK;
import static io.agni.net.ClientReplyReader.SIMPLE_STRING;

/**
 * The typed view of the reply a {@link ClientConnection} has just read: what {@link AgniClient} turns into results.
 * <p>
 * Each accessor first turns an error reply into its exception ({@link ClientErrors}); the connection stays usable
 * after one. A reply of a type the command never gives means client and server disagree about the protocol: the
 * accessor marks the connection broken, so that it is closed rather than reused, and throws
 * {@link StoreConnectionException}.
 * <p>
 * Valid until the connection's next request; not thread-safe.
 */
final class ClientReply
{
    private final ClientReplyReader reader;
    private final ClientConnection connection;
    private DirectBuffer buffer;

    ClientReply(final ClientReplyReader reader, final ClientConnection connection)
    {
        this.reader = reader;
        this.connection = connection;
    }

    void wrap(final DirectBuffer buffer)
    {
        this.buffer = buffer;
    }

    /**
     * @return {@code true} for {@code +OK} (any simple string), {@code false} for the null bulk string.
     */
    boolean okOrNull()
    {
        final byte type = type(0);
        if (type == NULL_BULK)
        {
            return false;
        }
        expect(type, SIMPLE_STRING, "a status or nil");
        return true;
    }

    /**
     * @return the value of an integer reply.
     */
    long integer()
    {
        expect(type(0), INTEGER, "an integer");
        return reader.integer(0);
    }

    /**
     * @return a copy of a bulk string reply, or {@code null} for the null bulk string.
     */
    byte[] bulkOrNull()
    {
        return bulkOrNull(0);
    }

    /**
     * @param index the element, depth-first.
     * @return a copy of a bulk string element, or {@code null} for the null bulk string.
     */
    byte[] bulkOrNull(final int index)
    {
        final byte type = type(index);
        if (type == NULL_BULK)
        {
            return null;
        }
        expect(type, BULK, "a bulk string or nil");
        final byte[] bytes = new byte[reader.length(index)];
        buffer.getBytes(reader.offset(index), bytes);
        return bytes;
    }

    /**
     * Copies a bulk string reply into a caller's buffer.
     *
     * @param dst       the buffer.
     * @param dstOffset where the bytes go.
     * @return the number of bytes copied, or {@link AgniStore#NOT_FOUND} for the null bulk string.
     * @throws IndexOutOfBoundsException if {@code dst} cannot hold them and cannot grow.
     */
    int copyBulk(final MutableDirectBuffer dst, final int dstOffset)
    {
        return copyBulk(0, dst, dstOffset);
    }

    /**
     * Copies a bulk string element into a caller's buffer.
     *
     * @param index     the element, depth-first.
     * @param dst       the buffer.
     * @param dstOffset where the bytes go.
     * @return the number of bytes copied, or {@link AgniStore#NOT_FOUND} for the null bulk string.
     * @throws IndexOutOfBoundsException if {@code dst} cannot hold them and cannot grow.
     */
    int copyBulk(final int index, final MutableDirectBuffer dst, final int dstOffset)
    {
        final byte type = type(index);
        if (type == NULL_BULK)
        {
            return AgniStore.NOT_FOUND;
        }
        expect(type, BULK, "a bulk string or nil");
        final int length = reader.length(index);
        checkRoom(dst, dstOffset, length);
        dst.putBytes(dstOffset, buffer, reader.offset(index), length);
        return length;
    }

    /**
     * @return a {@code TIME} reply (seconds and microseconds, as decimal bulk strings) in milliseconds.
     */
    long timeMillis()
    {
        if (arrayLength(0) != 2)
        {
            throw unexpected("an array of 2", ClientReplyReader.ARRAY);
        }
        return unsignedDecimal(1) * 1000 + unsignedDecimal(2) / 1000;
    }

    /**
     * @param index the element, depth-first.
     * @return the number of elements of an array element (they follow it).
     */
    int arrayLength(final int index)
    {
        expect(type(index), ARRAY, "an array");
        return reader.length(index);
    }

    /**
     * @param index the element, depth-first.
     * @return the decimal text of a bulk string element read as an unsigned 64-bit integer (a SCAN cursor).
     */
    long unsignedDecimal(final int index)
    {
        expect(type(index), BULK, "a bulk string");
        try
        {
            return Long.parseUnsignedLong(text(index));
        }
        catch (final NumberFormatException ex)
        {
            throw unexpected("an unsigned decimal", BULK);
        }
    }

    /**
     * @return a bulk string or simple string reply as UTF-8 text.
     */
    String text()
    {
        final byte type = type(0);
        if (type != SIMPLE_STRING)
        {
            expect(type, BULK, "a bulk string or status");
        }
        return text(0);
    }

    /**
     * Throws the exception for an error reply, and does nothing for any other.
     */
    void throwIfError()
    {
        type(0);
    }

    /**
     * @param index the element.
     * @return its type; an error reply at the top throws its exception.
     */
    byte type(final int index)
    {
        final byte type = reader.type(0);
        if (type == ERROR)
        {
            throw ClientErrors.toException(text(0));
        }
        return index == 0 ? type : reader.type(index);
    }

    /**
     * @return the text of an error reply, or {@code null} if the reply is not an error.
     */
    String errorText()
    {
        return reader.type(0) == ERROR ? text(0) : null;
    }

    /**
     * @param index an element, depth-first, of a reply that is not an error itself.
     * @return the text of the element if it is an error, or {@code null}.
     */
    String errorTextAt(final int index)
    {
        return reader.type(index) == ERROR ? text(index) : null;
    }

    /**
     * Marks the connection broken and makes the exception for a reply of a type the command never gives.
     *
     * @param expected what the command gives.
     * @param actual   the type it got.
     * @return the exception to throw.
     */
    StoreConnectionException unexpected(final String expected, final byte actual)
    {
        connection.markBroken();
        return new StoreConnectionException(
            "protocol error: unexpected reply, expected " + expected + ", got " + describe(actual));
    }

    private void expect(final byte type, final byte expected, final String description)
    {
        if (type != expected)
        {
            throw unexpected(description, type);
        }
    }

    private String text(final int index)
    {
        return buffer.getStringWithoutLengthUtf8(reader.offset(index), reader.length(index));
    }

    private static void checkRoom(final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        if (dstOffset < 0 || (!dst.isExpandable() && (long)dstOffset + length > dst.capacity()))
        {
            throw new IndexOutOfBoundsException(
                "destination too small: offset=" + dstOffset + ", length=" + length + ", capacity=" + dst.capacity());
        }
    }

    private static String describe(final byte type)
    {
        switch (type)
        {
            case SIMPLE_STRING:
                return "a status";
            case INTEGER:
                return "an integer";
            case BULK:
                return "a bulk string";
            case ARRAY:
                return "an array";
            case NULL_BULK:
                return "nil";
            case NULL_ARRAY:
                return "a null array";
            default:
                return "an error";
        }
    }
}
