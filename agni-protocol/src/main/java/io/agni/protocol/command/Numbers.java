package io.agni.protocol.command;

import org.agrona.DirectBuffer;

/**
 * Redis's number parsing over bytes, allocating nothing.
 */
final class Numbers
{
    /**
     * Returned by {@link #parseLong} for bytes that are not an integer. {@code Long.MIN_VALUE} itself is a valid
     * integer too: tell them apart with {@link #isLongMinValue}.
     */
    static final long INVALID = Long.MIN_VALUE;

    private static final int MAX_LONG_DIGITS = 20;
    private static final byte[] LONG_MIN_VALUE = Long.toString(Long.MIN_VALUE).getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Numbers()
    {
    }

    /**
     * Parses a signed decimal 64-bit integer as Redis's {@code string2ll}: an optional '-', digits, no leading zeros
     * (except "0" itself), no spaces, no '+', at most 20 characters, no overflow.
     *
     * @return the value, or {@link #INVALID}.
     */
    static long parseLong(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length == 0 || length > MAX_LONG_DIGITS)
        {
            return INVALID;
        }
        if (length == 1 && buffer.getByte(offset) == '0')
        {
            return 0;
        }
        int i = 0;
        boolean negative = false;
        if (buffer.getByte(offset) == '-')
        {
            negative = true;
            i++;
            if (length == 1)
            {
                return INVALID;
            }
        }
        final byte first = buffer.getByte(offset + i);
        if (first < '1' || first > '9')
        {
            return INVALID;
        }
        long value = 0;
        for (; i < length; i++)
        {
            final int digit = buffer.getByte(offset + i) - '0';
            if (digit < 0 || digit > 9)
            {
                return INVALID;
            }
            if (value > (Long.MAX_VALUE - digit) / 10)
            {
                return negative && isLongMinValue(buffer, offset, length) ? Long.MIN_VALUE : INVALID;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    static boolean isLongMinValue(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length != LONG_MIN_VALUE.length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != LONG_MIN_VALUE[i])
            {
                return false;
            }
        }
        return true;
    }
}
