package io.agni.testsupport;

import io.agni.api.NotAFloatException;
import io.agni.api.internal.Decimal;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link Decimal}: the numbers Redis's {@code strtold} reads, read exactly, and as the increment a command layer
 * passes on.
 */
class DecimalTest
{
    @ParameterizedTest(name = "\"{0}\" = {1}")
    @CsvSource({
        "0, 0",
        "-0, 0",
        "10.50, 10.50",
        "5.0e3, 5000",
        "+7, 7",
        ".5, 0.5",
        "1., 1",
        "1E-3, 0.001",
        "1e+3, 1000",
        "0x10, 16",
        "0X1.8P1, 3",
        "0x.8, 0.5",
        "-0x1p-2, -0.25",
        "0e99999999999, 0",
        "12345678901234567890.123456789, 12345678901234567890.123456789",
        "1e4932, 1e4932",
        "1e-4950, 1e-4950"
    })
    void parseReadsTheExactValue(final String text, final String expected)
    {
        assertEquals(0, new BigDecimal(expected).compareTo(Decimal.parse(buffer(text), 2, text.length())), text);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {
        "", " 1", "1 ", "1e", "1e+", ".", "-", "e1", "nan", "inf", "-Infinity", "1.2.3", "0x", "0xp1", "0x1p",
        "1e4933", "2e4932", "1e-4952", "0x1p16385", "0x1p-16446", "1f", "1d", "1_0", "١"
    })
    void parseRefusesWhatIsNotAFiniteNumber(final String text)
    {
        final NotAFloatException ex = assertThrows(NotAFloatException.class,
            () -> Decimal.parse(buffer(text), 2, text.getBytes(StandardCharsets.UTF_8).length));
        assertEquals("value is not a valid float", ex.getMessage());
    }

    @Test
    void parseRefusesTextLongerThanTheLimit()
    {
        final String longest = "1." + "0".repeat(Decimal.MAX_LENGTH - 2);

        assertEquals(0, BigDecimal.ONE.compareTo(Decimal.parse(buffer(longest), 2, longest.length())));
        assertThrows(NotAFloatException.class, () -> Decimal.parse(buffer(longest + "0"), 2, longest.length() + 1));
    }

    @Test
    void parseReadsOnlyTheGivenRange()
    {
        final UnsafeBuffer buffer = buffer("12345");

        assertEquals(0, new BigDecimal("234").compareTo(Decimal.parse(buffer, 3, 3)));
    }

    @ParameterizedTest(name = "\"{0}\" = {1}")
    @CsvSource({
        "0.1, 0.1",
        "-2.5e3, -2500",
        "inf, Infinity",
        "+INF, Infinity",
        "-infinity, -Infinity",
        "1e400, Infinity",
        "-1e400, -Infinity",
        "1e-400, 0",
        "0x1p-1, 0.5"
    })
    void parseDoubleReadsTheNearestDoubleAndInfinities(final String text, final double expected)
    {
        assertEquals(expected, Decimal.parseDouble(buffer(text), 2, text.length()));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"nan", "-NaN", "", "infinit", "inf ", "1x"})
    void parseDoubleRefusesNanAndGarbage(final String text)
    {
        assertThrows(NotAFloatException.class, () -> Decimal.parseDouble(buffer(text), 2, text.length()));
    }

    private static UnsafeBuffer buffer(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        final byte[] array = new byte[bytes.length + 4];
        array[0] = '9';
        array[1] = '9';
        array[array.length - 2] = '9';
        array[array.length - 1] = '9';
        System.arraycopy(bytes, 0, array, 2, bytes.length);
        return new UnsafeBuffer(array);
    }
}
