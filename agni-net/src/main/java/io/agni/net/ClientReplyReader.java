package io.agni.net;

import io.agni.api.StoreConnectionException;
import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * Decodes one RESP2 reply at a time, as a client reads them: simple strings, errors, integers, bulk strings, the
 * null bulk string, arrays (nested to a limit) and the null array.
 *
 * <h2>Shape</h2>
 * An explicit, resumable state machine over a buffer the caller fills: {@link #read(DirectBuffer, int)} looks at
 * the bytes up to a limit and either completes the reply or returns {@link #NEED_MORE}, keeping its place; the
 * caller appends more bytes at the same offsets (it may move to a larger buffer holding the same bytes at the same
 * offsets) and calls again. No byte is looked at twice, except the last byte of a line cut between its CR and LF.
 *
 * <h2>Result</h2>
 * A complete reply is a list of elements in depth-first order, read by index: an array is followed by its
 * elements, so {@code *2 $1 a *1 :7} gives {@code [ARRAY 2, BULK "a", ARRAY 1, INTEGER 7]}. Strings are views
 * ({@link #offset(int)}, {@link #length(int)}) into the buffer that was read, valid until the caller reuses it.
 * The element lists are reused from reply to reply and grow only with the elements that actually arrive.
 *
 * <h2>Limits</h2>
 * Every length and count is checked before the caller has to make room for it: a bulk string longer than
 * {@code maxBulkLength}, an array longer than {@code maxArrayLength}, a simple string or error longer than
 * {@code maxLineLength}, or arrays nested deeper than {@code maxDepth} are protocol errors, as are a type byte that
 * is not RESP2, a number that is not a canonical 64-bit integer, and a line or bulk string not ended by CRLF.
 * A protocol error throws {@link StoreConnectionException} and resets the reader: the connection it read from is
 * out of step and must be dropped.
 *
 * <h2>Threads</h2>
 * Not thread-safe: one per connection.
 */
final class ClientReplyReader
{
    /**
     * Returned by {@link #read} when the reply is not complete yet.
     */
    static final int NEED_MORE = -1;

    /** {@code +text}: {@link #offset} and {@link #length} give the text. */
    static final byte SIMPLE_STRING = '+';
    /** {@code -text}: {@link #offset} and {@link #length} give the text. */
    static final byte ERROR = '-';
    /** {@code :n}: {@link #integer} gives n. */
    static final byte INTEGER = ':';
    /** {@code $n}: {@link #offset} and {@link #length} give the bytes. */
    static final byte BULK = '$';
    /** {@code *n}: {@link #length} gives n, and the n elements follow. */
    static final byte ARRAY = '*';
    /** {@code $-1}. */
    static final byte NULL_BULK = 'N';
    /** {@code *-1}. */
    static final byte NULL_ARRAY = 'A';

    /**
     * The longest bulk string accepted by default: Redis's {@code proto-max-bulk-len}, 512 MiB.
     */
    static final int DEFAULT_MAX_BULK_LENGTH = 512 * 1024 * 1024;

    /**
     * The longest array accepted by default, in elements.
     */
    static final int DEFAULT_MAX_ARRAY_LENGTH = 1 << 27;

    /**
     * The longest simple string or error accepted by default, in bytes (Redis's inline limit, 64 KiB).
     */
    static final int DEFAULT_MAX_LINE_LENGTH = 64 * 1024;

    /**
     * The deepest nesting of arrays accepted by default; the replies the client asks for nest two deep at most.
     */
    static final int DEFAULT_MAX_DEPTH = 8;

    private static final int EXPECT_TYPE = 0;
    private static final int IN_LINE = 1;
    private static final int IN_BULK = 2;
    private static final int INITIAL_ELEMENTS = 16;
    private static final int LONGEST_NUMBER_LINE = 20;

    private final int maxBulkLength;
    private final int maxArrayLength;
    private final int maxLineLength;
    private final int[] remaining;

    private int state;
    private int position;
    private int lineType;
    private int lineStart;
    private int scanFrom;
    private int bulkEnd;
    private int depth;

    private byte[] types = new byte[INITIAL_ELEMENTS];
    private long[] values = new long[INITIAL_ELEMENTS];
    private int[] offsets = new int[INITIAL_ELEMENTS];
    private int elements;

    /**
     * A reader with the default limits.
     */
    ClientReplyReader()
    {
        this(DEFAULT_MAX_BULK_LENGTH, DEFAULT_MAX_ARRAY_LENGTH, DEFAULT_MAX_LINE_LENGTH, DEFAULT_MAX_DEPTH);
    }

    /**
     * A reader with given limits.
     *
     * @param maxBulkLength  the longest bulk string accepted, in bytes.
     * @param maxArrayLength the longest array accepted, in elements.
     * @param maxLineLength  the longest simple string or error accepted, in bytes.
     * @param maxDepth       the deepest nesting of arrays accepted; 1 allows arrays of scalars only.
     */
    ClientReplyReader(final int maxBulkLength, final int maxArrayLength, final int maxLineLength, final int maxDepth)
    {
        if (maxBulkLength < 0 || maxArrayLength < 0 || maxLineLength < 0 || maxDepth < 0)
        {
            throw new IllegalArgumentException("negative reply limit: maxBulkLength=" + maxBulkLength +
                ", maxArrayLength=" + maxArrayLength + ", maxLineLength=" + maxLineLength + ", maxDepth=" + maxDepth);
        }
        this.maxBulkLength = maxBulkLength;
        this.maxArrayLength = maxArrayLength;
        this.maxLineLength = maxLineLength;
        this.remaining = new int[maxDepth];
    }

    /**
     * Starts a new reply at an offset, forgetting the previous one.
     *
     * @param start where the reply's first byte is or will be.
     */
    void reset(final int start)
    {
        state = EXPECT_TYPE;
        position = start;
        depth = 0;
        elements = 0;
    }

    /**
     * Reads on from where the last call stopped.
     *
     * @param buffer the buffer holding the reply's bytes at the offsets given so far, and perhaps more.
     * @param limit  the end of the bytes available in {@code buffer}.
     * @return the offset just past the reply when it is complete, else {@link #NEED_MORE}.
     * @throws StoreConnectionException if the bytes are not a RESP2 reply within the limits.
     */
    int read(final DirectBuffer buffer, final int limit)
    {
        try
        {
            while (true)
            {
                final boolean progressed;
                switch (state)
                {
                    case EXPECT_TYPE:
                        progressed = readType(buffer, limit);
                        break;
                    case IN_LINE:
                        progressed = readLine(buffer, limit);
                        break;
                    default:
                        progressed = readBulk(buffer, limit);
                }
                if (!progressed)
                {
                    return NEED_MORE;
                }
                if (state == EXPECT_TYPE && depth == 0 && elements > 0)
                {
                    return position;
                }
            }
        }
        catch (final StoreConnectionException ex)
        {
            reset(position);
            throw ex;
        }
    }

    /**
     * The smallest limit that could let the next {@link #read} make progress: the end of a bulk string being read,
     * else one byte more than has been seen. Lets the caller grow its buffer once for a large bulk string.
     *
     * @param limit the end of the bytes available now.
     * @return an offset greater than {@code limit}.
     */
    int needed(final int limit)
    {
        return state == IN_BULK && bulkEnd > limit ? bulkEnd : limit + 1;
    }

    /**
     * @return the number of elements in the completed reply, at least 1.
     */
    int elements()
    {
        return elements;
    }

    /**
     * @param index the element's index, depth-first.
     * @return its type: {@link #SIMPLE_STRING}, {@link #ERROR}, {@link #INTEGER}, {@link #BULK}, {@link #ARRAY},
     * {@link #NULL_BULK} or {@link #NULL_ARRAY}.
     */
    byte type(final int index)
    {
        return types[checkIndex(index)];
    }

    /**
     * @param index the element's index.
     * @return the value of an {@link #INTEGER}.
     */
    long integer(final int index)
    {
        return values[checkIndex(index)];
    }

    /**
     * @param index the element's index.
     * @return where the bytes of a string element start in the buffer.
     */
    int offset(final int index)
    {
        return offsets[checkIndex(index)];
    }

    /**
     * @param index the element's index.
     * @return the length of a string element in bytes, or the number of elements of an {@link #ARRAY}.
     */
    int length(final int index)
    {
        return (int)values[checkIndex(index)];
    }

    private boolean readType(final DirectBuffer buffer, final int limit)
    {
        if (position >= limit)
        {
            return false;
        }
        final byte type = buffer.getByte(position);
        if (type != SIMPLE_STRING && type != ERROR && type != INTEGER && type != BULK && type != ARRAY)
        {
            throw protocolError("reply type byte not valid: 0x" + Integer.toHexString(type & 0xFF));
        }
        lineType = type;
        lineStart = position + 1;
        scanFrom = lineStart;
        state = IN_LINE;
        return true;
    }

    private boolean readLine(final DirectBuffer buffer, final int limit)
    {
        final int longest = lineType == SIMPLE_STRING || lineType == ERROR ? maxLineLength : LONGEST_NUMBER_LINE;
        final int searchEnd = (int)Math.min(limit, (long)lineStart + longest + 1);
        int cr = -1;
        for (int i = scanFrom; i < searchEnd; i++)
        {
            if (buffer.getByte(i) == '\r')
            {
                cr = i;
                break;
            }
        }
        if (cr < 0)
        {
            if (searchEnd - lineStart > longest)
            {
                throw protocolError("reply line longer than the limit: limit=" + longest);
            }
            scanFrom = Math.max(scanFrom, searchEnd);
            return false;
        }
        if (cr + 1 >= limit)
        {
            scanFrom = cr;
            return false;
        }
        if (buffer.getByte(cr + 1) != '\n')
        {
            throw protocolError("reply line not ended by CRLF");
        }
        position = cr + 2;
        state = EXPECT_TYPE;
        completeLine(buffer, cr);
        return true;
    }

    private void completeLine(final DirectBuffer buffer, final int lineEnd)
    {
        switch (lineType)
        {
            case SIMPLE_STRING:
            case ERROR:
                addElement((byte)lineType, lineEnd - lineStart, lineStart);
                elementDone();
                break;
            case INTEGER:
                addElement(INTEGER, parseInteger(buffer, lineStart, lineEnd), 0);
                elementDone();
                break;
            case BULK:
                bulkHeader(parseInteger(buffer, lineStart, lineEnd));
                break;
            default:
                arrayHeader(parseInteger(buffer, lineStart, lineEnd));
        }
    }

    private void bulkHeader(final long length)
    {
        if (length == -1)
        {
            addElement(NULL_BULK, 0, 0);
            elementDone();
            return;
        }
        if (length < 0)
        {
            throw protocolError("reply bulk length not valid: " + length);
        }
        if (length > maxBulkLength)
        {
            throw protocolError("reply bulk too long: length=" + length + ", limit=" + maxBulkLength);
        }
        final long end = (long)position + length + 2;
        if (end > Integer.MAX_VALUE - 8)
        {
            throw protocolError("reply too long for one buffer: end=" + end);
        }
        addElement(BULK, length, position);
        bulkEnd = (int)end;
        state = IN_BULK;
    }

    private void arrayHeader(final long count)
    {
        if (count == -1)
        {
            addElement(NULL_ARRAY, 0, 0);
            elementDone();
            return;
        }
        if (count < 0)
        {
            throw protocolError("reply array length not valid: " + count);
        }
        if (count > maxArrayLength)
        {
            throw protocolError("reply array too long: count=" + count + ", limit=" + maxArrayLength);
        }
        addElement(ARRAY, count, 0);
        if (count == 0)
        {
            elementDone();
            return;
        }
        if (depth == remaining.length)
        {
            throw protocolError("reply nested too deep: depth=" + (depth + 1) + ", limit=" + remaining.length);
        }
        remaining[depth++] = (int)count;
    }

    private boolean readBulk(final DirectBuffer buffer, final int limit)
    {
        if (limit < bulkEnd)
        {
            return false;
        }
        if (buffer.getByte(bulkEnd - 2) != '\r' || buffer.getByte(bulkEnd - 1) != '\n')
        {
            throw protocolError("reply bulk string not ended by CRLF");
        }
        position = bulkEnd;
        state = EXPECT_TYPE;
        elementDone();
        return true;
    }

    private void elementDone()
    {
        while (depth > 0)
        {
            if (--remaining[depth - 1] > 0)
            {
                return;
            }
            depth--;
        }
    }

    private void addElement(final byte type, final long value, final int offset)
    {
        if (elements == types.length)
        {
            final int grown = elements * 2;
            types = Arrays.copyOf(types, grown);
            values = Arrays.copyOf(values, grown);
            offsets = Arrays.copyOf(offsets, grown);
        }
        types[elements] = type;
        values[elements] = value;
        offsets[elements] = offset;
        elements++;
    }

    private int checkIndex(final int index)
    {
        if (index < 0 || index >= elements)
        {
            throw new IndexOutOfBoundsException("element " + index + " of a reply of " + elements);
        }
        return index;
    }

    /**
     * Parses a canonical decimal 64-bit integer, as Redis writes them: an optional minus, no plus, no leading
     * zeros, at least one digit.
     */
    private static long parseInteger(final DirectBuffer buffer, final int start, final int end)
    {
        final boolean negative = start < end && buffer.getByte(start) == '-';
        final int digitsStart = negative ? start + 1 : start;
        if (digitsStart == end)
        {
            throw protocolError("reply integer not valid: no digits");
        }
        if (buffer.getByte(digitsStart) == '0' && end - digitsStart > 1)
        {
            throw protocolError("reply integer not valid: leading zero");
        }
        long value = 0;
        for (int i = digitsStart; i < end; i++)
        {
            final int digit = buffer.getByte(i) - '0';
            if (digit < 0 || digit > 9)
            {
                throw protocolError("reply integer not valid: byte 0x" + Integer.toHexString(buffer.getByte(i) & 0xFF));
            }
            // Accumulate negatively, so that Long.MIN_VALUE parses without overflow.
            if (value < (Long.MIN_VALUE + digit) / 10)
            {
                throw protocolError("reply integer out of range");
            }
            value = value * 10 - digit;
        }
        if (!negative)
        {
            if (value == Long.MIN_VALUE)
            {
                throw protocolError("reply integer out of range");
            }
            return -value;
        }
        return value;
    }

    private static StoreConnectionException protocolError(final String message)
    {
        return new StoreConnectionException("protocol error: " + message);
    }
}
