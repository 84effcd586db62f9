package io.agni.api.internal;

import io.agni.api.NotAFloatException;
import org.agrona.DirectBuffer;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Reads a number as Redis reads the value and the increment of {@code INCRBYFLOAT} (its {@code string2ld}, over C's
 * {@code strtold}), so that a command layer and a store agree on what a float is.
 * <p>
 * Not API: {@code io.agni.api.internal} is exported only to agni's own modules (see {@code module-info.java}); the
 * grammar users rely on is stated on {@link io.agni.api.AgniStore#incrementByFloat(byte[], double)}.
 *
 * <h2>Grammar</h2>
 * The whole text, ASCII, at most {@value #MAX_LENGTH} bytes, with no spaces anywhere: an optional sign, then either
 * decimal digits with an optional {@code .} and fraction and an optional exponent ({@code 10}, {@code -1.5},
 * {@code .5}, {@code 1.}, {@code 5.0e3}, {@code 1E-3}), or {@code 0x} / {@code 0X} and hexadecimal digits with an
 * optional {@code .} and fraction and an optional binary exponent ({@code 0x10}, {@code 0x1.8p1}). There must be at
 * least one digit, and an exponent marker must be followed by at least one digit. A number beyond the range of an
 * x87 {@code long double} (above about {@code 1.19e4932}, or non-zero below about {@code 3.65e-4951}) is refused, as
 * {@code strtold} refuses it with {@code ERANGE}. {@code nan} is never a number; {@code inf} and {@code infinity}
 * are read only by {@link #parseDouble}.
 *
 * <h2>Threads</h2>
 * Stateless; any thread. The methods allocate: they are for commands off the hot path.
 */
public final class Decimal
{
    /**
     * The longest text that is read as a number (Redis's {@code MAX_LONG_DOUBLE_CHARS}).
     */
    public static final int MAX_LENGTH = 5 * 1024;

    private static final BigDecimal LONG_DOUBLE_MAX = new BigDecimal("1.18973149535723176502e4932");
    private static final BigDecimal LONG_DOUBLE_MIN = new BigDecimal("3.64519953188247460253e-4951");
    private static final int MAX_DECIMAL_EXPONENT = 4932;
    private static final int MIN_DECIMAL_EXPONENT = -4951;
    private static final int MAX_BINARY_EXPONENT = 16385;
    private static final int MIN_BINARY_EXPONENT = -16445;
    private static final long EXPONENT_SATURATION = 1_000_000_000L;

    private Decimal()
    {
    }

    /**
     * Reads a finite number exactly.
     *
     * @param buffer the buffer holding the text.
     * @param offset where the text starts.
     * @param length the text's length in bytes.
     * @return the number's exact value; a negative zero reads as zero.
     * @throws NotAFloatException        if the text is not a finite number by the grammar above ({@code inf} and
     *                                   {@code nan} included).
     * @throws IndexOutOfBoundsException if the range is outside the buffer.
     */
    public static BigDecimal parse(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length <= 0 || length > MAX_LENGTH)
        {
            throw new NotAFloatException();
        }
        buffer.boundsCheck(offset, length);
        final int end = offset + length;
        final byte first = buffer.getByte(offset);
        final boolean negative = first == '-';
        final int start = first == '-' || first == '+' ? offset + 1 : offset;
        final BigDecimal magnitude;
        if (end - start > 2 && buffer.getByte(start) == '0' && (buffer.getByte(start + 1) | 0x20) == 'x')
        {
            magnitude = parseHex(buffer, start + 2, end);
        }
        else
        {
            magnitude = parseDecimal(buffer, start, end);
        }
        if (magnitude.signum() != 0 &&
            (magnitude.compareTo(LONG_DOUBLE_MAX) > 0 || magnitude.compareTo(LONG_DOUBLE_MIN) < 0))
        {
            throw new NotAFloatException();
        }
        return negative ? magnitude.negate() : magnitude;
    }

    /**
     * Reads a number as the nearest {@code double}: what a command layer passes to
     * {@link io.agni.api.AgniStore#incrementByFloat(byte[], double)} as the increment. {@code inf} and
     * {@code infinity} (any case, optionally signed) read as an infinity, which the store then refuses with
     * {@link io.agni.api.FloatOverflowException}, as Redis replies to {@code INCRBYFLOAT k inf}. A finite number
     * beyond the range of a {@code double} also reads as an infinity, and one too small reads as zero.
     *
     * @param buffer the buffer holding the text.
     * @param offset where the text starts.
     * @param length the text's length in bytes.
     * @return the nearest {@code double}, possibly infinite, never NaN.
     * @throws NotAFloatException        if the text is not a number by the grammar above, or is {@code nan}.
     * @throws IndexOutOfBoundsException if the range is outside the buffer.
     */
    public static double parseDouble(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length > 0 && length <= MAX_LENGTH)
        {
            buffer.boundsCheck(offset, length);
            final byte first = buffer.getByte(offset);
            final int start = first == '-' || first == '+' ? offset + 1 : offset;
            final int end = offset + length;
            if (equalsIgnoreCase(buffer, start, end, "inf") || equalsIgnoreCase(buffer, start, end, "infinity"))
            {
                return first == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
        }
        return parse(buffer, offset, length).doubleValue();
    }

    private static BigDecimal parseDecimal(final DirectBuffer buffer, final int start, final int end)
    {
        final StringBuilder digits = new StringBuilder(end - start);
        int i = start;
        while (i < end && isDigit(buffer.getByte(i)))
        {
            digits.append((char)buffer.getByte(i++));
        }
        int fractionDigits = 0;
        if (i < end && buffer.getByte(i) == '.')
        {
            i++;
            while (i < end && isDigit(buffer.getByte(i)))
            {
                digits.append((char)buffer.getByte(i++));
                fractionDigits++;
            }
        }
        if (digits.length() == 0)
        {
            throw new NotAFloatException();
        }
        final long exponent = i < end && (buffer.getByte(i) | 0x20) == 'e' ? parseExponent(buffer, i + 1, end) : 0;
        if (i < end && (buffer.getByte(i) | 0x20) != 'e')
        {
            throw new NotAFloatException();
        }
        final BigInteger unscaled = new BigInteger(digits.toString());
        if (unscaled.signum() == 0)
        {
            return BigDecimal.ZERO;
        }
        final long scale = fractionDigits - exponent;
        final long adjusted = significantDigits(digits) - 1 - scale;
        if (adjusted > MAX_DECIMAL_EXPONENT || adjusted < MIN_DECIMAL_EXPONENT - 1)
        {
            throw new NotAFloatException();
        }
        return new BigDecimal(unscaled, (int)scale);
    }

    private static BigDecimal parseHex(final DirectBuffer buffer, final int start, final int end)
    {
        final StringBuilder digits = new StringBuilder(end - start);
        int i = start;
        while (i < end && Character.digit(buffer.getByte(i), 16) >= 0)
        {
            digits.append((char)buffer.getByte(i++));
        }
        int fractionDigits = 0;
        if (i < end && buffer.getByte(i) == '.')
        {
            i++;
            while (i < end && Character.digit(buffer.getByte(i), 16) >= 0)
            {
                digits.append((char)buffer.getByte(i++));
                fractionDigits++;
            }
        }
        if (digits.length() == 0)
        {
            throw new NotAFloatException();
        }
        final long exponent = i < end && (buffer.getByte(i) | 0x20) == 'p' ? parseExponent(buffer, i + 1, end) : 0;
        if (i < end && (buffer.getByte(i) | 0x20) != 'p')
        {
            throw new NotAFloatException();
        }
        final BigInteger mantissa = new BigInteger(digits.toString(), 16);
        if (mantissa.signum() == 0)
        {
            return BigDecimal.ZERO;
        }
        final long binaryExponent = exponent - 4L * fractionDigits;
        final long bits = mantissa.bitLength() + binaryExponent;
        if (bits > MAX_BINARY_EXPONENT || bits < MIN_BINARY_EXPONENT)
        {
            throw new NotAFloatException();
        }
        if (binaryExponent >= 0)
        {
            return new BigDecimal(mantissa.shiftLeft((int)binaryExponent));
        }
        final int fractionBits = (int)-binaryExponent;
        return new BigDecimal(mantissa.multiply(BigInteger.valueOf(5).pow(fractionBits)), fractionBits);
    }

    private static long parseExponent(final DirectBuffer buffer, final int start, final int end)
    {
        int i = start;
        final boolean negative = i < end && buffer.getByte(i) == '-';
        if (i < end && (buffer.getByte(i) == '-' || buffer.getByte(i) == '+'))
        {
            i++;
        }
        if (i == end)
        {
            throw new NotAFloatException();
        }
        long exponent = 0;
        for (; i < end; i++)
        {
            final byte b = buffer.getByte(i);
            if (!isDigit(b))
            {
                throw new NotAFloatException();
            }
            exponent = Math.min(EXPONENT_SATURATION, exponent * 10 + (b - '0'));
        }
        return negative ? -exponent : exponent;
    }

    private static int significantDigits(final CharSequence digits)
    {
        int leadingZeros = 0;
        while (digits.charAt(leadingZeros) == '0')
        {
            leadingZeros++;
        }
        return digits.length() - leadingZeros;
    }

    private static boolean isDigit(final byte b)
    {
        return b >= '0' && b <= '9';
    }

    private static boolean equalsIgnoreCase(
        final DirectBuffer buffer, final int start, final int end, final String word)
    {
        if (end - start != word.length())
        {
            return false;
        }
        for (int i = 0; i < word.length(); i++)
        {
            if ((buffer.getByte(start + i) | 0x20) != word.charAt(i))
            {
                return false;
            }
        }
        return true;
    }
}
