package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import io.agni.store.OffHeapStore;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.agni.protocol.command.CommandHarness.START_MILLIS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET, SET and its options, SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX, MGET, MSET, MSETNX, APPEND and the INCR
 * family, against Redis 7's replies byte for byte (cases from the command reference and Redis's
 * {@code tests/unit/type/string.tcl} and {@code incr.tcl}).
 */
class StringCommandsTest
{
    static final String OK = "+OK\r\n";
    static final String NIL = "$-1\r\n";
    static final String SYNTAX_ERROR = "-ERR syntax error\r\n";
    static final String NOT_AN_INTEGER = "-ERR value is not an integer or out of range\r\n";
    static final String OVERFLOW = "-ERR increment or decrement would overflow\r\n";

    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    static String bulk(final String value)
    {
        return "$" + value.getBytes(StandardCharsets.ISO_8859_1).length + "\r\n" + value + "\r\n";
    }

    static String integer(final long value)
    {
        return ":" + value + "\r\n";
    }

    static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private String reply(final String... args)
    {
        return harness.reply(args);
    }

    private long ttlMillis(final String key)
    {
        return harness.store.ttlMillis(bytes(key));
    }

    private long expireTimeMillis(final String key)
    {
        return harness.store.expireTimeMillis(bytes(key));
    }

    private byte[] stored(final String key)
    {
        return harness.store.get(bytes(key));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // GET and plain SET
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void getReturnsTheValueSetBySet()
    {
        assertEquals(OK, reply("SET", "x", "foobar"));
        assertEquals(bulk("foobar"), reply("GET", "x"));
    }

    @Test
    void getOfMissingKeyIsNil()
    {
        assertEquals(NIL, reply("GET", "nokey"));
    }

    @Test
    void setAndGetEmptyValue()
    {
        assertEquals(OK, reply("SET", "x", ""));
        assertEquals("$0\r\n\r\n", reply("GET", "x"));
    }

    @Test
    void setOverwritesValue()
    {
        reply("SET", "x", "one");
        assertEquals(OK, reply("set", "x", "two"));
        assertEquals(bulk("two"), reply("get", "x"));
    }

    @Test
    void binaryValuesWithCrLfAndZeroBytesRoundTrip()
    {
        final byte[] key = {'k', 0, '\r', '\n', (byte)0xFF};
        final byte[] value = {'\r', '\n', 0, '$', '-', '1', '\r', '\n', 0, (byte)0x80, (byte)0xFF, '*'};
        assertEquals(OK, harness.reply(bytes("SET"), key, value));
        final String expected = "$" + value.length + "\r\n" + new String(value, StandardCharsets.ISO_8859_1) + "\r\n";
        assertEquals(expected, harness.reply(bytes("GET"), key));
        assertArrayEquals(value, harness.store.get(key));
    }

    @Test
    void oneMebibyteValueRoundTrips()
    {
        final byte[] value = new byte[1 << 20];
        for (int i = 0; i < value.length; i++)
        {
            value[i] = (byte)(i * 31 + (i >>> 8));
        }
        assertEquals(OK, harness.reply(bytes("SET"), bytes("big"), value));
        final String reply = harness.reply(bytes("GET"), bytes("big"));
        final String header = "$1048576\r\n";
        assertEquals(header.length() + value.length + 2, reply.length());
        assertTrue(reply.startsWith(header));
        assertTrue(reply.endsWith("\r\n"));
        assertArrayEquals(value, Arrays.copyOfRange(bytes(reply), header.length(), header.length() + value.length));
    }

    @Test
    void plainSetClearsTheTtl()
    {
        reply("SET", "foo", "bar", "EX", "100");
        assertEquals(100_000, ttlMillis("foo"));
        assertEquals(OK, reply("SET", "foo", "baz"));
        assertEquals(AgniStore.TTL_NO_EXPIRY, ttlMillis("foo"));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // SET options
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void setWithNxDoesNotOverwrite()
    {
        assertEquals(OK, reply("SET", "foo", "1", "NX"));
        assertEquals(NIL, reply("SET", "foo", "2", "NX"));
        assertEquals(bulk("1"), reply("GET", "foo"));
    }

    @Test
    void setWithXxWritesOnlyAnExistingKey()
    {
        assertEquals(NIL, reply("SET", "foo", "1", "XX"));
        assertFalse(harness.store.exists(bytes("foo")));
        reply("SET", "foo", "bar");
        assertEquals(OK, reply("SET", "foo", "2", "XX"));
        assertEquals(bulk("2"), reply("GET", "foo"));
    }

    @Test
    void setWithNxAndXxIsASyntaxError()
    {
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "1", "NX", "XX"));
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "1", "XX", "NX"));
        assertFalse(harness.store.exists(bytes("foo")));
    }

    @Test
    void setWithUnknownOptionIsASyntaxError()
    {
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "bar", "non-existing-option"));
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "bar", "PERSIST"));
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "bar", "NXX"));
        assertFalse(harness.store.exists(bytes("foo")));
    }

    @Test
    void setOptionsAreAcceptedInAnyOrderAndCase()
    {
        reply("SET", "foo", "val");
        assertEquals(OK, reply("SET", "foo", "bar", "xx", "px", "10000"));
        assertEquals(10_000, ttlMillis("foo"));
        assertEquals(OK, reply("set", "foo", "baz", "Px", "20000", "xX"));
        assertEquals(20_000, ttlMillis("foo"));
        assertEquals(bulk("baz"), reply("SET", "foo", "qux", "ex", "5", "gEt", "Xx"));
        assertEquals(5_000, ttlMillis("foo"));
    }

    @Test
    void setWithExSetsTheTtlInSeconds()
    {
        assertEquals(OK, reply("SET", "foo", "bar", "EX", "10"));
        assertEquals(10_000, ttlMillis("foo"));
        assertEquals(START_MILLIS + 10_000, expireTimeMillis("foo"));
    }

    @Test
    void setWithPxSetsTheTtlInMilliseconds()
    {
        assertEquals(OK, reply("SET", "foo", "bar", "PX", "1500"));
        assertEquals(1_500, ttlMillis("foo"));
    }

    @Test
    void setWithExatAndPxatSetsAnAbsoluteExpiryTime()
    {
        final long at = START_MILLIS / 1000 + 30;
        assertEquals(OK, reply("SET", "a", "1", "EXAT", Long.toString(at)));
        assertEquals(at * 1000, expireTimeMillis("a"));
        assertEquals(OK, reply("SET", "b", "1", "PXAT", Long.toString(START_MILLIS + 1234)));
        assertEquals(START_MILLIS + 1234, expireTimeMillis("b"));
    }

    @Test
    void setWithPxatOfLongMaxValueIsAccepted()
    {
        assertEquals(OK, reply("SET", "a", "1", "PXAT", Long.toString(Long.MAX_VALUE)));
        assertEquals(Long.MAX_VALUE, expireTimeMillis("a"));
    }

    @Test
    void setWithExatInThePastIsOkAndLeavesNoKey()
    {
        reply("SET", "foo", "bar");
        assertEquals(OK, reply("SET", "foo", "baz", "EXAT", "1"));
        assertEquals(NIL, reply("GET", "foo"));
        assertEquals(OK, reply("SET", "new", "baz", "PXAT", Long.toString(START_MILLIS)));
        assertEquals(NIL, reply("GET", "new"));
    }

    @Test
    void keySetWithPxExpiresWhenTheClockReachesIt()
    {
        reply("SET", "foo", "bar", "PX", "100");
        harness.advanceMillis(99);
        assertEquals(bulk("bar"), reply("GET", "foo"));
        harness.advanceMillis(1);
        assertEquals(NIL, reply("GET", "foo"));
    }

    @Test
    void setWithExZeroIsAnInvalidExpireTime()
    {
        assertEquals("-ERR invalid expire time in 'set' command\r\n", reply("SET", "foo", "bar", "EX", "0"));
        assertFalse(harness.store.exists(bytes("foo")));
    }

    @ParameterizedTest
    @CsvSource({
        "EX, -1", "PX, 0", "PX, -5", "EXAT, 0", "PXAT, -1", "EXAT, -9223372036854775808",
        "EX, 9223372036854776", "EXAT, 9223372036854776", "EX, 9223372036854775", "PX, 9223372036854775807"})
    void setWithANonPositiveOrOverflowingTimeIsAnInvalidExpireTime(final String unit, final String time)
    {
        reply("SET", "foo", "old");
        assertEquals("-ERR invalid expire time in 'set' command\r\n", reply("SET", "foo", "bar", unit, time));
        assertEquals(bulk("old"), reply("GET", "foo"));
    }

    @Test
    void setWithANonIntegerTimeIsNotAnInteger()
    {
        assertEquals(NOT_AN_INTEGER, reply("SET", "foo", "bar", "EX", "ten"));
        assertEquals(NOT_AN_INTEGER, reply("SET", "foo", "bar", "PX", "1.5"));
        assertEquals(NOT_AN_INTEGER, reply("SET", "foo", "bar", "EX", " 1"));
        assertEquals(NOT_AN_INTEGER, reply("SET", "foo", "bar", "EX", "NX"));
        assertFalse(harness.store.exists(bytes("foo")));
    }

    @Test
    void setInvalidExpireTimeIsReportedEvenWhenXxWouldNotWrite()
    {
        assertEquals("-ERR invalid expire time in 'set' command\r\n", reply("SET", "foo", "bar", "XX", "EX", "0"));
    }

    @Test
    void setWithAnExpiryOptionButNoTimeIsASyntaxError()
    {
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "bar", "EX"));
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "bar", "NX", "PXAT"));
    }

    @Test
    void setWithTwoExpiryUnitsOrKeepTtlWithAnExpiryIsASyntaxError()
    {
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "bar", "EX", "10", "PX", "100"));
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "bar", "PXAT", "10", "EXAT", "100"));
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "bar", "EX", "10", "KEEPTTL"));
        assertEquals(SYNTAX_ERROR, reply("SET", "foo", "bar", "KEEPTTL", "PX", "10"));
        assertFalse(harness.store.exists(bytes("foo")));
    }

    @Test
    void setWithTheSameOptionTwiceIsAllowedAndTheLastTimeWins()
    {
        assertEquals(OK, reply("SET", "foo", "bar", "EX", "10", "EX", "20"));
        assertEquals(20_000, ttlMillis("foo"));
        assertEquals(OK, reply("SET", "foo", "bar", "EX", "0", "EX", "30"));
        assertEquals(30_000, ttlMillis("foo"));
        assertEquals(NIL, reply("SET", "foo", "baz", "NX", "NX"));
        assertEquals(bulk("bar"), reply("SET", "foo", "baz", "GET", "GET", "KEEPTTL", "KEEPTTL"));
        assertEquals(30_000, ttlMillis("foo"));
    }

    @Test
    void setKeepTtlKeepsTheTtl()
    {
        reply("SET", "foo", "bar", "EX", "100");
        harness.advanceMillis(1_000);
        assertEquals(OK, reply("SET", "foo", "baz", "KEEPTTL"));
        assertEquals(99_000, ttlMillis("foo"));
        assertEquals(bulk("baz"), reply("GET", "foo"));
    }

    @Test
    void setKeepTtlOnAKeyWithoutTtlLeavesItWithout()
    {
        reply("SET", "foo", "bar");
        assertEquals(OK, reply("SET", "foo", "baz", "keepttl"));
        assertEquals(AgniStore.TTL_NO_EXPIRY, ttlMillis("foo"));
    }

    @Test
    void setGetReturnsTheOldValueAndSets()
    {
        reply("SET", "foo", "bar");
        assertEquals(bulk("bar"), reply("SET", "foo", "bar2", "GET"));
        assertEquals(bulk("bar2"), reply("GET", "foo"));
    }

    @Test
    void setGetOnAMissingKeyReturnsNilAndSets()
    {
        assertEquals(NIL, reply("SET", "foo", "bar", "GET"));
        assertEquals(bulk("bar"), reply("GET", "foo"));
    }

    @Test
    void setGetWithXxOnAMissingKeyReturnsNilAndDoesNotSet()
    {
        assertEquals(NIL, reply("SET", "foo", "bar", "GET", "XX"));
        assertEquals(NIL, reply("GET", "foo"));
    }

    @Test
    void setGetWithXxOnAnExistingKeyReturnsTheOldValueAndSets()
    {
        reply("SET", "foo", "bar");
        assertEquals(bulk("bar"), reply("SET", "foo", "baz", "GET", "XX"));
        assertEquals(bulk("baz"), reply("GET", "foo"));
    }

    @Test
    void setGetWithNxOnAMissingKeyReturnsNilAndSets()
    {
        assertEquals(NIL, reply("SET", "foo", "bar", "GET", "NX"));
        assertEquals(bulk("bar"), reply("GET", "foo"));
    }

    @Test
    void setGetWithNxOnAnExistingKeyReturnsTheOldValueAndDoesNotSet()
    {
        reply("SET", "foo", "bar");
        assertEquals(bulk("bar"), reply("SET", "foo", "baz", "NX", "GET"));
        assertEquals(bulk("bar"), reply("GET", "foo"));
    }

    @Test
    void setGetWithExSetsTheTtl()
    {
        reply("SET", "foo", "bar");
        assertEquals(bulk("bar"), reply("SET", "foo", "baz", "GET", "EX", "7"));
        assertEquals(7_000, ttlMillis("foo"));
    }

    @Test
    void setGetReturnsABinaryOldValue()
    {
        final byte[] old = {0, '\r', '\n', 1};
        harness.reply(bytes("SET"), bytes("k"), old);
        assertEquals("$4\r\n\0\r\n\u0001\r\n", harness.reply(bytes("SET"), bytes("k"), bytes("v"), bytes("GET")));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // SETNX, SETEX, PSETEX, GETSET, GETDEL
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void setnxSetsAMissingKey()
    {
        assertEquals(integer(1), reply("SETNX", "novar", "foobared"));
        assertEquals(bulk("foobared"), reply("GET", "novar"));
    }

    @Test
    void setnxDoesNotOverwriteAnExistingKey()
    {
        reply("SET", "novar", "foobared");
        assertEquals(integer(0), reply("SETNX", "novar", "blabla"));
        assertEquals(bulk("foobared"), reply("GET", "novar"));
    }

    @Test
    void setnxSetsAKeyWhoseTtlHasPassed()
    {
        reply("SET", "x", "10", "PX", "1000");
        assertEquals(integer(0), reply("SETNX", "x", "20"));
        harness.advanceMillis(1000);
        assertEquals(integer(1), reply("SETNX", "x", "20"));
        assertEquals(bulk("20"), reply("GET", "x"));
        assertEquals(AgniStore.TTL_NO_EXPIRY, ttlMillis("x"));
    }

    @Test
    void setexSetsTheValueAndATtlInSeconds()
    {
        reply("SET", "foo", "old");
        assertEquals(OK, reply("SETEX", "foo", "12", "bar"));
        assertEquals(bulk("bar"), reply("GET", "foo"));
        assertEquals(12_000, ttlMillis("foo"));
    }

    @Test
    void psetexSetsTheValueAndATtlInMilliseconds()
    {
        assertEquals(OK, reply("PSETEX", "foo", "1200", "bar"));
        assertEquals(bulk("bar"), reply("GET", "foo"));
        assertEquals(1_200, ttlMillis("foo"));
    }

    @Test
    void setexAndPsetexWithANonPositiveTimeNameTheirCommand()
    {
        assertEquals("-ERR invalid expire time in 'setex' command\r\n", reply("SETEX", "foo", "0", "bar"));
        assertEquals("-ERR invalid expire time in 'setex' command\r\n", reply("setex", "foo", "-10", "bar"));
        assertEquals("-ERR invalid expire time in 'psetex' command\r\n", reply("PSETEX", "foo", "0", "bar"));
        assertEquals(
            "-ERR invalid expire time in 'psetex' command\r\n",
            reply("PSETEX", "foo", "9223372036854775807", "bar"));
        assertFalse(harness.store.exists(bytes("foo")));
    }

    @Test
    void setexWithANonIntegerTimeIsNotAnInteger()
    {
        assertEquals(NOT_AN_INTEGER, reply("SETEX", "foo", "1x", "bar"));
        assertEquals(NOT_AN_INTEGER, reply("PSETEX", "foo", "", "bar"));
    }

    @Test
    void getsetOnAMissingKeyReturnsNilAndSets()
    {
        assertEquals(NIL, reply("GETSET", "foo", "xyz"));
        assertEquals(bulk("xyz"), reply("GET", "foo"));
    }

    @Test
    void getsetReplacesTheValueReturnsTheOldOneAndClearsTheTtl()
    {
        reply("SET", "foo", "bar", "EX", "100");
        assertEquals(bulk("bar"), reply("GETSET", "foo", "xyz"));
        assertEquals(bulk("xyz"), reply("GET", "foo"));
        assertEquals(AgniStore.TTL_NO_EXPIRY, ttlMillis("foo"));
    }

    @Test
    void getdelReturnsTheValueAndRemovesTheKey()
    {
        reply("SET", "foo", "bar");
        assertEquals(bulk("bar"), reply("GETDEL", "foo"));
        assertEquals(NIL, reply("GETDEL", "foo"));
        assertFalse(harness.store.exists(bytes("foo")));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // GETEX
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void getexWithoutOptionsIsGetAndKeepsTheTtl()
    {
        reply("SET", "foo", "bar", "EX", "50");
        assertEquals(bulk("bar"), reply("GETEX", "foo"));
        assertEquals(50_000, ttlMillis("foo"));
    }

    @Test
    void getexOnAMissingKeyIsNil()
    {
        assertEquals(NIL, reply("GETEX", "foo"));
        assertEquals(NIL, reply("GETEX", "foo", "EX", "10"));
        assertFalse(harness.store.exists(bytes("foo")));
    }

    @Test
    void getexSetsTheTtlWithEachUnit()
    {
        reply("SET", "foo", "bar");
        assertEquals(bulk("bar"), reply("GETEX", "foo", "EX", "10"));
        assertEquals(10_000, ttlMillis("foo"));
        assertEquals(bulk("bar"), reply("GETEX", "foo", "px", "10000"));
        assertEquals(10_000, ttlMillis("foo"));
        assertEquals(bulk("bar"), reply("GETEX", "foo", "EXAT", Long.toString(START_MILLIS / 1000 + 20)));
        assertEquals(START_MILLIS / 1000 * 1000 + 20_000, expireTimeMillis("foo"));
        assertEquals(bulk("bar"), reply("GETEX", "foo", "PXAT", Long.toString(START_MILLIS + 5)));
        assertEquals(5, ttlMillis("foo"));
    }

    @Test
    void getexPersistRemovesTheTtl()
    {
        reply("SET", "foo", "bar", "EX", "10");
        assertEquals(10_000, ttlMillis("foo"));
        assertEquals(bulk("bar"), reply("GETEX", "foo", "PERSIST"));
        assertEquals(AgniStore.TTL_NO_EXPIRY, ttlMillis("foo"));
        assertEquals(bulk("bar"), reply("GETEX", "foo", "persist"));
    }

    @Test
    void getexWithAnExatInThePastReturnsTheValueAndRemovesTheKey()
    {
        reply("SET", "foo", "bar");
        assertEquals(bulk("bar"), reply("GETEX", "foo", "EXAT", "1"));
        assertNull(stored("foo"));
    }

    @Test
    void getexSyntaxErrors()
    {
        reply("SET", "foo", "bar", "EX", "10");
        assertEquals(SYNTAX_ERROR, reply("GETEX", "foo", "non-existent-option"));
        assertEquals(SYNTAX_ERROR, reply("GETEX", "foo", "NX"));
        assertEquals(SYNTAX_ERROR, reply("GETEX", "foo", "GET"));
        assertEquals(SYNTAX_ERROR, reply("GETEX", "foo", "KEEPTTL"));
        assertEquals(SYNTAX_ERROR, reply("GETEX", "foo", "EX"));
        assertEquals(SYNTAX_ERROR, reply("GETEX", "foo", "EX", "10", "PERSIST"));
        assertEquals(SYNTAX_ERROR, reply("GETEX", "foo", "PERSIST", "PX", "10"));
        assertEquals(SYNTAX_ERROR, reply("GETEX", "foo", "EX", "10", "PX", "10"));
        assertEquals(SYNTAX_ERROR, reply("GETEX", "missing", "bogus"));
        assertEquals(10_000, ttlMillis("foo"));
    }

    @Test
    void getexInvalidExpireTimeNamesGetex()
    {
        reply("SET", "foo", "bar");
        assertEquals("-ERR invalid expire time in 'getex' command\r\n", reply("GETEX", "foo", "EX", "0"));
        assertEquals("-ERR invalid expire time in 'getex' command\r\n", reply("GETEX", "foo", "PXAT", "-1"));
        assertEquals(NOT_AN_INTEGER, reply("GETEX", "foo", "PX", "soon"));
        assertEquals(AgniStore.TTL_NO_EXPIRY, ttlMillis("foo"));
    }

    @Test
    void getexInvalidExpireTimeOnAMissingKeyIsNilAsInRedis()
    {
        assertEquals(NIL, reply("GETEX", "foo", "EX", "0"));
        assertEquals(NIL, reply("GETEX", "foo", "PX", "soon"));
    }

    @Test
    void getexWithTheSameOptionTwiceUsesTheLastTime()
    {
        reply("SET", "foo", "bar");
        assertEquals(bulk("bar"), reply("GETEX", "foo", "EX", "10", "EX", "20"));
        assertEquals(20_000, ttlMillis("foo"));
        assertEquals(bulk("bar"), reply("GETEX", "foo", "PERSIST", "PERSIST"));
        assertEquals(AgniStore.TTL_NO_EXPIRY, ttlMillis("foo"));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // MGET, MSET, MSETNX
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void mgetReturnsEachValueOrNilInOrder()
    {
        reply("SET", "foo", "BAR");
        reply("SET", "bar", "FOO");
        assertEquals("*2\r\n" + bulk("BAR") + bulk("FOO"), reply("MGET", "foo", "bar"));
        assertEquals("*3\r\n" + bulk("BAR") + NIL + bulk("FOO"), reply("MGET", "foo", "baazz", "bar"));
        assertEquals("*2\r\n" + bulk("BAR") + bulk("BAR"), reply("mget", "foo", "foo"));
        assertEquals("*1\r\n" + NIL, reply("MGET", "none"));
    }

    @Test
    void msetSetsEveryPairAndMgetReadsThemBack()
    {
        assertEquals(OK, reply("MSET", "x", "10", "y", "foo bar", "z", "x x x x x x x\n\n\r\n"));
        assertEquals(
            "*3\r\n" + bulk("10") + bulk("foo bar") + bulk("x x x x x x x\n\n\r\n"),
            reply("MGET", "x", "y", "z"));
    }

    @Test
    void msetClearsTheTtlAndTheLastValueOfARepeatedKeyWins()
    {
        reply("SET", "x", "old", "EX", "100");
        assertEquals(OK, reply("MSET", "x", "1", "x", "2"));
        assertEquals(bulk("2"), reply("GET", "x"));
        assertEquals(AgniStore.TTL_NO_EXPIRY, ttlMillis("x"));
    }

    @Test
    void msetAndMsetnxWithAKeyWithoutValueAreWrongArity()
    {
        assertEquals(
            "-ERR wrong number of arguments for 'mset' command\r\n", reply("MSET", "x", "10", "y", "foo bar", "z"));
        assertEquals(
            "-ERR wrong number of arguments for 'msetnx' command\r\n", reply("MSETNX", "x", "20", "y", "bar", "z"));
        assertFalse(harness.store.exists(bytes("x")));
    }

    @Test
    void msetnxWhenOneKeyExistsSetsNothing()
    {
        reply("SET", "x", "10");
        assertEquals(integer(0), reply("MSETNX", "x1", "xxx", "y2", "yyy", "x", "20"));
        assertFalse(harness.store.exists(bytes("x1")));
        assertFalse(harness.store.exists(bytes("y2")));
        assertEquals(bulk("10"), reply("GET", "x"));
    }

    @Test
    void msetnxWithOnlyNewKeysSetsThemAll()
    {
        assertEquals(integer(1), reply("MSETNX", "x1", "xxx", "y2", "yyy"));
        assertEquals("*2\r\n" + bulk("xxx") + bulk("yyy"), reply("MGET", "x1", "y2"));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // APPEND
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void appendCreatesAMissingKeyAndExtendsAnExistingOne()
    {
        assertEquals(integer(5), reply("APPEND", "foo", "Hello"));
        assertEquals(integer(11), reply("APPEND", "foo", " World"));
        assertEquals(bulk("Hello World"), reply("GET", "foo"));
        assertEquals(integer(11), reply("APPEND", "foo", ""));
    }

    @Test
    void appendOfAnEmptyStringToAMissingKeyCreatesAnEmptyValue()
    {
        assertEquals(integer(0), reply("APPEND", "foo", ""));
        assertEquals("$0\r\n\r\n", reply("GET", "foo"));
    }

    @Test
    void appendKeepsTheTtl()
    {
        reply("SET", "foo", "a", "EX", "100");
        assertEquals(integer(2), reply("APPEND", "foo", "b"));
        assertEquals(100_000, ttlMillis("foo"));
    }

    @Test
    void appendBeyondTheValueLimitIsStringExceedsMaximumAllowedSize()
    {
        try (SmallValueStore small = new SmallValueStore(16))
        {
            assertEquals(integer(10), small.reply("APPEND", "foo", "0123456789"));
            assertEquals(
                "-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n",
                small.reply("APPEND", "foo", "0123456"));
            assertEquals(bulk("0123456789"), small.reply("GET", "foo"));
        }
    }

    // ----------------------------------------------------------------------------------------------------------------
    // INCR, DECR, INCRBY, DECRBY
    // ----------------------------------------------------------------------------------------------------------------

    @Test
    void incrOnAMissingKeyStartsFromZero()
    {
        assertEquals(integer(1), reply("INCR", "novar"));
        assertEquals(bulk("1"), reply("GET", "novar"));
        assertEquals(integer(2), reply("INCR", "novar"));
    }

    @Test
    void incrOfAValueSetWithSet()
    {
        reply("SET", "novar", "100");
        assertEquals(integer(101), reply("INCR", "novar"));
        reply("SET", "novar", "17179869184");
        assertEquals(integer(17179869185L), reply("INCR", "novar"));
    }

    @Test
    void incrbyDecrAndDecrbyOver32Bits()
    {
        reply("SET", "novar", "17179869184");
        assertEquals(integer(34359738368L), reply("INCRBY", "novar", "17179869184"));
        reply("SET", "novar", "17179869184");
        assertEquals(integer(-1), reply("DECRBY", "novar", "17179869185"));
        assertEquals(integer(-2), reply("DECR", "novar"));
        assertEquals(integer(-12), reply("INCRBY", "novar", "-10"));
        assertEquals(integer(-2), reply("DECRBY", "novar", "-10"));
    }

    @Test
    void incrKeepsTheTtl()
    {
        reply("SET", "n", "1", "EX", "100");
        assertEquals(integer(2), reply("INCR", "n"));
        assertEquals(100_000, ttlMillis("n"));
    }

    @ParameterizedTest
    @CsvSource(value = {"'    11'", "'11    '", "' 11 '", "abc", "1.5", "''", "+1", "01", "99999999999999999999"})
    void incrOnANonIntegerIsNotAnInteger(final String value)
    {
        reply("SET", "novar", value);
        assertEquals(NOT_AN_INTEGER, reply("INCR", "novar"));
        assertEquals(NOT_AN_INTEGER, reply("DECRBY", "novar", "1"));
        assertArrayEquals(bytes(value), stored("novar"));
    }

    @Test
    void incrOnOverflowIsAnError()
    {
        reply("SET", "n", Long.toString(Long.MAX_VALUE));
        assertEquals(OVERFLOW, reply("INCR", "n"));
        assertEquals(OVERFLOW, reply("INCRBY", "n", "5"));
        assertEquals(bulk(Long.toString(Long.MAX_VALUE)), reply("GET", "n"));
        reply("SET", "n", Long.toString(Long.MIN_VALUE));
        assertEquals(OVERFLOW, reply("DECR", "n"));
        assertEquals(OVERFLOW, reply("DECRBY", "n", "1"));
        assertEquals(bulk(Long.toString(Long.MIN_VALUE)), reply("GET", "n"));
    }

    @Test
    void incrbyReachesTheLimitsOfTheRange()
    {
        assertEquals(integer(Long.MIN_VALUE), reply("INCRBY", "n", Long.toString(Long.MIN_VALUE)));
        assertEquals(integer(-1), reply("INCRBY", "n", Long.toString(Long.MAX_VALUE)));
    }

    @Test
    void incrbyAndDecrbyWithANonIntegerIncrementAreNotAnInteger()
    {
        assertEquals(NOT_AN_INTEGER, reply("INCRBY", "n", "1.0"));
        assertEquals(NOT_AN_INTEGER, reply("DECRBY", "n", "x"));
        assertEquals(NOT_AN_INTEGER, reply("INCRBY", "n", "9223372036854775808"));
        assertFalse(harness.store.exists(bytes("n")));
    }

    @Test
    void decrbyOfLongMinValueIsDecrementWouldOverflow()
    {
        reply("SET", "x", "0");
        assertEquals("-ERR decrement would overflow\r\n", reply("DECRBY", "x", "-9223372036854775808"));
        assertEquals(bulk("0"), reply("GET", "x"));
    }

    // ----------------------------------------------------------------------------------------------------------------
    // The table
    // ----------------------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource({
        "get, 2, 1, 1, 1", "set, -3, 1, 1, 1", "setnx, 3, 1, 1, 1", "setex, 4, 1, 1, 1", "psetex, 4, 1, 1, 1",
        "getset, 3, 1, 1, 1", "getdel, 2, 1, 1, 1", "getex, -2, 1, 1, 1", "mget, -2, 1, -1, 1",
        "mset, -3, 1, -1, 2", "msetnx, -3, 1, -1, 2", "append, 3, 1, 1, 1", "strlen, 2, 1, 1, 1",
        "getrange, 4, 1, 1, 1", "setrange, 4, 1, 1, 1", "incr, 2, 1, 1, 1", "decr, 2, 1, 1, 1",
        "incrby, 3, 1, 1, 1", "decrby, 3, 1, 1, 1", "incrbyfloat, 3, 1, 1, 1"})
    void commandIsRegisteredWithRedisArityAndKeyPositions(
        final String name, final int arity, final int firstKey, final int lastKey, final int keyStep)
    {
        final Command command = harness.processor.table().lookup(name);
        assertNotNull(command, name);
        assertEquals(arity, command.arity(), name);
        assertEquals(firstKey, command.firstKey(), name);
        assertEquals(lastKey, command.lastKey(), name);
        assertEquals(keyStep, command.keyStep(), name);
        final boolean readOnly = name.equals("get") || name.equals("mget") || name.equals("strlen") ||
            name.equals("getrange");
        assertEquals(readOnly, command.hasFlag(Command.FLAG_READONLY), name);
        assertEquals(!readOnly, command.hasFlag(Command.FLAG_WRITE), name);
    }

    /**
     * A processor over a store whose values may be at most a few bytes long, for the size-limit replies.
     */
    static final class SmallValueStore implements AutoCloseable
    {
        private final OffHeapStore store;
        private final CommandProcessor processor;
        private final Session session = new Session(1, "127.0.0.1:50001", "127.0.0.1:6379", START_MILLIS);
        private final RespWriter out = new RespWriter(256);

        SmallValueStore(final int maxValueLength)
        {
            final CachedEpochClock clock = new CachedEpochClock();
            clock.update(START_MILLIS);
            store = OffHeapStore.builder().shards(1).maxMemory(1L << 20).maxValueLength(maxValueLength).clock(clock)
                .build();
            processor = new CommandProcessor(store, new LocalServerContext(null, START_MILLIS), clock);
        }

        String reply(final String... args)
        {
            out.reset();
            processor.execute(session, RespArgs.of(args), out);
            final byte[] bytes = new byte[out.position()];
            out.buffer().getBytes(0, bytes);
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close()
        {
            store.close();
        }
    }

    @ParameterizedTest
    @CsvSource(value = {
        "get", "get|a|b", "set|k", "setnx|k", "setnx|k|v|x", "setex|k|10", "setex|k|10|v|x", "psetex|k|10",
        "getset|k", "getset|k|v|x", "getdel", "getdel|a|b", "getex", "mget", "mset", "mset|k", "msetnx|k",
        "append|k", "append|k|v|x", "strlen", "strlen|a|b", "getrange|k|0", "getrange|k|0|1|2", "setrange|k|0",
        "setrange|k|0|v|x", "incr", "incr|a|b", "decr", "decr|a|b", "incrby|k", "incrby|k|1|2", "decrby|k",
        "incrbyfloat|k", "incrbyfloat|k|1|2"})
    void wrongNumberOfArgumentsGetsRedisText(final String command)
    {
        final String[] args = command.split("\\|");
        reply("SET", "k", "v");
        assertEquals("-ERR wrong number of arguments for '" + args[0] + "' command\r\n", reply(args));
        assertEquals(bulk("v"), reply("GET", "k"));
    }
}
