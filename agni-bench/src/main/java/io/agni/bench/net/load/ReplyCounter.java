package io.agni.bench.net.load;

import java.nio.ByteBuffer;

/**
 * Counts complete RESP replies in a byte stream without building them: the load generator needs to know how many
 * requests were answered, and whether any answer was an error, not what the answers were.
 *
 * <h2>Why a state machine</h2>
 * Replies arrive split at any byte. The counter keeps its place in fields (the state, a length being parsed, the
 * bytes of a bulk string still to skip, and one "elements left" count per open array), so every byte is looked at
 * once and nothing is copied or kept: a bulk string's body is skipped even when it spans many reads.
 *
 * <h2>What it understands</h2>
 * RESP2 ({@code + - : $ *}) and the RESP3 types a server may send without being asked for them by {@code HELLO 3}
 * (simple: {@code _ , # (}; bulk-like: {@code = !}; aggregates: {@code ~ >}, and {@code %} as two elements per
 * entry). A top-level reply of type {@code -} or {@code !} is an error reply; a top-level {@code $-1}, {@code *-1} or
 * {@code _} is a null reply (a GET miss). The text of the first top-level simple error is kept for the report.
 * Anything else, or an aggregate nested deeper than {@link #MAX_DEPTH}, is a protocol error: {@link #consume}
 * returns {@link #PROTOCOL_ERROR} and the counter must not be used again before {@link #reset()}.
 *
 * <h2>Threads</h2>
 * Not thread-safe: one counter per connection, used only by the thread that reads that connection.
 */
public final class ReplyCounter
{
    /**
     * Returned by {@link #consume(ByteBuffer)} when the bytes are not RESP.
     */
    public static final int PROTOCOL_ERROR = -1;

    /**
     * The deepest nesting of aggregates accepted.
     */
    public static final int MAX_DEPTH = 32;

    private static final int MAX_ERROR_TEXT = 200;
    private static final int MAX_LENGTH_DIGITS = 18;

    private static final int TYPE = 0;
    private static final int LINE = 1;
    private static final int LENGTH = 2;
    private static final int LENGTH_LF = 3;
    private static final int BULK = 4;

    private static final int KIND_VALUE = 0;
    private static final int KIND_ERROR = 1;
    private static final int KIND_NULL = 2;

    private final long[] remaining = new long[MAX_DEPTH];
    private int depth;
    private int state = TYPE;
    private byte lengthType;
    private long length;
    private int lengthDigits;
    private boolean negative;
    private long bulkLeft;
    private int topKind;
    private boolean capturing;
    private StringBuilder errorText;
    private String firstError;
    private long replies;
    private long errors;
    private long nulls;

    /**
     * Consumes every byte between the buffer's position and limit, and moves the position to the limit.
     *
     * @param buffer bytes received, in order.
     * @return the number of top-level replies completed by these bytes, or {@link #PROTOCOL_ERROR}.
     */
    public int consume(final ByteBuffer buffer)
    {
        final int limit = buffer.limit();
        int pos = buffer.position();
        int done = 0;
        while (pos < limit)
        {
            switch (state)
            {
                case TYPE ->
                {
                    if (!onType(buffer.get(pos++)))
                    {
                        return PROTOCOL_ERROR;
                    }
                }
                case LINE ->
                {
                    final int start = pos;
                    while (pos < limit && buffer.get(pos) != '\n')
                    {
                        pos++;
                    }
                    if (capturing)
                    {
                        capture(buffer, start, pos);
                    }
                    if (pos < limit)
                    {
                        pos++;
                        done += complete();
                    }
                }
                case LENGTH ->
                {
                    final byte b = buffer.get(pos++);
                    if (!onLengthByte(b))
                    {
                        return PROTOCOL_ERROR;
                    }
                }
                case LENGTH_LF ->
                {
                    if (buffer.get(pos++) != '\n')
                    {
                        return PROTOCOL_ERROR;
                    }
                    final int result = onLength();
                    if (result < 0)
                    {
                        return PROTOCOL_ERROR;
                    }
                    done += result;
                }
                case BULK ->
                {
                    final long skip = Math.min(bulkLeft, limit - pos);
                    pos += (int)skip;
                    bulkLeft -= skip;
                    if (bulkLeft == 0)
                    {
                        done += complete();
                    }
                }
                default -> throw new IllegalStateException("state=" + state);
            }
        }
        buffer.position(limit);
        return done;
    }

    /**
     * @return top-level replies completed since the last {@link #reset()}.
     */
    public long replies()
    {
        return replies;
    }

    /**
     * @return top-level error replies ({@code -} or {@code !}) since the last {@link #reset()}.
     */
    public long errors()
    {
        return errors;
    }

    /**
     * @return top-level null replies ({@code $-1}, {@code *-1}, {@code _}) since the last {@link #reset()}.
     */
    public long nulls()
    {
        return nulls;
    }

    /**
     * @return the text of the first top-level simple error (without the {@code -} and line end, at most 200
     * characters), or null if there was none.
     */
    public String firstError()
    {
        return firstError;
    }

    /**
     * Forgets all state and counts, as for a new connection.
     */
    public void reset()
    {
        depth = 0;
        state = TYPE;
        capturing = false;
        errorText = null;
        firstError = null;
        replies = 0;
        errors = 0;
        nulls = 0;
    }

    private boolean onType(final byte type)
    {
        if (depth == 0)
        {
            topKind = KIND_VALUE;
        }
        switch (type)
        {
            case '+', ':', ',', '#', '(' -> state = LINE;
            case '-' ->
            {
                if (depth == 0)
                {
                    topKind = KIND_ERROR;
                    if (firstError == null)
                    {
                        capturing = true;
                        errorText = new StringBuilder();
                    }
                }
                state = LINE;
            }
            case '_' ->
            {
                if (depth == 0)
                {
                    topKind = KIND_NULL;
                }
                state = LINE;
            }
            case '!' ->
            {
                if (depth == 0)
                {
                    topKind = KIND_ERROR;
                }
                startLength(type);
            }
            case '$', '=', '*', '~', '>', '%' -> startLength(type);
            default ->
            {
                return false;
            }
        }
        return true;
    }

    private void startLength(final byte type)
    {
        lengthType = type;
        length = 0;
        lengthDigits = 0;
        negative = false;
        state = LENGTH;
    }

    private boolean onLengthByte(final byte b)
    {
        if (b >= '0' && b <= '9')
        {
            if (++lengthDigits > MAX_LENGTH_DIGITS)
            {
                return false;
            }
            length = length * 10 + (b - '0');
            return true;
        }
        if (b == '-' && lengthDigits == 0 && !negative)
        {
            negative = true;
            return true;
        }
        if (b == '\r' && lengthDigits > 0)
        {
            state = LENGTH_LF;
            return true;
        }
        return false;
    }

    private int onLength()
    {
        if (negative)
        {
            if (length != 1)
            {
                return -1;
            }
            if (depth == 0)
            {
                topKind = KIND_NULL;
            }
            return complete();
        }
        if (lengthType == '$' || lengthType == '=' || lengthType == '!')
        {
            bulkLeft = length + 2;
            state = BULK;
            return 0;
        }
        final long elements = lengthType == '%' ? length * 2 : length;
        if (elements == 0)
        {
            return complete();
        }
        if (depth == MAX_DEPTH)
        {
            return -1;
        }
        remaining[depth++] = elements;
        state = TYPE;
        return 0;
    }

    private int complete()
    {
        state = TYPE;
        while (depth > 0)
        {
            if (--remaining[depth - 1] > 0)
            {
                return 0;
            }
            depth--;
        }
        replies++;
        if (topKind == KIND_ERROR)
        {
            errors++;
            if (capturing)
            {
                capturing = false;
                firstError = errorText.toString().strip();
                errorText = null;
            }
        }
        else if (topKind == KIND_NULL)
        {
            nulls++;
        }
        return 1;
    }

    private void capture(final ByteBuffer buffer, final int from, final int to)
    {
        for (int i = from; i < to && errorText.length() < MAX_ERROR_TEXT; i++)
        {
            errorText.append((char)(buffer.get(i) & 0xFF));
        }
    }
}
