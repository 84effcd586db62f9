package io.agni.protocol.command;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static io.agni.protocol.command.StringCommandsTest.NOT_AN_INTEGER;
import static io.agni.protocol.command.StringCommandsTest.bulk;
import static io.agni.protocol.command.StringCommandsTest.bytes;
import static io.agni.protocol.command.StringCommandsTest.integer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * STRLEN, GETRANGE, SETRANGE and INCRBYFLOAT: the commands built on the store's length, range and float
 * primitives, against Redis 7's replies (cases from {@code tests/unit/type/string.tcl} and {@code incr.tcl}).
 */
class StringRangeCommandsTest
{
    private static final String EMPTY = "$0\r\n\r\n";
    private static final String TOO_LONG = "-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n";
    private static final String NOT_A_FLOAT = "-ERR value is not a valid float\r\n";
    private static final String NAN_OR_INFINITY = "-ERR increment would produce NaN or Infinity\r\n";

    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    private String reply(final String... args)
    {
        return harness.reply(args);
    }

    // ----------------------------------------------------------------------------------------------------------------
    // STRLEN
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void strlenOfAMissingKeyIsZero()
    {
        assertEquals(integer(0), reply("STRLEN", "notakey"));
    }

    @Test
    void strlenCountsBytes()
    {
        reply("SET", "myinteger", "-555");
        assertEquals(integer(4), reply("STRLEN", "myinteger"));
        reply("SET", "mystring", "foozzz0123456789 baz");
        assertEquals(integer(20), reply("STRLEN", "mystring"));
        reply("SET", "empty", "");
        assertEquals(integer(0), reply("STRLEN", "empty"));
        harness.reply(bytes("SET"), bytes("bin"), new byte[]{0, '\r', '\n', (byte)0xFF});
        assertEquals(integer(4), reply("STRLEN", "bin"));
    }

    @Test
    void strlenOfAnExpiredKeyIsZero()
    {
        reply("SET", "k", "value", "PX", "10");
        harness.advanceMillis(10);
        assertEquals(integer(0), reply("STRLEN", "k"));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // GETRANGE
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void getrangeOfAMissingKeyIsAnEmptyString()
    {
        assertEquals(EMPTY, reply("GETRANGE", "mykey", "0", "-1"));
    }

    @Test
    void getrangeAgainstAStringValue()
    {
        reply("SET", "mykey", "Hello World");
        assertEquals(bulk("Hell"), reply("GETRANGE", "mykey", "0", "3"));
        assertEquals(bulk("Hello World"), reply("GETRANGE", "mykey", "0", "-1"));
        assertEquals(bulk("orld"), reply("GETRANGE", "mykey", "-4", "-1"));
        assertEquals(EMPTY, reply("GETRANGE", "mykey", "5", "3"));
        assertEquals(bulk(" World"), reply("GETRANGE", "mykey", "5", "5000"));
        assertEquals(bulk("Hello World"), reply("GETRANGE", "mykey", "-5000", "10000"));
    }

    @Test
    void getrangeAgainstAnIntegerValue()
    {
        reply("SET", "mykey", "1234");
        assertEquals(bulk("123"), reply("GETRANGE", "mykey", "0", "2"));
        assertEquals(bulk("1234"), reply("GETRANGE", "mykey", "0", "-1"));
        assertEquals(bulk("234"), reply("GETRANGE", "mykey", "-3", "-1"));
        assertEquals(EMPTY, reply("GETRANGE", "mykey", "5", "3"));
        assertEquals(bulk("4"), reply("GETRANGE", "mykey", "3", "5000"));
        assertEquals(bulk("1234"), reply("GETRANGE", "mykey", "-5000", "10000"));
    }

    @Test
    void getrangeWithHugeRanges()
    {
        reply("SET", "foo", "bar");
        assertEquals(bulk("bar"), reply("GETRANGE", "foo", "0", "4294967297"));
        assertEquals(
            bulk("bar"), reply("GETRANGE", "foo", Long.toString(Long.MIN_VALUE), Long.toString(Long.MAX_VALUE)));
        assertEquals(EMPTY, reply("GETRANGE", "foo", Long.toString(Long.MAX_VALUE), Long.toString(Long.MAX_VALUE)));
    }

    @Test
    void getrangeClampsANegativeEndBeyondTheStartToTheFirstByte()
    {
        reply("SET", "foo", "hello");
        assertEquals(bulk("h"), reply("GETRANGE", "foo", "0", "-100"));
        assertEquals(bulk("h"), reply("GETRANGE", "foo", "-100", "-99"));
    }

    @Test
    void getrangeWithBothEndsNegativeAndStartAfterEndIsEmpty()
    {
        reply("SET", "foo", "hello");
        assertEquals(EMPTY, reply("GETRANGE", "foo", "-1", "-5"));
        assertEquals(EMPTY, reply("GETRANGE", "foo", "-10", "-20"));
    }

    @Test
    void getrangeOfAnEmptyValueIsEmpty()
    {
        reply("SET", "foo", "");
        assertEquals(EMPTY, reply("GETRANGE", "foo", "0", "-1"));
        assertEquals(EMPTY, reply("GETRANGE", "foo", "0", "0"));
    }

    @Test
    void getrangeWithANonIntegerIndexIsNotAnInteger()
    {
        reply("SET", "foo", "hello");
        assertEquals(NOT_AN_INTEGER, reply("GETRANGE", "foo", "a", "1"));
        assertEquals(NOT_AN_INTEGER, reply("GETRANGE", "foo", "0", "1.0"));
        assertEquals(NOT_AN_INTEGER, reply("GETRANGE", "missing", "0", "x"));
    }

    @Test
    void getrangeMatchesRedisIndexRulesOnRandomBinaryValues()
    {
        final Random random = new Random(42);
        for (int i = 0; i < 500; i++)
        {
            final byte[] value = new byte[random.nextInt(64)];
            random.nextBytes(value);
            harness.reply(bytes("SET"), bytes("bin"), value);
            final long start = random.nextInt(160) - 80;
            final long end = random.nextInt(160) - 80;
            final String expected = redisRange(value, start, end);
            final String actual = reply("GETRANGE", "bin", Long.toString(start), Long.toString(end));
            assertEquals(expected, actual, "start=" + start + ", end=" + end + ", length=" + value.length);
        }
    }

    /**
     * Redis 7's {@code getrangeCommand}, step by step.
     */
    private static String redisRange(final byte[] value, final long start, final long end)
    {
        final long length = value.length;
        if (start < 0 && end < 0 && start > end)
        {
            return EMPTY;
        }
        long from = start < 0 ? length + start : start;
        long to = end < 0 ? length + end : end;
        from = Math.max(0, from);
        to = Math.max(0, to);
        to = Math.min(to, length - 1);
        if (from > to || length == 0)
        {
            return EMPTY;
        }
        return bulk(new String(value, (int)from, (int)(to - from + 1), StandardCharsets.ISO_8859_1));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // SETRANGE
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void setrangeAgainstAMissingKey()
    {
        assertEquals(integer(3), reply("SETRANGE", "mykey", "0", "foo"));
        assertEquals(bulk("foo"), reply("GET", "mykey"));
        harness.store.delete(bytes("mykey"));
        assertEquals(integer(4), reply("SETRANGE", "mykey", "1", "foo"));
        assertEquals(bulk("\0foo"), reply("GET", "mykey"));
    }

    @Test
    void setrangeWithAnEmptyValueOnAMissingKeyCreatesNothing()
    {
        assertEquals(integer(0), reply("SETRANGE", "mykey", "0", ""));
        assertFalse(harness.store.exists(bytes("mykey")));
        assertEquals(integer(0), reply("SETRANGE", "mykey", "9223372036854775807", ""));
        assertFalse(harness.store.exists(bytes("mykey")));
    }

    @Test
    void setrangeAgainstAnExistingValue()
    {
        reply("SET", "mykey", "foo");
        assertEquals(integer(3), reply("SETRANGE", "mykey", "0", "b"));
        assertEquals(bulk("boo"), reply("GET", "mykey"));
        reply("SET", "mykey", "foo");
        assertEquals(integer(3), reply("SETRANGE", "mykey", "1", "b"));
        assertEquals(bulk("fbo"), reply("GET", "mykey"));
        reply("SET", "mykey", "foo");
        assertEquals(integer(7), reply("SETRANGE", "mykey", "4", "bar"));
        assertEquals(bulk("foo\0bar"), reply("GET", "mykey"));
        reply("SET", "mykey", "1234");
        assertEquals(integer(6), reply("SETRANGE", "mykey", "5", "2"));
        assertEquals(bulk("1234\0002"), reply("GET", "mykey"));
    }

    @Test
    void setrangeWithAnEmptyValueAnswersTheLengthAndChangesNothing()
    {
        reply("SET", "mykey", "foo");
        assertEquals(integer(3), reply("SETRANGE", "mykey", "0", ""));
        assertEquals(integer(3), reply("SETRANGE", "mykey", "9223372036854775807", ""));
        assertEquals(bulk("foo"), reply("GET", "mykey"));
    }

    @Test
    void setrangeKeepsTheTtl()
    {
        reply("SET", "mykey", "foo", "EX", "100");
        assertEquals(integer(3), reply("SETRANGE", "mykey", "0", "b"));
        assertEquals(100_000, harness.store.ttlMillis(bytes("mykey")));
    }

    @Test
    void setrangeWithANegativeOffsetIsOutOfRange()
    {
        reply("SET", "mykey", "hello");
        assertEquals("-ERR offset is out of range\r\n", reply("SETRANGE", "mykey", "-1", "world"));
        assertEquals(NOT_AN_INTEGER, reply("SETRANGE", "mykey", "one", "world"));
        assertEquals(bulk("hello"), reply("GET", "mykey"));
    }

    @ParameterizedTest
    @CsvSource({"536870908", "2147483647", "9223372036854775807"})
    void setrangeBeyondTheMaximumSizeIsStringExceedsMaximumAllowedSize(final String offset)
    {
        assertEquals(TOO_LONG, reply("SETRANGE", "mykey", offset, "world"));
        assertFalse(harness.store.exists(bytes("mykey")));
        reply("SET", "mykey", "hello");
        assertEquals(TOO_LONG, reply("SETRANGE", "mykey", offset, "world"));
        assertEquals(bulk("hello"), reply("GET", "mykey"));
    }

    @Test
    void setrangeBeyondAConfiguredValueLimitIsStringExceedsMaximumAllowedSize()
    {
        try (StringCommandsTest.SmallValueStore small = new StringCommandsTest.SmallValueStore(16))
        {
            assertEquals(integer(16), small.reply("SETRANGE", "k", "15", "x"));
            assertEquals(TOO_LONG, small.reply("SETRANGE", "k", "16", "x"));
            assertEquals(TOO_LONG, small.reply("SETRANGE", "new", "14", "xyz"));
        }
    }

    // ----------------------------------------------------------------------------------------------------------------
    // INCRBYFLOAT
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void incrbyfloatAgainstAMissingKey()
    {
        assertEquals(bulk("1"), reply("INCRBYFLOAT", "novar", "1"));
        assertEquals(bulk("1"), reply("GET", "novar"));
        assertEquals(bulk("1.25"), reply("INCRBYFLOAT", "novar", "0.25"));
        assertEquals(bulk("1.25"), reply("GET", "novar"));
    }

    @Test
    void incrbyfloatAgainstValuesSetWithSet()
    {
        reply("SET", "novar", "1.5");
        assertEquals(bulk("3"), reply("INCRBYFLOAT", "novar", "1.5"));
        reply("SET", "novar", "17179869184");
        assertEquals(bulk("17179869185.5"), reply("INCRBYFLOAT", "novar", "1.5"));
        reply("SET", "novar", "17179869184");
        assertEquals(bulk("34359738368"), reply("INCRBYFLOAT", "novar", "17179869184"));
        reply("SET", "mykey", "10.50");
        assertEquals(bulk("10.6"), reply("INCRBYFLOAT", "mykey", "0.1"));
        reply("SET", "mykey", "5.0e3");
        assertEquals(bulk("5200"), reply("INCRBYFLOAT", "mykey", "2.0e2"));
    }

    @Test
    void incrbyfloatDecrementAndNoNegativeZero()
    {
        reply("SET", "foo", "1");
        assertEquals(bulk("-0.1"), reply("INCRBYFLOAT", "foo", "-1.1"));
        reply("SET", "z", "0.5");
        assertEquals(bulk("0"), reply("INCRBYFLOAT", "z", "-0.5"));
    }

    @ParameterizedTest
    @CsvSource(value = {"'    11'", "'11    '", "' 11 '", "abc", "''", "1e", "nan", "'1\u00002'"})
    void incrbyfloatOnAValueThatIsNotANumberIsNotAValidFloat(final String value)
    {
        reply("SET", "novar", value);
        assertEquals(NOT_A_FLOAT, reply("INCRBYFLOAT", "novar", "1.0"));
        assertArrayEquals(bytes(value), harness.store.get(bytes("novar")));
    }

    @ParameterizedTest
    @CsvSource(value = {"abc", "''", "' 1'", "nan", "1.0.0", "0x"})
    void incrbyfloatWithAnIncrementThatIsNotANumberIsNotAValidFloat(final String increment)
    {
        reply("SET", "foo", "1");
        assertEquals(NOT_A_FLOAT, reply("INCRBYFLOAT", "foo", increment));
        assertEquals(bulk("1"), reply("GET", "foo"));
    }

    @Test
    void incrbyfloatDoesNotAllowNanOrInfinity()
    {
        reply("SET", "foo", "0");
        assertEquals(NAN_OR_INFINITY, reply("INCRBYFLOAT", "foo", "+inf"));
        assertEquals(NAN_OR_INFINITY, reply("INCRBYFLOAT", "foo", "-Infinity"));
        reply("SET", "big", "1.7e308");
        assertEquals(NAN_OR_INFINITY, reply("INCRBYFLOAT", "big", "1.7e308"));
        assertEquals(bulk("0"), reply("GET", "foo"));
    }

    @Test
    void incrbyfloatChecksTheValueBeforeTheIncrementAsRedisDoes()
    {
        reply("SET", "bad", "abc");
        assertEquals(NOT_A_FLOAT, reply("INCRBYFLOAT", "bad", "inf"));
    }

    @Test
    void incrbyfloatKeepsTheTtl()
    {
        reply("SET", "foo", "1", "EX", "100");
        assertEquals(bulk("1.5"), reply("INCRBYFLOAT", "foo", "0.5"));
        assertEquals(100_000, harness.store.ttlMillis(bytes("foo")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, harness.store.ttlMillis(bytes("missing")));
    }
}
