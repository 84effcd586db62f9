package io.agni.store.shard;

import io.agni.api.FloatOverflowException;
import io.agni.api.internal.Decimal;
import org.agrona.DirectBuffer;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * The arithmetic of {@code incrementByFloat}: the stored number read exactly ({@link Decimal#parse}), the delta as
 * the shortest decimal that reads back as the same {@code double}, the sum exact and then rounded to
 * {@link #SIGNIFICANT_DIGITS} significant digits, half to even, and written plain: no exponent, no trailing zeros
 * in the fraction, no trailing {@code .}. Off the hot path, so it allocates.
 */
public final class DecimalFloat
{
    /**
     * The significant digits a result keeps: enough to tell any two {@code double}s apart, few enough that
     * {@code 0.1 + 0.2} is {@code 0.3}.
     */
    public static final int SIGNIFICANT_DIGITS = 17;

    private static final MathContext PRECISION = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN);
    private static final BigDecimal LARGEST = new BigDecimal(Double.MAX_VALUE);

    private DecimalFloat()
    {
    }

    /**
     * Adds a delta to a stored number, or to zero for an absent key.
     *
     * @param value  the stored value, or {@code null} for an absent key.
     * @param offset where it starts.
     * @param length its length.
     * @param delta  the amount to add.
     * @return the new value's text, ASCII.
     * @throws io.agni.api.NotAFloatException if the stored value is not a number.
     * @throws FloatOverflowException         if the delta is not finite or the sum exceeds {@link Double#MAX_VALUE}.
     */
    public static byte[] add(final DirectBuffer value, final int offset, final int length, final double delta)
    {
        final BigDecimal current = value == null ? BigDecimal.ZERO : Decimal.parse(value, offset, length);
        if (!Double.isFinite(delta))
        {
            throw new FloatOverflowException();
        }
        final BigDecimal sum = current.add(BigDecimal.valueOf(delta)).round(PRECISION);
        if (sum.abs().compareTo(LARGEST) > 0)
        {
            throw new FloatOverflowException();
        }
        return format(sum);
    }

    /**
     * The plain text of a number: {@code 5200}, {@code 10.6}, {@code -0.001}, {@code 0}.
     *
     * @param number the number.
     * @return its ASCII text.
     */
    public static byte[] format(final BigDecimal number)
    {
        final String text = number.signum() == 0 ? "0" : number.stripTrailingZeros().toPlainString();
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
