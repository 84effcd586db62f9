package io.agni.protocol;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Splits an inline request line into arguments as Redis's {@code sdssplitargs} does, unescaping them into a scratch
 * buffer that {@link RespArgs} then points at.
 *
 * <h2>Rules (Redis's)</h2>
 * Arguments are separated by white space ({@code isspace}: space, {@code \t \n \v \f \r}). An argument may hold
 * quoted parts: {@code "double quotes"} understand {@code \xHH} (two hex digits) and {@code \n \r \t \b \a}, and
 * a backslash before any other character stands for that character; {@code 'single quotes'} understand only
 * {@code \'}. A closing quote must be followed by white space or the end of the line, and every quote must be
 * closed, else the line is unbalanced. Because Redis splits a C string, a zero byte ends the line: whatever follows
 * it is ignored, and a quote still open there is unbalanced.
 *
 * <h2>Memory</h2>
 * The unescaped arguments are never longer than the line, so the scratch buffer grows, when a longer line actually
 * arrives, to at most the inline limit; it never shrinks.
 */
final class InlineSplitter
{
    private static final int MIN_CAPACITY = 64;

    private final int maxLineLength;
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[0]);
    private DirectBuffer line;
    private int lineEnd;

    /**
     * @param maxLineLength the longest line that will be split, and so the most the scratch buffer grows to.
     */
    InlineSplitter(final int maxLineLength)
    {
        this.maxLineLength = maxLineLength;
    }

    /**
     * @return the bytes the scratch buffer holds.
     */
    int capacity()
    {
        return scratch.capacity();
    }

    /**
     * Splits {@code buffer[offset, offset + length)} into {@code args}, which then point into the scratch buffer.
     *
     * @param buffer the line's buffer.
     * @param offset where the line starts.
     * @param length the line's length without its line ending, at most the limit given at construction.
     * @param args   wrapped over the scratch buffer and filled with the arguments.
     * @return false if the quotes are unbalanced (then {@code args} holds a partial result).
     */
    boolean split(final DirectBuffer buffer, final int offset, final int length, final RespArgs args)
    {
        ensureCapacity(length);
        args.wrap(scratch);
        line = buffer;
        lineEnd = offset + length;
        try
        {
            return splitLine(offset, args);
        }
        finally
        {
            line = null;
        }
    }

    private boolean splitLine(final int offset, final RespArgs args)
    {
        int p = offset;
        int out = 0;
        while (true)
        {
            while (isSpace(at(p)))
            {
                p++;
            }
            if (at(p) == 0)
            {
                return true;
            }
            final int argumentStart = out;
            boolean inDoubleQuotes = false;
            boolean inSingleQuotes = false;
            boolean done = false;
            while (!done)
            {
                final byte c = at(p);
                if (inDoubleQuotes)
                {
                    if (c == '\\' && at(p + 1) == 'x' && isHex(at(p + 2)) && isHex(at(p + 3)))
                    {
                        scratch.putByte(out++, (byte)((hexValue(at(p + 2)) << 4) | hexValue(at(p + 3))));
                        p += 3;
                    }
                    else if (c == '\\' && at(p + 1) != 0)
                    {
                        p++;
                        scratch.putByte(out++, unescape(at(p)));
                    }
                    else if (c == '"')
                    {
                        if (!endsArgument(at(p + 1)))
                        {
                            return false;
                        }
                        done = true;
                    }
                    else if (c == 0)
                    {
                        return false;
                    }
                    else
                    {
                        scratch.putByte(out++, c);
                    }
                }
                else if (inSingleQuotes)
                {
                    if (c == '\\' && at(p + 1) == '\'')
                    {
                        p++;
                        scratch.putByte(out++, (byte)'\'');
                    }
                    else if (c == '\'')
                    {
                        if (!endsArgument(at(p + 1)))
                        {
                            return false;
                        }
                        done = true;
                    }
                    else if (c == 0)
                    {
                        return false;
                    }
                    else
                    {
                        scratch.putByte(out++, c);
                    }
                }
                else
                {
                    switch (c)
                    {
                        case ' ', '\n', '\r', '\t', 0 -> done = true;
                        case '"' -> inDoubleQuotes = true;
                        case '\'' -> inSingleQuotes = true;
                        default -> scratch.putByte(out++, c);
                    }
                }
                if (at(p) != 0)
                {
                    p++;
                }
            }
            args.add(argumentStart, out - argumentStart);
        }
    }

    /**
     * The byte at {@code index}, or 0 past the end of the line: the line reads like a C string.
     */
    private byte at(final int index)
    {
        return index < lineEnd ? line.getByte(index) : 0;
    }

    private void ensureCapacity(final int length)
    {
        final int capacity = scratch.capacity();
        if (capacity < length)
        {
            final long doubled = Math.max(MIN_CAPACITY, 2L * capacity);
            scratch.wrap(new byte[(int)Math.max(length, Math.min(maxLineLength, doubled))]);
        }
    }

    private static boolean endsArgument(final byte next)
    {
        return next == 0 || isSpace(next);
    }

    static boolean isSpace(final byte c)
    {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    private static boolean isHex(final byte c)
    {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int hexValue(final byte c)
    {
        if (c <= '9')
        {
            return c - '0';
        }
        return (c | 0x20) - 'a' + 10;
    }

    private static byte unescape(final byte c)
    {
        return switch (c)
        {
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'b' -> '\b';
            case 'a' -> 0x07;
            default -> c;
        };
    }
}
