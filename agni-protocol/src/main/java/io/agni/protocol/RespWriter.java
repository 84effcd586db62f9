package io.agni.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Encodes RESP2 or RESP3 replies into a direct buffer ({@link GrowableDirectBuffer}), appending at
 * {@link #position()}.
 *
 * <h2>Protocol versions</h2>
 * A writer starts in RESP2 and is switched per connection by {@code HELLO} ({@link #protocol(int)}). The reply
 * methods write the same bytes in both versions, except those named for a RESP3 type, which write it in RESP3 and
 * its RESP2 form otherwise, as Redis 7 does: {@link #nullBulk()} and {@link #nullArray()} ({@code _} in RESP3),
 * {@link #mapHeader(int)} ({@code %}; a flat array of twice the count in RESP2), {@link #setHeader(int)}
 * ({@code ~}; an array) and {@link #verbatim(CharSequence)} ({@code =} with the {@code txt:} format; a bulk
 * string). RESP2 replies are byte for byte those of a writer that knows no RESP3.
 *
 * <h2>Memory</h2>
 * The buffer grows as needed, up to the writer's limit, and shrinks only when its owner (a connection) asks
 * ({@link #shrink(int)}); the owner writes out {@code [0, position())}, then calls {@link #reset()} or
 * {@link #compact(int)}. A reply that would take the buffer past its limit, or whose growth the
 * {@link BufferMemory} refuses, stops growing it before anything is allocated: the write throws
 * {@link BufferLimitException} (through a store's zero-copy read too) and {@link #refusal()} stays set until
 * {@link #clearRefusal()}. Constant replies ({@code +OK}, {@code +PONG}, {@code $-1}, {@code :0}, {@code :1}, ...)
 * are encoded once, and integers are written as ASCII in place, so encoding allocates nothing once the buffer is
 * large enough.
 *
 * <h2>Threads</h2>
 * Not thread-safe; one per connection.
 */
public final class RespWriter
{
    /**
     * The initial capacity of the buffer when none is given, in bytes.
     */
    public static final int DEFAULT_INITIAL_CAPACITY = 16 * 1024;

    /**
     * The limit of a writer made without one: the largest direct buffer Java can address.
     */
    public static final int UNLIMITED = Integer.MAX_VALUE - 8;

    private static final byte[] CRLF = {'\r', '\n'};
    private static final UnsafeBuffer OK = constant("+OK\r\n");
    private static final UnsafeBuffer PONG = constant("+PONG\r\n");
    private static final UnsafeBuffer NULL_BULK = constant("$-1\r\n");
    private static final UnsafeBuffer NULL_ARRAY = constant("*-1\r\n");
    private static final UnsafeBuffer EMPTY_ARRAY = constant("*0\r\n");
    private static final UnsafeBuffer EMPTY_BULK = constant("$0\r\n\r\n");
    private static final UnsafeBuffer RESP3_NULL = constant("_\r\n");
    private static final UnsafeBuffer RESP3_EMPTY_MAP = constant("%0\r\n");
    private static final UnsafeBuffer RESP3_EMPTY_SET = constant("~0\r\n");
    private static final byte[] VERBATIM_TEXT_FORMAT = {'t', 'x', 't', ':'};
    private static final int SMALL_INTEGER_MIN = -2;
    private static final int SMALL_INTEGER_MAX = 16;
    private static final UnsafeBuffer[] SMALL_INTEGERS = new UnsafeBuffer[SMALL_INTEGER_MAX - SMALL_INTEGER_MIN + 1];

    static
    {
        for (int i = SMALL_INTEGER_MIN; i <= SMALL_INTEGER_MAX; i++)
        {
            SMALL_INTEGERS[i - SMALL_INTEGER_MIN] = constant(":" + i + "\r\n");
        }
    }

    /**
     * The header length {@link #reserveBulk()} starts by leaving room for: {@code $}, two digits, CRLF.
     */
    private static final int BULK_HEADER_GUESS = 1 + 2 + 2;

    private final GrowableDirectBuffer buffer;
    private int position;
    private int bulkHeaderGuess = BULK_HEADER_GUESS;
    private boolean resp3;

    /**
     * A writer with a buffer of {@link #DEFAULT_INITIAL_CAPACITY} bytes to start with, no limit and no account.
     */
    public RespWriter()
    {
        this(DEFAULT_INITIAL_CAPACITY);
    }

    /**
     * A writer whose buffer grows without a limit.
     *
     * @param initialCapacity the buffer's initial capacity in bytes; the writer has no limit and no account.
     */
    public RespWriter(final int initialCapacity)
    {
        this(initialCapacity, UNLIMITED, BufferMemory.UNCOUNTED);
    }

    /**
     * A writer whose buffer can grow up to a limit.
     *
     * @param initialCapacity the buffer's initial capacity in bytes, from 1 to {@code limit}.
     * @param limit           the most bytes the buffer grows to: a reply that needs more is refused.
     * @param memory          the account the buffer's allocations are reported to.
     */
    public RespWriter(final int initialCapacity, final int limit, final BufferMemory memory)
    {
        buffer = new GrowableDirectBuffer(initialCapacity, limit, memory, "reply buffer");
    }

    private static UnsafeBuffer constant(final String reply)
    {
        return new UnsafeBuffer(reply.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Returns the protocol version the replies are encoded in: 2 (the default) or 3.
     *
     * @return 2 or 3.
     */
    public int protocol()
    {
        return resp3 ? 3 : 2;
    }

    /**
     * Switches the protocol version of the replies encoded from now on ({@code HELLO 2}, {@code HELLO 3}).
     *
     * @param version 2 or 3.
     * @throws IllegalArgumentException for any other version.
     */
    public void protocol(final int version)
    {
        if (version != 2 && version != 3)
        {
            throw new IllegalArgumentException("unsupported protocol version: " + version);
        }
        resp3 = version == 3;
    }

    /**
     * Returns the buffer the replies are encoded into; the replies are {@code [0, position())}.
     *
     * @return the buffer the replies are encoded into; the replies are {@code [0, position())}.
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * Returns the number of encoded bytes, from offset 0.
     *
     * @return the number of encoded bytes, from offset 0.
     */
    public int position()
    {
        return position;
    }

    /**
     * Moves the position, e.g. after writing into {@link #buffer()} directly, or back to drop a partial reply.
     *
     * @param position the new position, between 0 and the buffer's capacity.
     */
    public void position(final int position)
    {
        if (position < 0 || position > buffer.capacity())
        {
            throw new IndexOutOfBoundsException("position=" + position + ", capacity=" + buffer.capacity());
        }
        this.position = position;
    }

    /**
     * Makes sure {@code length} more bytes fit from the position on, growing the buffer if needed.
     *
     * @param length the number of bytes about to be written.
     * @throws BufferLimitException if the buffer cannot grow that far.
     */
    public void ensureRemaining(final int length)
    {
        buffer.checkLimit(position + length);
    }

    /**
     * Checks, without allocating, that {@code length} more bytes could be written from the position on: for a reply
     * whose size is known before it is built (KEYS), so that one past the limit is not built at all.
     *
     * @param length the number of bytes about to be written.
     * @throws BufferLimitException if they would take the buffer past its limit; {@link #refusal()} is then set.
     */
    public void checkRoom(final long length)
    {
        buffer.checkRoom(position + length);
    }

    /**
     * Returns the buffer's capacity in bytes now.
     *
     * @return the buffer's capacity in bytes now.
     */
    public int capacity()
    {
        return buffer.capacity();
    }

    /**
     * Returns the most bytes the buffer grows to.
     *
     * @return the most bytes the buffer grows to.
     */
    public int limit()
    {
        return buffer.limit();
    }

    /**
     * Returns {@link GrowableDirectBuffer#NOT_REFUSED}, or why a growth was refused since the last {@link
     * #clearRefusal()}: {@link GrowableDirectBuffer#REFUSED_BY_LIMIT} or {@link
     * GrowableDirectBuffer#REFUSED_BY_MEMORY}.
     *
     * @return {@link GrowableDirectBuffer#NOT_REFUSED}, or why a growth was refused since the last
     * {@link #clearRefusal()}: {@link GrowableDirectBuffer#REFUSED_BY_LIMIT} or
     * {@link GrowableDirectBuffer#REFUSED_BY_MEMORY}.
     */
    public int refusal()
    {
        return buffer.refusal();
    }

    /**
     * Forgets a refusal once it has been dealt with.
     */
    public void clearRefusal()
    {
        buffer.clearRefusal();
    }

    /**
     * Gives back memory: reallocates the buffer to {@code capacity} bytes if it is larger and what is encoded fits.
     *
     * @param capacity the capacity to return to, at least 1.
     */
    public void shrink(final int capacity)
    {
        if (position <= capacity)
        {
            buffer.shrink(capacity, position);
        }
    }

    /**
     * Frees the buffer; the writer must not be used again.
     */
    public void free()
    {
        buffer.free();
    }

    /**
     * Forgets every encoded byte.
     */
    public void reset()
    {
        position = 0;
    }

    /**
     * Drops the first {@code consumed} bytes (already written out) and moves the rest to offset 0.
     *
     * @param consumed the number of bytes written out, at most {@link #position()}.
     */
    public void compact(final int consumed)
    {
        if (consumed < 0 || consumed > position)
        {
            throw new IndexOutOfBoundsException("consumed=" + consumed + ", position=" + position);
        }
        final int remaining = position - consumed;
        if (remaining > 0 && consumed > 0)
        {
            buffer.putBytes(0, buffer, consumed, remaining);
        }
        position = remaining;
    }

    /**
     * {@code +OK}.
     *
     * @return this writer.
     */
    public RespWriter ok()
    {
        return raw(OK);
    }

    /**
     * {@code +PONG}.
     *
     * @return this writer.
     */
    public RespWriter pong()
    {
        return raw(PONG);
    }

    /**
     * A simple string, {@code +text}. The text must not hold CR or LF; any that it holds are written as spaces.
     *
     * @param text the text, ASCII.
     * @return this writer.
     */
    public RespWriter simpleString(final CharSequence text)
    {
        return line('+', text);
    }

    /**
     * An error, {@code -message}, e.g. {@code "ERR syntax error"}. CR and LF in the message are written as spaces,
     * as Redis does, so a reply can never be split.
     *
     * @param message the message, its error code first.
     * @return this writer.
     */
    public RespWriter error(final CharSequence message)
    {
        return line('-', message);
    }

    /**
     * An integer, {@code :n}.
     *
     * @param value the value.
     * @return this writer.
     */
    public RespWriter integer(final long value)
    {
        if (value >= SMALL_INTEGER_MIN && value <= SMALL_INTEGER_MAX)
        {
            return raw(SMALL_INTEGERS[(int)value - SMALL_INTEGER_MIN]);
        }
        return header(':', value);
    }

    /**
     * A bulk string copied from a buffer.
     *
     * @param src    the buffer.
     * @param offset where the bytes start.
     * @param length how many bytes.
     * @return this writer.
     */
    public RespWriter bulk(final DirectBuffer src, final int offset, final int length)
    {
        if (length == 0)
        {
            return raw(EMPTY_BULK);
        }
        header('$', length);
        ensureRemaining(length + 2);
        buffer.putBytes(position, src, offset, length);
        position += length;
        putCrlf();
        return this;
    }

    /**
     * Starts a bulk string whose bytes the caller copies straight into {@link #buffer()} (e.g. a store's
     * {@code get(key, ..., dst, dstOffset)}), so that a value goes from the store to the reply in one copy. Copy the
     * bytes to the offset returned (the buffer grows as they are put, or call {@link #ensureRemaining}), then call
     * {@link #commitBulk(int, int)} with their length, or write another reply instead (e.g. {@link #nullBulk()}):
     * nothing is encoded and the position does not move until then.
     * <p>
     * The room left for the bulk's header is that of the last bulk committed, so the bytes are moved only when the
     * length of a value has a different number of digits from the last one's.
     *
     * @return the offset in {@link #buffer()} where the bulk's bytes go.
     */
    public int reserveBulk()
    {
        return position + bulkHeaderGuess;
    }

    /**
     * Encodes a bulk string whose bytes were copied to the offset {@link #reserveBulk()} returned: writes its header
     * in front of them (moving them if the header's length differs from the room left) and its CRLF after them.
     *
     * @param valueOffset what {@link #reserveBulk()} returned, with nothing written since.
     * @param length      how many bytes were copied there, at least 0.
     * @return this writer.
     */
    public RespWriter commitBulk(final int valueOffset, final int length)
    {
        if (length < 0 || valueOffset != position + bulkHeaderGuess)
        {
            throw new IllegalArgumentException("not a reserved bulk: valueOffset=" + valueOffset + ", length=" +
                length + ", position=" + position);
        }
        final int headerLength = 1 + decimalLength(length) + 2;
        if (headerLength != bulkHeaderGuess)
        {
            buffer.checkLimit(position + headerLength + length + 2);
            buffer.putBytes(position + headerLength, buffer, valueOffset, length);
            bulkHeaderGuess = headerLength;
        }
        header('$', length);
        position += length;
        putCrlf();
        return this;
    }

    /**
     * A bulk string copied from an array.
     *
     * @param bytes the bytes.
     * @return this writer.
     */
    public RespWriter bulk(final byte[] bytes)
    {
        if (bytes.length == 0)
        {
            return raw(EMPTY_BULK);
        }
        header('$', bytes.length);
        ensureRemaining(bytes.length + 2);
        buffer.putBytes(position, bytes);
        position += bytes.length;
        putCrlf();
        return this;
    }

    /**
     * A bulk string of text encoded as UTF-8: for replies built from text (INFO, CONFIG), not for the hot path.
     *
     * @param text the text.
     * @return this writer.
     */
    public RespWriter bulk(final CharSequence text)
    {
        return bulk(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A bulk string of the decimal text of an integer, e.g. for {@code INCRBYFLOAT}-like replies and CONFIG values.
     *
     * @param value the value.
     * @return this writer.
     */
    public RespWriter bulkDecimal(final long value)
    {
        final int length = decimalLength(value);
        header('$', length);
        ensureRemaining(length + 2);
        position += buffer.putLongAscii(position, value);
        putCrlf();
        return this;
    }

    /**
     * A missing value: the null bulk string {@code $-1} in RESP2, the null {@code _} in RESP3.
     *
     * @return this writer.
     */
    public RespWriter nullBulk()
    {
        return raw(resp3 ? RESP3_NULL : NULL_BULK);
    }

    /**
     * The header of an array of {@code count} elements, {@code *count}; the elements follow.
     *
     * @param count the number of elements, at least 0.
     * @return this writer.
     */
    public RespWriter arrayHeader(final int count)
    {
        if (count == 0)
        {
            return raw(EMPTY_ARRAY);
        }
        return header('*', count);
    }

    /**
     * The null array: {@code *-1} in RESP2, the null {@code _} in RESP3.
     *
     * @return this writer.
     */
    public RespWriter nullArray()
    {
        return raw(resp3 ? RESP3_NULL : NULL_ARRAY);
    }

    /**
     * The header of a map of {@code pairs} key-value pairs: {@code %pairs} in RESP3, an array of {@code 2 * pairs}
     * elements in RESP2; the keys and values follow, alternating.
     *
     * @param pairs the number of pairs, at least 0.
     * @return this writer.
     */
    public RespWriter mapHeader(final int pairs)
    {
        if (!resp3)
        {
            return arrayHeader(2 * pairs);
        }
        return pairs == 0 ? raw(RESP3_EMPTY_MAP) : header('%', pairs);
    }

    /**
     * The header of a set of {@code count} elements: {@code ~count} in RESP3, an array in RESP2; the elements
     * follow.
     *
     * @param count the number of elements, at least 0.
     * @return this writer.
     */
    public RespWriter setHeader(final int count)
    {
        if (!resp3)
        {
            return arrayHeader(count);
        }
        return count == 0 ? raw(RESP3_EMPTY_SET) : header('~', count);
    }

    /**
     * Text as Redis's {@code addReplyVerbatim} sends it (INFO, CLIENT LIST): a verbatim string of format
     * {@code txt} in RESP3 ({@code =<length + 4>}, {@code txt:}, the text), a bulk string in RESP2. The text is
     * encoded as UTF-8; not for the hot path.
     *
     * @param text the text.
     * @return this writer.
     */
    public RespWriter verbatim(final CharSequence text)
    {
        final byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        if (!resp3)
        {
            return bulk(bytes);
        }
        header('=', VERBATIM_TEXT_FORMAT.length + bytes.length);
        ensureRemaining(VERBATIM_TEXT_FORMAT.length + bytes.length + 2);
        buffer.putBytes(position, VERBATIM_TEXT_FORMAT);
        position += VERBATIM_TEXT_FORMAT.length;
        buffer.putBytes(position, bytes);
        position += bytes.length;
        putCrlf();
        return this;
    }

    /**
     * Bytes already encoded as RESP, copied as they are.
     *
     * @param encoded the encoded reply.
     * @return this writer.
     */
    public RespWriter raw(final DirectBuffer encoded)
    {
        final int length = encoded.capacity();
        ensureRemaining(length);
        buffer.putBytes(position, encoded, 0, length);
        position += length;
        return this;
    }

    private RespWriter header(final char type, final long value)
    {
        ensureRemaining(1 + 20 + 2);
        buffer.putByte(position++, (byte)type);
        position += buffer.putLongAscii(position, value);
        putCrlf();
        return this;
    }

    private RespWriter line(final char type, final CharSequence text)
    {
        final int length = text.length();
        for (int i = 0; i < length; i++)
        {
            if (text.charAt(i) >= 0x80)
            {
                return line(type, text.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
        ensureRemaining(1 + length + 2);
        buffer.putByte(position++, (byte)type);
        for (int i = 0; i < length; i++)
        {
            final char c = text.charAt(i);
            buffer.putByte(position++, (byte)(c == '\r' || c == '\n' ? ' ' : c));
        }
        putCrlf();
        return this;
    }

    private RespWriter line(final char type, final byte[] text)
    {
        ensureRemaining(1 + text.length + 2);
        buffer.putByte(position++, (byte)type);
        for (final byte b : text)
        {
            buffer.putByte(position++, b == '\r' || b == '\n' ? (byte)' ' : b);
        }
        putCrlf();
        return this;
    }

    private void putCrlf()
    {
        ensureRemaining(2);
        buffer.putBytes(position, CRLF);
        position += 2;
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
