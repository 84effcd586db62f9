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

    /**
     * Parses a memory value as Redis's {@code memtoull} does for {@code CONFIG SET}: digits (none read as 0), then
     * optionally a unit in any case: {@code b} = 1, {@code k} = 1,000, {@code kb} = 1,024, {@code m} = 1,000,000,
     * {@code mb} = 1,048,576, {@code g} = 10<sup>9</sup>, {@code gb} = 2<sup>30</sup>. No sign, no spaces.
     *
     * @param text the value.
     * @return the bytes, {@link Long#MAX_VALUE} for a value past it (no budget is that large), or -1 if the text is
     *         not a memory value.
     */
    static long memoryValue(final String text)
    {
        int digits = 0;
        while (digits < text.length() && text.charAt(digits) >= '0' && text.charAt(digits) <= '9')
        {
            digits++;
        }
        final long unit;
        switch (text.substring(digits).toLowerCase(java.util.Locale.ROOT))
        {
            case "":
            case "b":
                unit = 1;
                break;
            case "k":
                unit = 1000L;
                break;
            case "kb":
                unit = 1024L;
                break;
            case "m":
                unit = 1000L * 1000;
                break;
            case "mb":
                unit = 1024L * 1024;
                break;
            case "g":
                unit = 1000L * 1000 * 1000;
                break;
            case "gb":
                unit = 1024L * 1024 * 1024;
                break;
            default:
                return -1;
        }
        long value = 0;
        for (int i = 0; i < digits; i++)
        {
            final int digit = text.charAt(i) - '0';
            if (value > (Long.MAX_VALUE - digit) / 10)
            {
                return Long.MAX_VALUE;
            }
            value = value * 10 + digit;
        }
        return value > Long.MAX_VALUE / unit ? Long.MAX_VALUE : value * unit;
    }
}
