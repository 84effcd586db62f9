package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.IntegerOverflowException;
import io.agni.api.NotAnIntegerException;
import io.agni.api.SetCondition;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The contract of the in-place updates: incrementBy on decimal integers (Redis's {@code INCRBY} rules: canonical
 * decimal, 64-bit, overflow refused) and append. Part of {@link AgniStoreContract}.
 */
public abstract class CounterAndAppendContract extends RelativeExpiryContract
{
    // ------------------------------------------------------------------------------------------------------------
    // incrementBy
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void incrementByOfAbsentKeyStartsFromZero()
    {
        assertEquals(5, store.incrementBy(bytes("n"), 5));

        assertValue("5", "n");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("n")));
    }

    @Test
    public void incrementByOfAbsentKeyWithNegativeDeltaStoresANegativeNumber()
    {
        assertEquals(-3, store.incrementBy(bytes("n"), -3));

        assertValue("-3", "n");
    }

    @Test
    public void incrementByAddsToTheStoredIntegerAndStoresDecimalText()
    {
        store.set(bytes("n"), bytes("10"));

        assertEquals(15, store.incrementBy(bytes("n"), 5));
        assertEquals(5, store.incrementBy(bytes("n"), -10));
        assertEquals(-95, store.incrementBy(bytes("n"), -100));
        assertEquals(0, store.incrementBy(bytes("n"), 95));
        assertValue("0", "n");
        assertEquals(1000000, store.incrementBy(bytes("n"), 1000000));
        assertValue("1000000", "n");
    }

    @Test
    public void incrementByZeroLeavesTheValue()
    {
        store.set(bytes("n"), bytes("-42"));

        assertEquals(-42, store.incrementBy(bytes("n"), 0));
        assertValue("-42", "n");
    }

    @Test
    public void incrementByOfAbsentKeyWithZeroDeltaCreatesZero()
    {
        assertEquals(0, store.incrementBy(bytes("n"), 0));

        assertValue("0", "n");
    }

    @ParameterizedTest(name = "\"{0}\" + {1} = {2}")
    @CsvSource({
        "9223372036854775806, 1, 9223372036854775807",
        "-9223372036854775807, -1, -9223372036854775808",
        "-9223372036854775808, 9223372036854775807, -1",
        "9223372036854775807, -9223372036854775808, -1",
        "9223372036854775807, 0, 9223372036854775807",
        "-9223372036854775808, 0, -9223372036854775808",
        "0, -9223372036854775808, -9223372036854775808",
        "-1, 1, 0",
        "7, -7, 0"
    })
    public void incrementByReachesTheEndsOfTheRange(final String initial, final long delta, final long expected)
    {
        store.set(bytes("n"), bytes(initial));

        assertEquals(expected, store.incrementBy(bytes("n"), delta));
        assertValue(Long.toString(expected), "n");
    }

    @ParameterizedTest(name = "\"{0}\" + {1}")
    @CsvSource({
        "9223372036854775807, 1",
        "9223372036854775807, 9223372036854775807",
        "1, 9223372036854775807",
        "-9223372036854775808, -1",
        "-2, -9223372036854775807",
        "-9223372036854775808, -9223372036854775808"
    })
    public void incrementByPastTheRangeThrowsOverflowAndLeavesTheValue(final String initial, final long delta)
    {
        final long at = hoursAhead(1);
        store.set(bytes("n"), bytes(initial), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertThrows(IntegerOverflowException.class, () -> store.incrementBy(bytes("n"), delta));

        assertValue(initial, "n");
        assertEquals(at, store.expireTimeMillis(bytes("n")));
    }

    @Test
    public void incrementByOfAbsentKeyNeverOverflows()
    {
        assertEquals(Long.MIN_VALUE, store.incrementBy(bytes("min"), Long.MIN_VALUE));
        assertEquals(Long.MAX_VALUE, store.incrementBy(bytes("max"), Long.MAX_VALUE));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {
        "abc", " 1", "1 ", "01", "00", "+1", "-0", "", "-", "1.0", "1e3", "0x10", "--1", "1-", "\u00b9",
        "99999999999999999999", "12345678901234567890123", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "1\u0000", "\u00001", "1\r\n"
    })
    public void incrementByOfNonIntegerThrowsAndLeavesTheValue(final String value)
    {
        final long at = hoursAhead(1);
        store.set(bytes("n"), bytes(value), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertThrows(NotAnIntegerException.class, () -> store.incrementBy(bytes("n"), 1));
        assertThrows(NotAnIntegerException.class, () -> store.incrementBy(bytes("n"), 0));

        assertValue(value, "n");
        assertEquals(at, store.expireTimeMillis(bytes("n")));
    }

    @Test
    public void incrementByOfBinaryValueThrowsNotAnInteger()
    {
        store.set(bytes("n"), allByteValues());

        assertThrows(NotAnIntegerException.class, () -> store.incrementBy(bytes("n"), 1));
        assertValue(allByteValues(), bytes("n"));
    }

    @Test
    public void incrementByKeepsTheExpiryTime()
    {
        final long at = hoursAhead(1);
        store.set(bytes("n"), bytes("1"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertEquals(2, store.incrementBy(bytes("n"), 1));

        assertEquals(at, store.expireTimeMillis(bytes("n")));
    }

    @Test
    public void incrementByGrowsAndShrinksTheDecimalText()
    {
        store.set(bytes("n"), bytes("9"));

        assertEquals(10, store.incrementBy(bytes("n"), 1));
        assertValue("10", "n");
        assertEquals(Long.MAX_VALUE, store.incrementBy(bytes("n"), Long.MAX_VALUE - 10));
        assertValue(Long.toString(Long.MAX_VALUE), "n");
        assertEquals(1, store.incrementBy(bytes("n"), 1 - Long.MAX_VALUE));
        assertValue("1", "n");
    }

    @Test
    public void directIncrementByUsesOnlyTheGivenKeyRange()
    {
        final UnsafeBuffer key = bufferWith(bytes("counter"), 5);

        assertEquals(3, store.incrementBy(key, 5, 7, 3));
        assertEquals(1, store.incrementBy(key, 5, 4, 1), "\"coun\" is another key");

        assertValue("3", "counter");
        assertValue("1", "coun");
    }

    @Test
    public void directIncrementByOfNonIntegerThrows()
    {
        store.set(bytes("n"), bytes("x"));

        assertThrows(NotAnIntegerException.class, () -> store.incrementBy(bufferWith(bytes("n"), 0), 0, 1, 1));
        assertValue("x", "n");
    }

    // ------------------------------------------------------------------------------------------------------------
    // append
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void appendToAbsentKeyCreatesItAndReturnsTheLength()
    {
        assertEquals(5, store.append(bytes("k"), bytes("hello")));

        assertValue("hello", "k");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    @Test
    public void appendAddsToTheEndAndReturnsTheNewLength()
    {
        store.set(bytes("k"), bytes("hello"));

        assertEquals(11, store.append(bytes("k"), bytes(" world")));
        assertEquals(11, store.append(bytes("k"), new byte[0]));

        assertValue("hello world", "k");
    }

    @Test
    public void appendOfNothingToAbsentKeyCreatesAnEmptyValue()
    {
        assertEquals(0, store.append(bytes("k"), new byte[0]));

        assertValue("", "k");
    }

    @Test
    public void appendKeepsTheExpiryTime()
    {
        final long at = hoursAhead(1);
        store.set(bytes("k"), bytes("a"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        store.append(bytes("k"), bytes("b"));

        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertValue("ab", "k");
    }

    @Test
    public void appendGrowsAValueStepByStep()
    {
        final StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 300; i++)
        {
            final String piece = Integer.toString(i, 36) + ",";
            expected.append(piece);
            assertEquals(expected.length(), store.append(bytes("k"), bytes(piece)));
        }

        assertValue(expected.toString(), "k");
    }

    @Test
    public void appendOfBinaryBytesRoundTrips()
    {
        store.append(bytes("k"), allByteValues());
        store.append(bytes("k"), bytes("\r\n\0"));

        final byte[] expected = new byte[259];
        System.arraycopy(allByteValues(), 0, expected, 0, 256);
        System.arraycopy(bytes("\r\n\0"), 0, expected, 256, 3);
        assertValue(expected, bytes("k"));
    }

    @Test
    public void appendThenIncrementTreatsTheResultAsANumber()
    {
        store.set(bytes("n"), bytes("1"));
        store.append(bytes("n"), bytes("0"));

        assertEquals(11, store.incrementBy(bytes("n"), 1));
    }

    @Test
    public void directAppendUsesOnlyTheGivenRanges()
    {
        store.set(bytes("k"), bytes("ab"));

        assertEquals(4, store.append(bufferWith(bytes("k"), 3), 3, 1, bufferWith(bytes("cd"), 8), 8, 2));

        assertValue("abcd", "k");
    }
}
