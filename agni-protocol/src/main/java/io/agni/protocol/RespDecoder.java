package io.agni.protocol;

import org.agrona.DirectBuffer;

/**
 * Decodes requests, RESP2 multibulk ({@code *<n>\r\n} then {@code $<len>\r\n<bytes>\r\n} n times) and inline
 * ({@code PING\r\n}), incrementally, with Redis 7's rules and error texts.
 *
 * <h2>Incremental, zero-copy</h2>
 * {@link #decode} hands every complete command in the range to the listener (pipelining) and returns how many bytes
 * those took. The rest is the start of a partial command: the caller keeps those bytes and presents them again at
 * the start of the next range, followed by what it read since, in the same buffer or another. The decoder never
 * parses a partial command twice: it remembers where it stopped, relative to the command's first byte, with the
 * arguments found so far. A multibulk command's arguments are views of the caller's buffer; an inline command's are
 * unescaped into a scratch buffer of the decoder's.
 *
 * <h2>States</h2>
 * One small method per state, each returning whether it made progress; decoding stops at the first that did not.
 * <pre>
 *   COMMAND_START --'*'--> MULTIBULK_COUNT --n > 0--> BULK_HEADER --> BULK_BODY --more--> BULK_HEADER
 *        |                        |                                      |
 *        |                        '--n = 0 or less: skipped              '--n-th argument: a command
 *        '--other--> INLINE --a line: a command, or skipped if blank
 *   then COMMAND_START again; on a protocol error, FAILED until reset()
 * </pre>
 *
 * <h2>Limits</h2>
 * Every declared count and length is checked against {@link ProtocolLimits}, and the pre-authentication limits of
 * Redis, before anything is reserved; nothing is ever sized from a declared number: arguments are recorded as they
 * arrive, and the scratch buffer grows only to hold a line that has arrived. The arrays of a command with more than
 * 4096 arguments are given back once it has been handed over. Header and inline lines are searched
 * for their end within the limit only, so a hostile line costs at most a limit's worth of scanning, once.
 *
 * <h2>Where this differs from Redis 7</h2>
 * <ul>
 *   <li>A line's end is searched for in every byte, a zero byte included; Redis 7 uses {@code strchr}, which stops
 *   at a zero byte and then waits for a line end it cannot see. In an inline line a zero byte still ends the
 *   arguments, as {@code sdssplitargs} reads a C string.</li>
 *   <li>Line limits are exact and do not depend on how the bytes were cut into reads: a header line (before its
 *   {@code \r}) or an inline line (before its {@code \r\n} or {@code \n}) longer than
 *   {@link ProtocolLimits#maxInlineLength()} is an error even when its end has arrived; Redis checks only while the
 *   end is missing.</li>
 *   <li>A command whose bytes could not fit one buffer (more than {@code Integer.MAX_VALUE} in all) is refused
 *   as an invalid bulk length when the bulk that would overflow is declared.</li>
 * </ul>
 * Like Redis, the byte after a header's {@code \r} and the two bytes after a bulk are skipped without being
 * checked to be {@code \n} and {@code \r\n}.
 *
 * <h2>Threads</h2>
 * Not thread-safe; one per connection, used only by the thread that reads it.
 */
public final class RespDecoder
{
    /**
     * What the decoder found. Called only from inside {@link RespDecoder#decode}, on its thread. A listener that
     * throws leaves the decoder mid-stream: {@link RespDecoder#reset()} it before using it again.
     */
    public interface Listener
    {
        /**
         * A complete command.
         *
         * @param args the command name and its arguments: valid only inside this call, copy what is kept.
         * @return true to go on decoding, false to stop after this command ({@link RespDecoder#decode} then returns
         * the bytes consumed up to its end).
         */
        boolean onCommand(RespArgs args);

        /**
         * A protocol error; the decoder is failed from now on until {@link RespDecoder#reset()}. The caller replies
         * {@code "-ERR " + message} and closes the connection, as Redis does.
         *
         * @param message Redis's text without the {@code ERR } prefix, e.g.
         *                {@code "Protocol error: invalid bulk length"}.
         */
        void onProtocolError(String message);
    }

    /**
     * The most arguments a request may declare before its client has authenticated, as Redis (CVE-2021-32675).
     */
    static final int UNAUTHENTICATED_MAX_ARGUMENTS = 10;

    /**
     * The longest bulk a request may declare before its client has authenticated, as Redis (CVE-2021-32675).
     */
    static final int UNAUTHENTICATED_MAX_BULK_LENGTH = 16 * 1024;

    static final String INVALID_MULTIBULK_LENGTH = "Protocol error: invalid multibulk length";
    static final String INVALID_BULK_LENGTH = "Protocol error: invalid bulk length";
    static final String UNAUTHENTICATED_MULTIBULK_LENGTH = "Protocol error: unauthenticated multibulk length";
    static final String UNAUTHENTICATED_BULK_LENGTH = "Protocol error: unauthenticated bulk length";
    static final String TOO_BIG_MULTIBULK_COUNT = "Protocol error: too big mbulk count string";
    static final String TOO_BIG_BULK_COUNT = "Protocol error: too big bulk count string";
    static final String TOO_BIG_INLINE_REQUEST = "Protocol error: too big inline request";
    static final String UNBALANCED_QUOTES = "Protocol error: unbalanced quotes in request";

    private static final int STATE_COMMAND_START = 0;
    private static final int STATE_MULTIBULK_COUNT = 1;
    private static final int STATE_BULK_HEADER = 2;
    private static final int STATE_BULK_BODY = 3;
    private static final int STATE_INLINE = 4;
    private static final int STATE_FAILED = 5;

    private static final int CRLF_LENGTH = 2;

    /**
     * The most digits {@link #headerLineFast()} reads: any such number fits an {@code int}.
     */
    private static final int FAST_HEADER_DIGITS = 9;

    private final int maxBulkLength;
    private final int maxArguments;
    private final int maxLineLength;
    private final RespArgs args = new RespArgs();
    private final InlineSplitter splitter;
    private boolean authenticated = true;

    // The command being decoded; positions are relative to its first byte.
    private int state = STATE_COMMAND_START;
    private int position;
    private int scanned;
    private int argumentsRemaining;
    private int bulkLength;
    private int unconsumed;
    private long pendingBytes;

    // The current call to decode().
    private DirectBuffer buffer;
    private Listener listener;
    private int rangeOffset;
    private int rangeLength;
    private int consumed;
    private boolean stopped;
    private long number;

    /**
     * A decoder that checks every request against the limits.
     *
     * @param limits the limits every request is checked against.
     */
    public RespDecoder(final ProtocolLimits limits)
    {
        maxBulkLength = limits.maxBulkLength();
        maxArguments = limits.maxArguments();
        maxLineLength = limits.maxInlineLength();
        splitter = new InlineSplitter(maxLineLength);
    }

    /**
     * Decodes {@code buffer[offset, offset + length)}: calls {@link Listener#onCommand} for every complete command,
     * in order, until the range ends or the listener asks to stop.
     * <p>
     * The bytes not consumed belong to a partial command: present them again at the start of the next call's range,
     * followed by the bytes read since (the buffer may be another one, or compacted). After a protocol error the
     * whole range is consumed, and every further call consumes its range and reports nothing until {@link #reset()}.
     *
     * @param buffer   the bytes read from the connection.
     * @param offset   where the range starts.
     * @param length   the range's length.
     * @param listener told of each command and of a protocol error.
     * @return the number of bytes consumed from {@code offset}.
     * @throws IllegalArgumentException if the range is shorter than the partial command kept from the last call.
     */
    public int decode(final DirectBuffer buffer, final int offset, final int length, final Listener listener)
    {
        if (state == STATE_FAILED)
        {
            return length;
        }
        if (length < unconsumed)
        {
            throw new IllegalArgumentException(
                "range shorter than the partial command kept from the last call: length=" + length +
                ", kept=" + unconsumed);
        }
        this.buffer = buffer;
        this.listener = listener;
        rangeOffset = offset;
        rangeLength = length;
        consumed = 0;
        stopped = false;
        while (!stopped && decodeState())
        {
            // each state method consumed, completed or moved on
        }
        this.buffer = null;
        this.listener = null;
        if (state == STATE_FAILED)
        {
            return length;
        }
        unconsumed = length - consumed;
        pendingBytes = state == STATE_BULK_BODY ? (long)position + bulkLength + CRLF_LENGTH - unconsumed : 0;
        return consumed;
    }

    /**
     * Forgets any partial command and a protocol error, to decode a new stream. The authentication state is kept.
     */
    public void reset()
    {
        resetCommand();
        args.wrap(null);
        unconsumed = 0;
        pendingBytes = 0;
        state = STATE_COMMAND_START;
    }

    /**
     * Whether the client has authenticated. Until it has, Redis's pre-authentication limits apply on top of
     * {@link ProtocolLimits}: a request that declares more than 10 arguments is refused with
     * {@code "Protocol error: unauthenticated multibulk length"}, a bulk longer than 16384 bytes with
     * {@code "Protocol error: unauthenticated bulk length"}. The default is authenticated. May be called from inside
     * {@link Listener#onCommand} (after {@code AUTH}): the next command is checked with the new state.
     *
     * @param authenticated whether the client has authenticated.
     */
    public void authenticated(final boolean authenticated)
    {
        this.authenticated = authenticated;
    }

    /**
     * Returns when the last call stopped inside a bulk of known length, the bytes still missing to complete it (its
     * CRLF included); otherwise 0. A network layer may size its next read with it.
     *
     * @return when the last call stopped inside a bulk of known length, the bytes still missing to complete it
     * (its CRLF included); otherwise 0. A network layer may size its next read with it.
     */
    public long pendingBytesHint()
    {
        return pendingBytes;
    }

    /**
     * @return the bytes of heap the decoder holds for arguments and inline lines, for tests of the limits.
     */
    long reservedBytes()
    {
        return 2L * Integer.BYTES * args.capacity() + splitter.capacity();
    }

    private boolean decodeState()
    {
        return switch (state)
        {
            case STATE_COMMAND_START -> decodeCommandStart();
            case STATE_MULTIBULK_COUNT -> decodeMultibulkCount();
            case STATE_BULK_HEADER -> decodeBulkHeader();
            case STATE_BULK_BODY -> decodeBulkBody();
            case STATE_INLINE -> decodeInline();
            default -> false;
        };
    }

    private boolean decodeCommandStart()
    {
        if (available() == 0)
        {
            return false;
        }
        state = buffer.getByte(commandStart()) == '*' ? STATE_MULTIBULK_COUNT : STATE_INLINE;
        return true;
    }

    private boolean decodeMultibulkCount()
    {
        int lineEnd = headerLineFast();
        if (lineEnd < 0)
        {
            lineEnd = findLineEnd((byte)'\r');
            if (lineEnd < 0)
            {
                if (available() > maxLineLength)
                {
                    return fail(TOO_BIG_MULTIBULK_COUNT);
                }
                return false;
            }
            if (lineEnd + 1 >= available())
            {
                return false;
            }
            if (!parseNumber(1, lineEnd))
            {
                return fail(INVALID_MULTIBULK_LENGTH);
            }
        }
        if (number > maxArguments)
        {
            return fail(INVALID_MULTIBULK_LENGTH);
        }
        if (number > UNAUTHENTICATED_MAX_ARGUMENTS && !authenticated)
        {
            return fail(UNAUTHENTICATED_MULTIBULK_LENGTH);
        }
        moveTo(lineEnd + CRLF_LENGTH);
        if (number <= 0)
        {
            return completeEmpty();
        }
        argumentsRemaining = (int)number;
        state = STATE_BULK_HEADER;
        return true;
    }

    private boolean decodeBulkHeader()
    {
        int lineEnd = position < available() && buffer.getByte(commandStart() + position) == '$' ?
            headerLineFast() : -1;
        if (lineEnd < 0)
        {
            lineEnd = findLineEnd((byte)'\r');
            if (lineEnd < 0)
            {
                if (available() - position > maxLineLength)
                {
                    return fail(TOO_BIG_BULK_COUNT);
                }
                return false;
            }
            if (lineEnd + 1 >= available())
            {
                return false;
            }
            final byte type = buffer.getByte(commandStart() + position);
            if (type != '$')
            {
                return fail("Protocol error: expected '$', got '" + (char)(type & 0xFF) + "'");
            }
            if (!parseNumber(position + 1, lineEnd) || number < 0)
            {
                return fail(INVALID_BULK_LENGTH);
            }
        }
        if (number > maxBulkLength)
        {
            return fail(INVALID_BULK_LENGTH);
        }
        if (number > UNAUTHENTICATED_MAX_BULK_LENGTH && !authenticated)
        {
            return fail(UNAUTHENTICATED_BULK_LENGTH);
        }
        final int bodyStart = lineEnd + CRLF_LENGTH;
        if (bodyStart + number + CRLF_LENGTH > Integer.MAX_VALUE)
        {
            return fail(INVALID_BULK_LENGTH);
        }
        moveTo(bodyStart);
        bulkLength = (int)number;
        state = STATE_BULK_BODY;
        return true;
    }

    private boolean decodeBulkBody()
    {
        if (available() - position < bulkLength + CRLF_LENGTH)
        {
            return false;
        }
        args.add(position, bulkLength);
        moveTo(position + bulkLength + CRLF_LENGTH);
        bulkLength = 0;
        if (--argumentsRemaining > 0)
        {
            state = STATE_BULK_HEADER;
            return true;
        }
        args.rebase(buffer, commandStart());
        return complete();
    }

    private boolean decodeInline()
    {
        final int newline = findLineEnd((byte)'\n');
        if (newline < 0)
        {
            final int available = available();
            if (available > maxLineLength + 1 ||
                (available > maxLineLength && buffer.getByte(commandStart() + maxLineLength) != '\r'))
            {
                return fail(TOO_BIG_INLINE_REQUEST);
            }
            return false;
        }
        final int start = commandStart();
        final int lineLength = newline > 0 && buffer.getByte(start + newline - 1) == '\r' ? newline - 1 : newline;
        if (lineLength > maxLineLength)
        {
            return fail(TOO_BIG_INLINE_REQUEST);
        }
        if (!splitter.split(buffer, start, lineLength, args))
        {
            return fail(UNBALANCED_QUOTES);
        }
        moveTo(newline + 1);
        return args.count() == 0 ? completeEmpty() : complete();
    }

    /**
     * The common header line in one pass: at {@link #position} a type byte (checked by the caller), then 1 to
     * {@link #FAST_HEADER_DIGITS} digits with no leading zero ("0" alone excepted), then {@code \r} with one more
     * byte after it, the line within the limit. The value goes to {@link #number}. Anything else (a line not all
     * here, a sign, more digits, a bad byte) returns -1, and the general path ({@link #findLineEnd} then
     * {@link #parseNumber}) decides, so this is only a shortcut to the result that path would give.
     *
     * @return the {@code \r}'s position relative to the command, or -1.
     */
    private int headerLineFast()
    {
        final DirectBuffer buffer = this.buffer;
        final int start = commandStart() + position;
        final int last = Math.min(available() - 2 - position, Math.min(FAST_HEADER_DIGITS + 1, maxLineLength));
        int value = 0;
        for (int i = 1; i <= last; i++)
        {
            final int b = buffer.getByte(start + i);
            if (b == '\r')
            {
                if (i == 1 || (i > 2 && buffer.getByte(start + 1) == '0'))
                {
                    return -1;
                }
                number = value;
                return position + i;
            }
            final int digit = b - '0';
            if (digit < 0 || digit > 9)
            {
                return -1;
            }
            value = value * 10 + digit;
        }
        return -1;
    }

    /**
     * Searches the current line for {@code terminator}, from where the last search stopped, but only as far as a
     * line within the limit can reach (the limit, then {@code \r\n} for an inline line).
     *
     * @return the terminator's position relative to the command, or -1 if it is not there (yet).
     */
    private int findLineEnd(final byte terminator)
    {
        final int reach = terminator == '\n' ? maxLineLength + CRLF_LENGTH : maxLineLength + 1;
        final int end = (int)Math.min(available(), (long)position + reach);
        final DirectBuffer buffer = this.buffer;
        final int start = commandStart();
        for (int i = scanned; i < end; i++)
        {
            if (buffer.getByte(start + i) == terminator)
            {
                scanned = i;
                return i;
            }
        }
        scanned = Math.max(scanned, end);
        return -1;
    }

    /**
     * Parses {@code [from, to)} of the command as Redis's {@code string2ll}: an optional '-', then digits with no
     * leading zero ("0" alone excepted), within a {@code long}; no '+', no spaces. The value goes to {@link #number}.
     */
    private boolean parseNumber(final int from, final int to)
    {
        final DirectBuffer buffer = this.buffer;
        final int start = commandStart();
        int i = start + from;
        final int end = start + to;
        if (i == end)
        {
            return false;
        }
        final boolean negative = buffer.getByte(i) == '-';
        if (negative && ++i == end)
        {
            return false;
        }
        byte digit = buffer.getByte(i++);
        if (digit == '0' && i == end && !negative)
        {
            number = 0;
            return true;
        }
        if (digit < '1' || digit > '9')
        {
            return false;
        }
        long value = '0' - digit;
        while (i < end)
        {
            digit = buffer.getByte(i++);
            if (digit < '0' || digit > '9' || value < Long.MIN_VALUE / 10)
            {
                return false;
            }
            value *= 10;
            if (value < Long.MIN_VALUE + (digit - '0'))
            {
                return false;
            }
            value -= digit - '0';
        }
        if (!negative && value == Long.MIN_VALUE)
        {
            return false;
        }
        number = negative ? value : -value;
        return true;
    }

    private boolean complete()
    {
        consumed += position;
        resetCommand();
        final boolean goOn = listener.onCommand(args);
        args.wrap(null);
        args.trim();
        stopped = !goOn;
        return true;
    }

    private boolean completeEmpty()
    {
        consumed += position;
        resetCommand();
        return true;
    }

    private boolean fail(final String message)
    {
        resetCommand();
        args.wrap(null);
        state = STATE_FAILED;
        unconsumed = 0;
        pendingBytes = 0;
        listener.onProtocolError(message);
        return false;
    }

    private void resetCommand()
    {
        state = STATE_COMMAND_START;
        position = 0;
        scanned = 0;
        argumentsRemaining = 0;
        bulkLength = 0;
    }

    private void moveTo(final int newPosition)
    {
        position = newPosition;
        scanned = newPosition;
    }

    private int commandStart()
    {
        return rangeOffset + consumed;
    }

    private int available()
    {
        return rangeLength - consumed;
    }
}
