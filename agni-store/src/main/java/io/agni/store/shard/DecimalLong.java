package io.agni.store.shard;

import io.agni.api.IntegerOverflowException;
import io.agni.api.NotAnIntegerException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Strict decimal 64-bit integers as Redis's {@code string2ll} reads them: an optional {@code -}, no {@code +}, no
 * spaces, no leading zeros, no {@code -0}, at most 20 bytes, within the signed 64-bit range.
 */
public final class DecimalLong
{
    /**
     * The longest decimal a 64-bit signed integer takes ({@code -9223372036854775808}).
     */
    public static final int MAX_LENGTH = 20;

    private DecimalLong()
    {
    }

    /**
     * Parses a value strictly.
     *
     * @param buffer where it is.
     * @param offset where it starts.
     * @param length its length.
     * @return the number.
     * @throws NotAnIntegerException if it is not a canonical decimal 64-bit integer.
     */
    public static long parse(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < 1 || length > MAX_LENGTH)
        {
            throw notAnInteger();
        }
        if (length == 1 && buffer.getByte(offset) == '0')
        {
            return 0;
        }
        int p = offset;
        final int end = offset + length;
        final boolean negative = buffer.getByte(p) == '-';
        if (negative)
        {
            p++;
            if (p == end)
            {
                throw notAnInteger();
            }
        }
        final int first = buffer.getByte(p);
        if (first < '1' || first > '9')
        {
            throw notAnInteger();
        }
        long magnitudeNegated = 0;
        for (; p < end; p++)
        {
            final int d = buffer.getByte(p) - '0';
            if (d < 0 || d > 9)
            {
                throw notAnInteger();
            }
            if (magnitudeNegated < Long.MIN_VALUE / 10)
            {
                throw notAnInteger();
            }
            magnitudeNegated *= 10;
            if (magnitudeNegated < Long.MIN_VALUE + d)
            {
                throw notAnInteger();
            }
            magnitudeNegated -= d;
        }
        if (negative)
        {
            return magnitudeNegated;
        }
        if (magnitudeNegated == Long.MIN_VALUE)
        {
            throw notAnInteger();
        }
        return -magnitudeNegated;
    }

    /**
     * Adds with an overflow check.
     *
     * @param value the current value.
     * @param delta the delta.
     * @return the sum.
     * @throws IntegerOverflowException if the sum leaves the 64-bit range.
     */
    public static long add(final long value, final long delta)
    {
        final long sum = value + delta;
        if (((value ^ sum) & (delta ^ sum)) < 0)
        {
            throw new IntegerOverflowException(
                "increment or decrement would overflow: value=" + value + ", delta=" + delta);
        }
        return sum;
    }

    /**
     * Formats a value as decimal ASCII at offset 0.
     *
     * @param value  the number.
     * @param buffer at least {@link #MAX_LENGTH} bytes.
     * @return the number of bytes written.
     */
    public static int format(final long value, final MutableDirectBuffer buffer)
    {
        return buffer.putLongAscii(0, value);
    }

    private static NotAnIntegerException notAnInteger()
    {
        return new NotAnIntegerException("value is not an integer or out of range");
    }
}
