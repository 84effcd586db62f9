package io.agni.protocol.command;

import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DEL, UNLINK, EXISTS, TYPE, RANDOMKEY, RENAME, RENAMENX, and the arity of every keyspace command.
 */
class KeyspaceCommandsTest
{
    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    @Test
    void delRemovesTheKeysAndCountsThoseThatExisted()
    {
        set("a", "1");
        set("b", "2");
        assertEquals(":2\r\n", harness.reply("DEL", "a", "b", "missing"));
        assertNull(get("a"));
        assertNull(get("b"));
        assertEquals(":0\r\n", harness.reply("DEL", "a"));
    }

    @Test
    void delCountsARepeatedKeyOnce()
    {
        set("a", "1");
        assertEquals(":1\r\n", harness.reply("DEL", "a", "a"));
    }

    @Test
    void delDoesNotCountAnExpiredKey()
    {
        setWithTtl("a", 100);
        harness.advanceMillis(100);
        assertEquals(":0\r\n", harness.reply("DEL", "a"));
    }

    @Test
    void delIsBinarySafe()
    {
        final byte[] key = {'k', 0, '\r', '\n', (byte)0xff};
        harness.store.set(key, bytes("v"));
        assertEquals(":1\r\n", harness.reply(bytes("DEL"), key));
        assertNull(harness.store.get(key));
    }

    @Test
    void anEmptyKeyIsAKeyLikeAnyOther()
    {
        set("", "empty");
        assertEquals(":1\r\n", harness.reply("EXISTS", ""));
        assertEquals("+string\r\n", harness.reply("TYPE", ""));
        assertEquals(":1\r\n", harness.reply("EXPIRE", "", "100"));
        assertEquals(":100\r\n", harness.reply("TTL", ""));
        assertEquals("+OK\r\n", harness.reply("RENAME", "", "k"));
        assertEquals("+OK\r\n", harness.reply("RENAME", "k", ""));
        assertEquals(":1\r\n", harness.reply("DEL", ""));
        assertEquals(":0\r\n", harness.reply("EXISTS", ""));
    }

    @Test
    void unlinkRemovesKeysAsDel()
    {
        set("a", "1");
        set("b", "2");
        assertEquals(":2\r\n", harness.reply("UNLINK", "a", "b", "c"));
        assertEquals(":0\r\n", harness.reply("EXISTS", "a", "b"));
    }

    @Test
    void existsCountsEveryArgumentIncludingDuplicates()
    {
        set("a", "1");
        assertEquals(":3\r\n", harness.reply("EXISTS", "a", "a", "missing", "a"));
        assertEquals(":1\r\n", harness.reply("EXISTS", "a"));
        assertEquals(":0\r\n", harness.reply("EXISTS", "missing"));
    }

    @Test
    void existsDoesNotCountAnExpiredKey()
    {
        setWithTtl("a", 100);
        assertEquals(":1\r\n", harness.reply("EXISTS", "a"));
        harness.advanceMillis(100);
        assertEquals(":0\r\n", harness.reply("EXISTS", "a"));
    }

    @Test
    void typeIsStringForAPresentKeyAndNoneOtherwise()
    {
        set("a", "1");
        setWithTtl("soon", 100);
        assertEquals("+string\r\n", harness.reply("TYPE", "a"));
        assertEquals("+none\r\n", harness.reply("TYPE", "missing"));
        assertEquals("+string\r\n", harness.reply("TYPE", "soon"));
        harness.advanceMillis(100);
        assertEquals("+none\r\n", harness.reply("TYPE", "soon"));
    }

    @Test
    void commandNamesAndOptionsIgnoreCase()
    {
        set("a", "1");
        assertEquals(":1\r\n", harness.reply("exists", "a"));
        assertEquals("+string\r\n", harness.reply("tYpE", "a"));
        assertEquals(":1\r\n", harness.reply("expire", "a", "100", "nx"));
        assertEquals(":1\r\n", harness.reply("Del", "a"));
    }

    @Test
    void randomKeyIsNullWhenTheStoreIsEmpty()
    {
        assertEquals("$-1\r\n", harness.reply("RANDOMKEY"));
    }

    @Test
    void randomKeyReturnsTheOnlyKey()
    {
        set("foo", "bar");
        assertEquals("$3\r\nfoo\r\n", harness.reply("RANDOMKEY"));
    }

    @Test
    void randomKeyReturnsOneOfThePresentKeys()
    {
        final Set<String> replies = Set.of("$1\r\na\r\n", "$1\r\nb\r\n", "$1\r\nc\r\n");
        set("a", "1");
        set("b", "2");
        set("c", "3");
        for (int i = 0; i < 20; i++)
        {
            final String reply = harness.reply("RANDOMKEY");
            assertTrue(replies.contains(reply), reply);
        }
    }

    @Test
    void randomKeyNeverReturnsAnExpiredKey()
    {
        setWithTtl("gone", 100);
        harness.advanceMillis(100);
        assertEquals("$-1\r\n", harness.reply("RANDOMKEY"));
    }

    @Test
    void renameMovesTheValue()
    {
        set("a", "hello");
        assertEquals("+OK\r\n", harness.reply("RENAME", "a", "b"));
        assertNull(get("a"));
        assertEquals("hello", get("b"));
    }

    @Test
    void renameOfAMissingKeyIsAnError()
    {
        assertEquals("-ERR no such key\r\n", harness.reply("RENAME", "missing", "b"));
        setWithTtl("expired", 100);
        harness.advanceMillis(100);
        assertEquals("-ERR no such key\r\n", harness.reply("RENAME", "expired", "b"));
        assertEquals(":0\r\n", harness.reply("EXISTS", "b"));
    }

    @Test
    void renameKeepsTheTtl()
    {
        setWithTtl("a", 10_000);
        assertEquals("+OK\r\n", harness.reply("RENAME", "a", "b"));
        assertEquals(":10000\r\n", harness.reply("PTTL", "b"));
        assertEquals(":-2\r\n", harness.reply("PTTL", "a"));
    }

    @Test
    void renameReplacesTheTargetAndItsTtl()
    {
        set("a", "new");
        setWithTtl("b", 10_000);
        assertEquals("+OK\r\n", harness.reply("RENAME", "a", "b"));
        assertEquals("new", get("b"));
        assertEquals(":-1\r\n", harness.reply("TTL", "b"));
    }

    @Test
    void renameToTheSameKeyIsOkAndChangesNothing()
    {
        setWithTtl("a", 5_000);
        assertEquals("+OK\r\n", harness.reply("RENAME", "a", "a"));
        assertEquals("v", get("a"));
        assertEquals(":5000\r\n", harness.reply("PTTL", "a"));
        assertEquals("-ERR no such key\r\n", harness.reply("RENAME", "missing", "missing"));
    }

    @Test
    void renamenxOnAnExistingTargetRepliesZeroAndChangesNothing()
    {
        set("a", "1");
        set("b", "2");
        assertEquals(":0\r\n", harness.reply("RENAMENX", "a", "b"));
        assertEquals("1", get("a"));
        assertEquals("2", get("b"));
    }

    @Test
    void renamenxToAFreeKeyRepliesOneAndKeepsTheTtl()
    {
        setWithTtl("a", 3_000);
        assertEquals(":1\r\n", harness.reply("RENAMENX", "a", "b"));
        assertNull(get("a"));
        assertEquals(":3000\r\n", harness.reply("PTTL", "b"));
    }

    @Test
    void renamenxOverAnExpiredTargetRepliesOne()
    {
        set("a", "1");
        setWithTtl("b", 100);
        harness.advanceMillis(100);
        assertEquals(":1\r\n", harness.reply("RENAMENX", "a", "b"));
        assertEquals("1", get("b"));
    }

    @Test
    void renamenxOfAMissingKeyIsAnError()
    {
        assertEquals("-ERR no such key\r\n", harness.reply("RENAMENX", "missing", "b"));
    }

    @Test
    void renamenxToTheSameKeyRepliesZero()
    {
        set("a", "1");
        assertEquals(":0\r\n", harness.reply("RENAMENX", "a", "a"));
        assertEquals("1", get("a"));
    }

    @ParameterizedTest
    @MethodSource("wrongArity")
    void wrongArityGetsRedisText(final String name, final String[] args)
    {
        assertEquals("-ERR wrong number of arguments for '" + name + "' command\r\n", harness.reply(args));
    }

    static Stream<Arguments> wrongArity()
    {
        return Stream.of(
            arity("del", "DEL"),
            arity("unlink", "UNLINK"),
            arity("exists", "EXISTS"),
            arity("type", "TYPE"),
            arity("type", "TYPE", "a", "b"),
            arity("expire", "EXPIRE", "a"),
            arity("pexpire", "PEXPIRE", "a"),
            arity("expireat", "EXPIREAT", "a"),
            arity("pexpireat", "PEXPIREAT", "a"),
            arity("ttl", "TTL"),
            arity("ttl", "TTL", "a", "b"),
            arity("pttl", "PTTL", "a", "b"),
            arity("expiretime", "EXPIRETIME"),
            arity("pexpiretime", "PEXPIRETIME", "a", "b"),
            arity("persist", "PERSIST"),
            arity("persist", "PERSIST", "a", "b"),
            arity("scan", "SCAN"),
            arity("keys", "KEYS"),
            arity("keys", "KEYS", "*", "b"),
            arity("randomkey", "RANDOMKEY", "a"),
            arity("rename", "RENAME", "a"),
            arity("rename", "RENAME", "a", "b", "c"),
            arity("renamenx", "RENAMENX", "a"),
            arity("renamenx", "RENAMENX", "a", "b", "c"));
    }

    private static Arguments arity(final String name, final String... args)
    {
        return Arguments.of(name, args);
    }

    @Test
    void everyKeyspaceCommandIsRegisteredWithRedisArity()
    {
        final CommandTable table = harness.processor.table();
        assertEquals(-2, table.lookup("del").arity());
        assertEquals(-2, table.lookup("unlink").arity());
        assertEquals(-2, table.lookup("exists").arity());
        assertEquals(2, table.lookup("type").arity());
        assertEquals(-3, table.lookup("expire").arity());
        assertEquals(-3, table.lookup("pexpire").arity());
        assertEquals(-3, table.lookup("expireat").arity());
        assertEquals(-3, table.lookup("pexpireat").arity());
        assertEquals(2, table.lookup("ttl").arity());
        assertEquals(2, table.lookup("pttl").arity());
        assertEquals(2, table.lookup("expiretime").arity());
        assertEquals(2, table.lookup("pexpiretime").arity());
        assertEquals(2, table.lookup("persist").arity());
        assertEquals(-2, table.lookup("scan").arity());
        assertEquals(2, table.lookup("keys").arity());
        assertEquals(1, table.lookup("randomkey").arity());
        assertEquals(3, table.lookup("rename").arity());
        assertEquals(3, table.lookup("renamenx").arity());
        final Command rename = table.lookup("rename");
        assertArrayEquals(new int[]{1, 2, 1}, new int[]{rename.firstKey(), rename.lastKey(), rename.keyStep()});
        final Command del = table.lookup("del");
        assertArrayEquals(new int[]{1, -1, 1}, new int[]{del.firstKey(), del.lastKey(), del.keyStep()});
    }

    private void set(final String key, final String value)
    {
        harness.store.set(bytes(key), bytes(value));
    }

    private void setWithTtl(final String key, final long ttlMillis)
    {
        harness.store.set(bytes(key), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, harness.clock.time() + ttlMillis);
    }

    private String get(final String key)
    {
        final byte[] value = harness.store.get(bytes(key));
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
