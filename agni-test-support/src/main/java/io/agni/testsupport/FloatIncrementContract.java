package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.FloatOverflowException;
import io.agni.api.NotAFloatException;
import io.agni.api.NotAnIntegerException;
import io.agni.api.SetCondition;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The contract of incrementByFloat ({@code INCRBYFLOAT}): exact decimal sums rounded to 17 significant digits and
 * written plain, the numbers Redis's {@code strtold} reads, and the two refusals ({@code value is not a valid float},
 * {@code increment would produce NaN or Infinity}). Part of {@link AgniStoreContract}.
 */
public abstract class FloatIncrementContract extends StringRangeContract
{
    private static final String NOT_A_FLOAT = "value is not a valid float";
    private static final String OVERFLOW = "increment would produce NaN or Infinity";

    @Test
    public void incrementByFloatOfAbsentKeyStartsFromZero()
    {
        assertEquals("10.5", text(store.incrementByFloat(bytes("n"), 10.5)));

        assertValue("10.5", "n");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("n")));
    }

    @Test
    public void incrementByFloatAddsDecimalsWithoutBinaryNoise()
    {
        assertEquals("0.1", text(store.incrementByFloat(bytes("n"), 0.1)));
        assertEquals("0.3", text(store.incrementByFloat(bytes("n"), 0.2)));
        assertEquals("0", text(store.incrementByFloat(bytes("n"), -0.3)));

        assertValue("0", "n");
    }

    @ParameterizedTest(name = "\"{0}\" + {1} = \"{2}\"")
    @CsvSource({
        "10.50, 0.1, 10.6",
        "5.0e3, 2.0e2, 5200",
        "3, 1.5, 4.5",
        "-1, 1, 0",
        "1.5, -1.5, 0",
        "-2.5, -2.5, -5",
        "0, 1e-20, 0.00000000000000000001",
        "1e20, 1, 100000000000000000000",
        "12345678901234567890, 0, 12345678901234568000",
        "3.0000000000000000001, 0, 3",
        "0.30000000000000004, 0, 0.30000000000000004",
        "+7, 0, 7",
        ".5, 0, 0.5",
        "1., 1, 2",
        "1E2, 0.5, 100.5",
        "1e-5, 0, 0.00001",
        "-0, 0, 0",
        "-0.0, -0.0, 0",
        "00012, 0, 12",
        "0x10, 1, 17",
        "0X1.8p1, 0, 3",
        "0x.8, 0, 0.5"
    })
    public void incrementByFloatStoresTheRoundedSumAsPlainText(final String initial, final double delta, final String expected)
    {
        store.set(bytes("n"), bytes(initial));

        assertEquals(expected, text(store.incrementByFloat(bytes("n"), delta)));
        assertValue(expected, "n");
    }

    @Test
    public void incrementByFloatWritesTheLargestFiniteResultInFull()
    {
        final String largest = "1.7976931348623157e308";
        store.set(bytes("n"), bytes(largest));

        final String expected = new BigDecimal(largest).toPlainString();
        assertEquals(309, expected.length());
        assertEquals(expected, text(store.incrementByFloat(bytes("n"), 0)));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {
        "abc", "", " 1", "1 ", "1e", "1e+", ".", "-", "+", "e5", "nan", "NaN", "-nan", "inf", "-inf", "Infinity",
        "1.2.3", "--1", "+-1", "0x", "0xg", "0x1p", "1e5000", "-1e5000", "1e-5000", "0x1p20000", "1\u0000",
        "\u00001", "1,5", "1_000", "1f", "1d", "1\r\n", "\u00b9", "\t1"
    })
    public void incrementByFloatOfNonNumberThrowsAndLeavesTheValue(final String value)
    {
        final long at = hoursAhead(1);
        store.set(bytes("n"), bytes(value), SetCondition.ALWAYS, ExpiryMode.AT, at);

        final NotAFloatException ex =
            assertThrows(NotAFloatException.class, () -> store.incrementByFloat(bytes("n"), 1));
        assertEquals(NOT_A_FLOAT, ex.getMessage());
        assertThrows(NotAFloatException.class,
            () -> store.incrementByFloat(bufferWith(bytes("n"), 0), 0, 1, 0, new ExpandableArrayBuffer(), 0));

        assertValue(value, "n");
        assertEquals(at, store.expireTimeMillis(bytes("n")));
    }

    @Test
    public void incrementByFloatReadsNumbersUpToFiveKibibytesLong()
    {
        final String longest = "1." + "0".repeat(5118);
        store.set(bytes("n"), bytes(longest));
        store.set(bytes("m"), bytes(longest + "0"));

        assertEquals("2", text(store.incrementByFloat(bytes("n"), 1)));
        assertThrows(NotAFloatException.class, () -> store.incrementByFloat(bytes("m"), 1));
    }

    @Test
    public void incrementByFloatOfBinaryValueThrowsNotAFloat()
    {
        store.set(bytes("n"), allByteValues());

        assertThrows(NotAFloatException.class, () -> store.incrementByFloat(bytes("n"), 1));
        assertValue(allByteValues(), bytes("n"));
    }

    @ParameterizedTest(name = "delta {0}")
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    public void incrementByFloatWithNonFiniteDeltaThrowsOverflowAndChangesNothing(final double delta)
    {
        store.set(bytes("n"), bytes("1.5"));

        final FloatOverflowException ex =
            assertThrows(FloatOverflowException.class, () -> store.incrementByFloat(bytes("n"), delta));
        assertEquals(OVERFLOW, ex.getMessage());
        assertThrows(FloatOverflowException.class, () -> store.incrementByFloat(bytes("absent"), delta));

        assertValue("1.5", "n");
        assertFalse(store.exists(bytes("absent")));
    }

    @Test
    public void incrementByFloatOfNonNumberWithNonFiniteDeltaReportsTheValueFirst()
    {
        store.set(bytes("n"), bytes("abc"));

        assertThrows(NotAFloatException.class, () -> store.incrementByFloat(bytes("n"), Double.POSITIVE_INFINITY));
    }

    @ParameterizedTest(name = "\"{0}\" + {1}")
    @CsvSource({
        "1.7976931348623157e308, 1e308",
        "-1.7976931348623157e308, -1e308",
        "1e308, 1e308",
        "1e400, 0",
        "-1e400, 1"
    })
    public void incrementByFloatPastTheDoubleRangeThrowsOverflowAndLeavesTheValue(final String initial, final double delta)
    {
        final long at = hoursAhead(1);
        store.set(bytes("n"), bytes(initial), SetCondition.ALWAYS, ExpiryMode.AT, at);

        final FloatOverflowException ex =
            assertThrows(FloatOverflowException.class, () -> store.incrementByFloat(bytes("n"), delta));
        assertEquals(OVERFLOW, ex.getMessage());

        assertValue(initial, "n");
        assertEquals(at, store.expireTimeMillis(bytes("n")));
    }

    @Test
    public void incrementByFloatKeepsTheExpiryTime()
    {
        final long at = hoursAhead(1);
        store.set(bytes("n"), bytes("1"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertEquals("1.25", text(store.incrementByFloat(bytes("n"), 0.25)));

        assertEquals(at, store.expireTimeMillis(bytes("n")));
    }

    @Test
    public void incrementByFloatOfExpiredKeyStartsFromZero()
    {
        requireFakeClock();
        store.set(bytes("n"), bytes("100"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        fixture.advanceTime(10);

        assertEquals("0.5", text(store.incrementByFloat(bytes("n"), 0.5)));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("n")));
    }

    @Test
    public void incrementByFloatAndIncrementByShareIntegerValues()
    {
        store.set(bytes("n"), bytes("5.0e3"));
        store.incrementByFloat(bytes("n"), 200);

        assertEquals(5201, store.incrementBy(bytes("n"), 1));
        assertEquals("5201.5", text(store.incrementByFloat(bytes("n"), 0.5)));
        assertThrows(NotAnIntegerException.class, () -> store.incrementBy(bytes("n"), 1));
    }

    @Test
    public void directIncrementByFloatWritesTheTextAtTheOffset()
    {
        store.set(bytes("n"), bytes("10.50"));
        final UnsafeBuffer dst = guardedBuffer(16);

        assertEquals(4, store.incrementByFloat(bufferWith(bytes("xn"), 2), 3, 1, 0.1, dst, 5));

        assertBufferHolds(bytes("10.6"), dst, 5);
        assertEquals(GUARD, dst.getByte(9));
        assertValue("10.6", "n");
    }

    @Test
    public void directIncrementByFloatIntoTooSmallBufferThrowsAndChangesNothing()
    {
        store.set(bytes("n"), bytes("10.50"));

        assertThrows(IndexOutOfBoundsException.class,
            () -> store.incrementByFloat(bufferWith(bytes("n"), 0), 0, 1, 0.1, new UnsafeBuffer(new byte[6]), 3));
        assertThrows(IndexOutOfBoundsException.class,
            () -> store.incrementByFloat(bufferWith(bytes("m"), 0), 0, 1, 0.25, new UnsafeBuffer(new byte[6]), 3));

        assertValue("10.50", "n");
        assertFalse(store.exists(bytes("m")));
        assertEquals(4, store.incrementByFloat(bufferWith(bytes("n"), 0), 0, 1, 0.1, new UnsafeBuffer(new byte[6]), 2),
            "a text that fits exactly is written");
    }
}
