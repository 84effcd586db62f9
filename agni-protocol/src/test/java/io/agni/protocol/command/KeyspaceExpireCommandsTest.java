package io.agni.protocol.command;

import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.agni.protocol.command.CommandHarness.START_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT with NX, XX, GT and LT; TTL, PTTL, EXPIRETIME, PEXPIRETIME; PERSIST. Cases
 * from the Redis command reference and Redis's tests/unit/expire.tcl, on a manual clock so every reply is exact.
 */
class KeyspaceExpireCommandsTest
{
    private static final long START_SECONDS = START_MILLIS / 1000;

    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    @Test
    void ttlFamilyRepliesMinusTwoForAMissingKey()
    {
        assertEquals(":-2\r\n", harness.reply("TTL", "missing"));
        assertEquals(":-2\r\n", harness.reply("PTTL", "missing"));
        assertEquals(":-2\r\n", harness.reply("EXPIRETIME", "missing"));
        assertEquals(":-2\r\n", harness.reply("PEXPIRETIME", "missing"));
    }

    @Test
    void ttlFamilyRepliesMinusOneForAKeyWithoutExpiry()
    {
        set("foo");
        assertEquals(":-1\r\n", harness.reply("TTL", "foo"));
        assertEquals(":-1\r\n", harness.reply("PTTL", "foo"));
        assertEquals(":-1\r\n", harness.reply("EXPIRETIME", "foo"));
        assertEquals(":-1\r\n", harness.reply("PEXPIRETIME", "foo"));
    }

    @Test
    void expireSetsTheTtlInSeconds()
    {
        set("x");
        assertEquals(":1\r\n", harness.reply("EXPIRE", "x", "100"));
        assertEquals(":100\r\n", harness.reply("TTL", "x"));
        assertEquals(":100000\r\n", harness.reply("PTTL", "x"));
        assertEquals(":" + (START_MILLIS + 100_000) + "\r\n", harness.reply("PEXPIRETIME", "x"));
        assertEquals(":" + (START_SECONDS + 100) + "\r\n", harness.reply("EXPIRETIME", "x"));
    }

    @Test
    void expireCanBeSetManyTimes()
    {
        set("x");
        assertEquals(":1\r\n", harness.reply("EXPIRE", "x", "5"));
        assertEquals(":5\r\n", harness.reply("TTL", "x"));
        assertEquals(":1\r\n", harness.reply("EXPIRE", "x", "10"));
        assertEquals(":10\r\n", harness.reply("TTL", "x"));
        assertEquals(":1\r\n", harness.reply("EXPIRE", "x", "2"));
        assertEquals(":2\r\n", harness.reply("TTL", "x"));
    }

    @Test
    void pexpireSetsTheTtlInMilliseconds()
    {
        set("x");
        assertEquals(":1\r\n", harness.reply("PEXPIRE", "x", "1234"));
        assertEquals(":1234\r\n", harness.reply("PTTL", "x"));
        assertEquals(":1\r\n", harness.reply("TTL", "x"));
    }

    @Test
    void ttlRoundsToTheNearestSecondAsRedis()
    {
        set("x");
        harness.reply("PEXPIRE", "x", "1499");
        assertEquals(":1\r\n", harness.reply("TTL", "x"));
        harness.reply("PEXPIRE", "x", "1500");
        assertEquals(":2\r\n", harness.reply("TTL", "x"));
        harness.reply("PEXPIRE", "x", "499");
        assertEquals(":0\r\n", harness.reply("TTL", "x"));
        assertEquals(":499\r\n", harness.reply("PTTL", "x"));
    }

    @Test
    void expireTimeRoundsTheAbsoluteTimeAsRedis()
    {
        set("x");
        harness.reply("PEXPIREAT", "x", Long.toString(START_MILLIS + 1500));
        assertEquals(":" + (START_SECONDS + 2) + "\r\n", harness.reply("EXPIRETIME", "x"));
        harness.reply("PEXPIREAT", "x", Long.toString(START_MILLIS + 1499));
        assertEquals(":" + (START_SECONDS + 1) + "\r\n", harness.reply("EXPIRETIME", "x"));
        assertEquals(":" + (START_MILLIS + 1499) + "\r\n", harness.reply("PEXPIRETIME", "x"));
    }

    @Test
    void ttlCountsDownAsTheClockAdvancesAndTheKeyGoesAtZero()
    {
        set("x");
        harness.reply("EXPIRE", "x", "10");
        harness.advanceMillis(2_500);
        assertEquals(":7500\r\n", harness.reply("PTTL", "x"));
        assertEquals(":8\r\n", harness.reply("TTL", "x"));
        harness.advanceMillis(7_499);
        assertEquals(":1\r\n", harness.reply("PTTL", "x"));
        assertEquals(":1\r\n", harness.reply("EXISTS", "x"));
        harness.advanceMillis(1);
        assertEquals(":-2\r\n", harness.reply("TTL", "x"));
        assertEquals(":0\r\n", harness.reply("EXISTS", "x"));
    }

    @Test
    void expireAtAndPexpireAtSetAbsoluteTimes()
    {
        set("x");
        set("y");
        assertEquals(":1\r\n", harness.reply("EXPIREAT", "x", Long.toString(START_SECONDS + 15)));
        assertEquals(":15\r\n", harness.reply("TTL", "x"));
        assertEquals(":1\r\n", harness.reply("PEXPIREAT", "y", Long.toString(START_MILLIS + 200)));
        assertEquals(":200\r\n", harness.reply("PTTL", "y"));
    }

    @Test
    void expireOnAMissingKeyRepliesZero()
    {
        assertEquals(":0\r\n", harness.reply("EXPIRE", "none", "100"));
        assertEquals(":0\r\n", harness.reply("PEXPIRE", "none", "100"));
        assertEquals(":0\r\n", harness.reply("EXPIREAT", "none", Long.toString(START_SECONDS + 100)));
        assertEquals(":0\r\n", harness.reply("PEXPIREAT", "none", Long.toString(START_MILLIS + 100)));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "none", "-1"));
        assertEquals(":-2\r\n", harness.reply("TTL", "none"));
    }

    @Test
    void expireOnAMissingKeyRepliesZeroWithEveryOption()
    {
        assertEquals(":0\r\n", harness.reply("EXPIRE", "none", "100", "NX"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "none", "100", "XX"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "none", "100", "GT"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "none", "100", "LT"));
    }

    @Test
    void expireWithATimeInThePastDeletesTheKeyAndRepliesOne()
    {
        set("a");
        set("b");
        set("c");
        set("d");
        set("e");
        assertEquals(":1\r\n", harness.reply("EXPIRE", "a", "-10"));
        assertEquals(":1\r\n", harness.reply("EXPIRE", "b", "0"));
        assertEquals(":1\r\n", harness.reply("PEXPIRE", "c", "0"));
        assertEquals(":1\r\n", harness.reply("EXPIREAT", "d", Long.toString(START_SECONDS - 1)));
        assertEquals(":1\r\n", harness.reply("PEXPIREAT", "e", Long.toString(START_MILLIS)));
        assertEquals(":0\r\n", harness.reply("EXISTS", "a", "b", "c", "d", "e"));
        assertEquals(":-2\r\n", harness.reply("TTL", "a"));
    }

    @Test
    void expireWithNegativeTimeAndLtDeletesVolatileAndPersistentKeys()
    {
        setWithTtl("volatile", 100_000);
        set("persistent");
        assertEquals(":1\r\n", harness.reply("EXPIRE", "volatile", "-10", "LT"));
        assertEquals(":1\r\n", harness.reply("EXPIRE", "persistent", "-10", "LT"));
        assertEquals(":-2\r\n", harness.reply("TTL", "volatile"));
        assertEquals(":-2\r\n", harness.reply("TTL", "persistent"));
    }

    @Test
    void expireInThePastThatItsConditionRefusesKeepsTheKey()
    {
        set("foo");
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "-10", "XX"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "-10", "GT"));
        assertEquals(":-1\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireNxSetsOnlyAKeyWithoutTtl()
    {
        setWithTtl("volatile", 100_000);
        set("persistent");
        assertEquals(":0\r\n", harness.reply("EXPIRE", "volatile", "200", "NX"));
        assertEquals(":100\r\n", harness.reply("TTL", "volatile"));
        assertEquals(":1\r\n", harness.reply("EXPIRE", "persistent", "200", "NX"));
        assertEquals(":200\r\n", harness.reply("TTL", "persistent"));
    }

    @Test
    void expireXxSetsOnlyAKeyWithTtl()
    {
        setWithTtl("volatile", 100_000);
        set("persistent");
        assertEquals(":1\r\n", harness.reply("EXPIRE", "volatile", "200", "XX"));
        assertEquals(":200\r\n", harness.reply("TTL", "volatile"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "persistent", "200", "XX"));
        assertEquals(":-1\r\n", harness.reply("TTL", "persistent"));
    }

    @Test
    void expireGtSetsOnlyALaterTime()
    {
        setWithTtl("foo", 100_000);
        assertEquals(":1\r\n", harness.reply("EXPIRE", "foo", "200", "GT"));
        assertEquals(":200\r\n", harness.reply("TTL", "foo"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "100", "GT"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "200", "GT"));
        assertEquals(":200\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireGtNeverSetsAKeyWithoutTtlBecauseNoTtlCountsAsInfinite()
    {
        set("foo");
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "200", "GT"));
        assertEquals(":0\r\n", harness.reply("PEXPIREAT", "foo", Long.toString(Long.MAX_VALUE), "GT"));
        assertEquals(":-1\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireLtSetsOnlyAnEarlierTime()
    {
        setWithTtl("foo", 200_000);
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "300", "LT"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "200", "LT"));
        assertEquals(":200\r\n", harness.reply("TTL", "foo"));
        assertEquals(":1\r\n", harness.reply("EXPIRE", "foo", "100", "LT"));
        assertEquals(":100\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireLtAlwaysSetsAKeyWithoutTtlBecauseNoTtlCountsAsInfinite()
    {
        set("foo");
        assertEquals(":1\r\n", harness.reply("EXPIRE", "foo", "100", "LT"));
        assertEquals(":100\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireGtWithXxSetsOnlyALaterTimeOfAKeyWithTtl()
    {
        setWithTtl("volatile", 100_000);
        set("persistent");
        assertEquals(":1\r\n", harness.reply("EXPIRE", "volatile", "200", "XX", "GT"));
        assertEquals(":200\r\n", harness.reply("TTL", "volatile"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "volatile", "100", "GT", "XX"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "persistent", "200", "XX", "GT"));
        assertEquals(":-1\r\n", harness.reply("TTL", "persistent"));
    }

    @Test
    void expireLtWithXxSetsOnlyAnEarlierTimeOfAKeyWithTtl()
    {
        setWithTtl("foo", 200_000);
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "300", "XX", "LT"));
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "200", "LT", "XX"));
        assertEquals(":200\r\n", harness.reply("TTL", "foo"));
        assertEquals(":1\r\n", harness.reply("EXPIRE", "foo", "100", "lt", "xx"));
        assertEquals(":100\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireLtWithXxNeverSetsAKeyWithoutTtl()
    {
        set("foo");
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "100", "XX", "LT"));
        assertEquals(":0\r\n", harness.reply("PEXPIREAT", "foo", "1", "LT", "XX"));
        assertEquals(":-1\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireLtWithXxInThePastDeletesAKeyWithTtl()
    {
        setWithTtl("foo", 200_000);
        assertEquals(":1\r\n", harness.reply("EXPIRE", "foo", "-10", "XX", "LT"));
        assertEquals(":-2\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireLtWithXxOfAMissingKeyRepliesZero()
    {
        assertEquals(":0\r\n", harness.reply("EXPIRE", "missing", "100", "XX", "LT"));
    }

    @Test
    void expireOptionsMayRepeatAndIgnoreCase()
    {
        set("foo");
        assertEquals(":1\r\n", harness.reply("EXPIRE", "foo", "100", "nx", "Nx"));
        assertEquals(":1\r\n", harness.reply("EXPIRE", "foo", "200", "gt", "xX"));
        assertEquals(":200\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireWithIncompatibleOptionsGetsRedisErrors()
    {
        set("foo");
        final String nx = "-ERR NX and XX, GT or LT options at the same time are not compatible\r\n";
        assertEquals(nx, harness.reply("EXPIRE", "foo", "200", "NX", "XX"));
        assertEquals(nx, harness.reply("EXPIRE", "foo", "200", "NX", "GT"));
        assertEquals(nx, harness.reply("EXPIRE", "foo", "200", "LT", "NX"));
        assertEquals(nx, harness.reply("PEXPIRE", "foo", "200", "NX", "GT", "LT"));
        final String gtLt = "-ERR GT and LT options at the same time are not compatible\r\n";
        assertEquals(gtLt, harness.reply("EXPIRE", "foo", "200", "LT", "GT"));
        assertEquals(gtLt, harness.reply("PEXPIREAT", "foo", "200", "GT", "XX", "LT"));
        assertEquals(":-1\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireWithAnUnsupportedOptionNamesIt()
    {
        set("foo");
        assertEquals("-ERR Unsupported option AB\r\n", harness.reply("EXPIRE", "foo", "200", "AB"));
        assertEquals("-ERR Unsupported option ab\r\n", harness.reply("EXPIRE", "foo", "200", "XX", "ab"));
        assertEquals("-ERR Unsupported option AB\r\n", harness.reply("EXPIRE", "foo", "notanumber", "AB"));
    }

    @Test
    void expireWithATimeThatIsNotAnIntegerIsAnError()
    {
        set("foo");
        final String error = "-ERR value is not an integer or out of range\r\n";
        assertEquals(error, harness.reply("EXPIRE", "foo", ""));
        assertEquals(error, harness.reply("EXPIRE", "foo", "1.5"));
        assertEquals(error, harness.reply("PEXPIRE", "foo", " 10"));
        assertEquals(error, harness.reply("EXPIREAT", "foo", "+10"));
        assertEquals(error, harness.reply("PEXPIREAT", "foo", "9223372036854775808"));
        assertEquals(":-1\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireThatOverflowsIsAnInvalidExpireTimeNamingTheCommand()
    {
        set("foo");
        assertEquals(
            "-ERR invalid expire time in 'expire' command\r\n", harness.reply("EXPIRE", "foo", "9223370399119966"));
        assertEquals(
            "-ERR invalid expire time in 'expire' command\r\n", harness.reply("EXPIRE", "foo", "9223372036854776"));
        assertEquals(
            "-ERR invalid expire time in 'expire' command\r\n",
            harness.reply("EXPIRE", "foo", "-9223372036854775808"));
        assertEquals(
            "-ERR invalid expire time in 'expire' command\r\n", harness.reply("EXPIRE", "foo", "-9223372036854776"));
        assertEquals(
            "-ERR invalid expire time in 'pexpire' command\r\n",
            harness.reply("PEXPIRE", "foo", Long.toString(Long.MAX_VALUE - START_MILLIS + 1)));
        assertEquals(
            "-ERR invalid expire time in 'expireat' command\r\n",
            harness.reply("EXPIREAT", "foo", "9223372036854776"));
        assertEquals(":-1\r\n", harness.reply("TTL", "foo"));
    }

    @Test
    void expireAtTheLargestTimesThatDoNotOverflowWorks()
    {
        set("a");
        set("b");
        set("c");
        assertEquals(":1\r\n", harness.reply("PEXPIRE", "a", Long.toString(Long.MAX_VALUE - START_MILLIS)));
        assertEquals(":" + Long.MAX_VALUE + "\r\n", harness.reply("PEXPIRETIME", "a"));
        assertEquals(":9223372036854776\r\n", harness.reply("EXPIRETIME", "a"));
        assertEquals(":1\r\n", harness.reply("EXPIREAT", "b", "9223372036854775"));
        assertEquals(":9223372036854775000\r\n", harness.reply("PEXPIRETIME", "b"));
        assertEquals(":1\r\n", harness.reply("PEXPIREAT", "c", "9223372036854770000"));
        assertEquals(":9223372036854770000\r\n", harness.reply("PEXPIRETIME", "c"));
    }

    @Test
    void pexpireAtWithABigNegativeTimeDeletesTheKey()
    {
        set("foo");
        assertEquals(":1\r\n", harness.reply("PEXPIREAT", "foo", "-9223372036854770000"));
        assertEquals(":-2\r\n", harness.reply("TTL", "foo"));
        set("bar");
        assertEquals(":1\r\n", harness.reply("PEXPIRE", "bar", "-9223372036854775808"));
        assertEquals(":-2\r\n", harness.reply("TTL", "bar"));
    }

    @Test
    void expireDoesNotResurrectAnExpiredKey()
    {
        set("foo");
        harness.reply("PEXPIRE", "foo", "500");
        harness.advanceMillis(1_000);
        assertEquals(":0\r\n", harness.reply("EXPIRE", "foo", "10"));
        assertEquals(":0\r\n", harness.reply("EXISTS", "foo"));
    }

    @Test
    void persistUndoesAnExpire()
    {
        set("x");
        harness.reply("EXPIRE", "x", "50");
        assertEquals(":50\r\n", harness.reply("TTL", "x"));
        assertEquals(":1\r\n", harness.reply("PERSIST", "x"));
        assertEquals(":-1\r\n", harness.reply("TTL", "x"));
        assertEquals("v", new String(harness.store.get(bytes("x")), StandardCharsets.UTF_8));
        harness.advanceMillis(100_000);
        assertEquals(":1\r\n", harness.reply("EXISTS", "x"));
    }

    @Test
    void persistRepliesZeroForAMissingOrPersistentKey()
    {
        set("x");
        assertEquals(":0\r\n", harness.reply("PERSIST", "x"));
        assertEquals(":0\r\n", harness.reply("PERSIST", "nokeyatall"));
        setWithTtl("gone", 100);
        harness.advanceMillis(100);
        assertEquals(":0\r\n", harness.reply("PERSIST", "gone"));
    }

    private void set(final String key)
    {
        harness.store.set(bytes(key), bytes("v"));
    }

    private void setWithTtl(final String key, final long ttlMillis)
    {
        harness.store.set(bytes(key), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, harness.clock.time() + ttlMillis);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
