package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SCAN and KEYS: cases from the Redis command reference and Redis's tests/unit/scan.tcl and keyspace.tcl.
 */
class KeyspaceScanCommandsTest
{
    private static final int MAX_STEPS = 100_000;

    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    @Test
    void scanOfAnEmptyStoreEndsAtCursorZeroWithNoKeys()
    {
        final List<String> keys = scanAll("SCAN", "%s");
        assertEquals(List.of(), keys);
    }

    @Test
    void scanRepliesTheCursorAsABulkStringAndTheKeysAsAnArray()
    {
        set("foo");
        String cursor = "0";
        final List<String> replies = new ArrayList<>();
        do
        {
            final String reply = harness.reply("SCAN", cursor);
            assertTrue(reply.matches("\\*2\r\n\\$\\d+\r\n\\d+\r\n\\*[01]\r\n(\\$3\r\nfoo\r\n)?"), reply);
            replies.add(reply);
            cursor = parse(reply).cursor;
        }
        while (!cursor.equals("0"));
        assertTrue(replies.get(replies.size() - 1).startsWith("*2\r\n$1\r\n0\r\n*"), replies.toString());
        assertEquals(1, replies.stream().filter(r -> r.endsWith("*1\r\n$3\r\nfoo\r\n")).count(), replies.toString());
    }

    @Test
    void scanReturnsEveryKey()
    {
        populate("key:", 1000);
        final List<String> keys = scanAll("SCAN", "%s");
        assertEquals(1000, new HashSet<>(keys).size());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 10, 50, 100})
    void scanWithAnyCountReturnsEveryKey(final int count)
    {
        populate("key:", 1000);
        final List<String> keys = scanAll("SCAN", "%s", "COUNT", Integer.toString(count));
        assertEquals(1000, new HashSet<>(keys).size());
    }

    @Test
    void scanWithACountAboveTheIndexReturnsASmallKeyspaceInOneCall()
    {
        populate("key:", 10);
        final ScanPage page = parse(harness.reply("SCAN", "0", "COUNT", "1000"));
        assertEquals("0", page.cursor);
        assertEquals(10, new HashSet<>(page.keys).size());
    }

    @Test
    void scanWithAHugeCountIsAccepted()
    {
        populate("key:", 100);
        final List<String> keys = scanAll("SCAN", "%s", "count", Long.toString(Long.MAX_VALUE));
        assertEquals(100, new HashSet<>(keys).size());
    }

    @Test
    void scanWithMatchReturnsOnlyMatchingKeys()
    {
        populate("key:", 1000);
        final Set<String> keys = new HashSet<>(scanAll("SCAN", "%s", "MATCH", "key:1??"));
        final Set<String> expected = new HashSet<>();
        for (int i = 100; i < 200; i++)
        {
            expected.add("key:" + i);
        }
        assertEquals(expected, keys);
    }

    @Test
    void scanWithMatchStarReturnsEveryKey()
    {
        populate("key:", 100);
        assertEquals(100, new HashSet<>(scanAll("SCAN", "%s", "match", "*")).size());
    }

    @Test
    void scanWithTypeStringReturnsEveryKeyInAnyCase()
    {
        populate("key:", 100);
        assertEquals(100, new HashSet<>(scanAll("SCAN", "%s", "TYPE", "string")).size());
        assertEquals(100, new HashSet<>(scanAll("SCAN", "%s", "type", "STRING")).size());
    }

    @Test
    void scanWithAnyOtherTypeWalksTheWholeCursorButReturnsNoKeys()
    {
        populate("key:", 100);
        assertEquals(List.of(), scanAll("SCAN", "%s", "TYPE", "list"));
        assertEquals(List.of(), scanAll("SCAN", "%s", "TYPE", "hash"));
        assertEquals(List.of(), scanAll("SCAN", "%s", "TYPE", "string1"));
    }

    @Test
    void scanWithMatchCountAndTypeTogether()
    {
        populate("key:", 1000);
        populate("other:", 100);
        final Set<String> keys = new HashSet<>(scanAll("SCAN", "%s", "TYPE", "string", "MATCH", "other:*", "COUNT", "7"));
        assertEquals(100, keys.size());
        assertTrue(keys.stream().allMatch(k -> k.startsWith("other:")), keys.toString());
    }

    @Test
    void scanCountZeroOrNegativeIsASyntaxError()
    {
        assertEquals("-ERR syntax error\r\n", harness.reply("SCAN", "0", "COUNT", "0"));
        assertEquals("-ERR syntax error\r\n", harness.reply("SCAN", "0", "COUNT", "-1"));
        assertEquals("-ERR syntax error\r\n", harness.reply("SCAN", "0", "MATCH", "*", "COUNT", "0"));
    }

    @Test
    void scanCountThatIsNotAnIntegerIsAnError()
    {
        final String error = "-ERR value is not an integer or out of range\r\n";
        assertEquals(error, harness.reply("SCAN", "0", "COUNT", "abc"));
        assertEquals(error, harness.reply("SCAN", "0", "COUNT", "1.5"));
        assertEquals(error, harness.reply("SCAN", "0", "COUNT", "9223372036854775808"));
    }

    @Test
    void scanOptionsThatAreUnknownOrLackAValueAreASyntaxError()
    {
        assertEquals("-ERR syntax error\r\n", harness.reply("SCAN", "0", "COUNT"));
        assertEquals("-ERR syntax error\r\n", harness.reply("SCAN", "0", "MATCH"));
        assertEquals("-ERR syntax error\r\n", harness.reply("SCAN", "0", "TYPE"));
        assertEquals("-ERR syntax error\r\n", harness.reply("SCAN", "0", "FOO", "bar"));
        assertEquals("-ERR syntax error\r\n", harness.reply("SCAN", "0", "COUNT", "10", "MATCH"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "", "-1", "-0", " 1", "1 ", "1.5", "+", "0x10", "18446744073709551616",
        "99999999999999999999"})
    void scanWithACursorThatIsNotAnUnsignedIntegerIsAnInvalidCursor(final String cursor)
    {
        assertEquals("-ERR invalid cursor\r\n", harness.reply("SCAN", cursor));
    }

    @Test
    void scanChecksTheCursorBeforeTheOptions()
    {
        assertEquals("-ERR invalid cursor\r\n", harness.reply("SCAN", "abc", "COUNT", "0"));
    }

    @Test
    void scanReadsACursorWithAPlusOrLeadingZerosAsRedisDoes()
    {
        populate("key:", 20);
        final String first = harness.reply("SCAN", "0", "COUNT", "5");
        assertEquals(first, harness.reply("SCAN", "+0", "COUNT", "5"));
        assertEquals(first, harness.reply("SCAN", "000", "COUNT", "5"));
        final String next = parse(first).cursor;
        assertTrue(!next.equals("0"), "a cursor that continues the scan");
        assertEquals(harness.reply("SCAN", next), harness.reply("SCAN", "00" + next));
    }

    @Test
    void scanWithACursorTheStoreCouldNotHaveReturnedIsAnInvalidCursor()
    {
        assertEquals("-ERR invalid cursor\r\n", harness.reply("SCAN", "18446744073709551615"));
        assertEquals("-ERR invalid cursor\r\n", harness.reply("SCAN", "9223372036854775808"));
    }

    @Test
    void scanWithABucketBitTheStoreNeverReturnedIsAnInvalidCursorAndEveryReturnedCursorIsTakenBack()
    {
        populate("key:", 20);
        assertEquals("-ERR invalid cursor\r\n", harness.reply("SCAN", "1"));
        assertEquals("-ERR invalid cursor\r\n", harness.reply("SCAN", Long.toString(1L << 31)));
        assertEquals("*2\r\n", harness.reply("SCAN", Long.toString(1L << 32)).substring(0, 4), "a shard's start");

        String cursor = "0";
        do
        {
            final String reply = harness.reply("SCAN", cursor, "COUNT", "1");
            assertTrue(reply.startsWith("*2\r\n"), reply);
            cursor = parse(reply).cursor;
        }
        while (!cursor.equals("0"));
    }

    @Test
    void scanPassesTheCursorsSixtyFourBitsToTheStoreAndRepliesItsCursorUnsigned()
    {
        final AtomicLong seen = new AtomicLong();
        final AgniStore store = scanOnlyStore((cursor, count) ->
        {
            seen.set(cursor);
            return new ScanResult(-2L, List.of("k".getBytes(StandardCharsets.US_ASCII)));
        });
        assertEquals(
            "*2\r\n$20\r\n18446744073709551614\r\n*1\r\n$1\r\nk\r\n",
            execute(store, "SCAN", "18446744073709551615"));
        assertEquals(-1L, seen.get());
    }

    @Test
    void scanWithAPatternWhileKeysAreAddedReturnsEveryKeyPresentForTheWholeScan()
    {
        populate("k:", 100);
        final Set<String> found = new HashSet<>();
        String cursor = "0";
        int added = 0;
        int steps = 0;
        do
        {
            final ScanPage page = parse(harness.reply("SCAN", cursor, "MATCH", "k:*", "COUNT", "10"));
            for (final String key : page.keys)
            {
                assertTrue(key.startsWith("k:"), key);
                found.add(key);
            }
            cursor = page.cursor;
            for (int i = 0; i < 50; i++, added++)
            {
                set((i % 2 == 0 ? "k:added:" : "other:") + added);
            }
            assertTrue(++steps < MAX_STEPS);
        }
        while (!cursor.equals("0"));

        for (int i = 0; i < 100; i++)
        {
            assertTrue(found.contains("k:" + i), "missing k:" + i);
        }
        assertTrue(added > 1000, "the store should have grown during the scan: added=" + added);
    }

    @Test
    void scanSkipsExpiredKeys()
    {
        populate("key:", 100);
        harness.store.set(bytes("foo"), bytes("bar"), SetCondition.ALWAYS, ExpiryMode.AT, harness.clock.time() + 1);
        harness.advanceMillis(2);
        final Set<String> keys = new HashSet<>(scanAll("SCAN", "%s", "COUNT", "10"));
        assertEquals(100, keys.size());
        assertTrue(!keys.contains("foo"));
    }

    @Test
    void keysOfAnEmptyStoreIsAnEmptyArray()
    {
        assertEquals("*0\r\n", harness.reply("KEYS", "*"));
    }

    @Test
    void keysRepliesAnArrayOfBulkStrings()
    {
        set("foo");
        assertEquals("*1\r\n$3\r\nfoo\r\n", harness.reply("KEYS", "*"));
        assertEquals("*1\r\n$3\r\nfoo\r\n", harness.reply("KEYS", "f*"));
        assertEquals("*0\r\n", harness.reply("KEYS", "g*"));
    }

    @Test
    void keysStarReturnsEveryKeyOnce()
    {
        populate("key:", 1000);
        final List<String> keys = parseArray(harness.reply("KEYS", "*"));
        assertEquals(1000, keys.size());
        assertEquals(1000, new HashSet<>(keys).size());
    }

    @Test
    void keysWithAPatternReturnsTheMatchingKeys()
    {
        populate("key:", 1000);
        final Set<String> keys = new HashSet<>(parseArray(harness.reply("KEYS", "key:1??")));
        assertEquals(100, keys.size());
        assertTrue(keys.stream().allMatch(k -> k.matches("key:1\\d\\d")), keys.toString());
    }

    @Test
    void keysMatchesGlobClassesAsRedis()
    {
        for (final String key : List.of("hello", "hallo", "hxllo", "hllo", "heeeello"))
        {
            set(key);
        }
        assertEquals(Set.of("hello", "hallo", "hxllo"), new HashSet<>(parseArray(harness.reply("KEYS", "h?llo"))));
        assertEquals(
            Set.of("hello", "hallo", "hxllo", "hllo", "heeeello"),
            new HashSet<>(parseArray(harness.reply("KEYS", "h*llo"))));
        assertEquals(Set.of("hello", "hallo"), new HashSet<>(parseArray(harness.reply("KEYS", "h[ae]llo"))));
        assertEquals(Set.of("hallo", "hxllo"), new HashSet<>(parseArray(harness.reply("KEYS", "h[^e]llo"))));
        assertEquals(Set.of("hallo"), new HashSet<>(parseArray(harness.reply("KEYS", "h[a-b]llo"))));
    }

    @Test
    void keysTreatsBracesAsLiteralCharacters()
    {
        for (final String key : List.of("{a}x", "{a}y", "{a}z", "{b}a", "{b}b", "{b}c"))
        {
            set(key);
        }
        assertEquals(Set.of("{a}x", "{a}y", "{a}z"), new HashSet<>(parseArray(harness.reply("KEYS", "{a}*"))));
        assertEquals(Set.of("{b}a", "{b}b", "{b}c"), new HashSet<>(parseArray(harness.reply("KEYS", "*{b}*"))));
    }

    @Test
    @Timeout(10)
    void keysWithManyNestedStarsThatCannotMatchEndsQuickly()
    {
        set("a".repeat(62));
        assertEquals("*0\r\n", harness.reply("KEYS", "a*".repeat(31) + "b"));
    }

    @Test
    @Timeout(10)
    void keysWithAVeryLongPatternOfStarsAndQuestionMarksEndsQuickly()
    {
        set("a".repeat(50_000));
        assertEquals("*0\r\n", harness.reply("KEYS", "*?".repeat(50_000)));
    }

    @Test
    @Timeout(10)
    void scanWithAVeryLongPatternOfStarsAndQuestionMarksMatchesNothing()
    {
        set("a".repeat(50_000));
        populate("key:", 10);
        assertEquals(List.of(), scanAll("SCAN", "%s", "MATCH", "*?".repeat(50_000)));
    }

    @Test
    void aPatternNestingOneThousandStarsStillMatchesButOneMoreMatchesNothingAsRedis()
    {
        set("a".repeat(1001));
        final String key = "$1001\r\n" + "a".repeat(1001) + "\r\n";
        assertEquals("*1\r\n" + key, harness.reply("KEYS", "*a".repeat(1000)));
        assertEquals("*0\r\n", harness.reply("KEYS", "*a".repeat(1001)));
        assertEquals(List.of("a".repeat(1001)), scanAll("SCAN", "%s", "MATCH", "*a".repeat(1000)));
        assertEquals(List.of(), scanAll("SCAN", "%s", "MATCH", "*a".repeat(1001)));
        assertEquals("*1\r\n" + key, harness.reply("KEYS", "*a".repeat(1000) + "*"));
    }

    @Test
    void escapedAndBracketedStarsDoNotCountTowardsTheNestingLimit()
    {
        set("*".repeat(2000));
        final String key = "*1\r\n$2000\r\n" + "*".repeat(2000) + "\r\n";
        assertEquals(key, harness.reply("KEYS", "\\*".repeat(2000)));
        assertEquals(key, harness.reply("KEYS", "[*]".repeat(2000)));
    }

    @Test
    void keysSkipsExpiredKeys()
    {
        set("a");
        set("e");
        harness.store.set(bytes("t"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, harness.clock.time() + 5_000);
        assertEquals(Set.of("a", "e", "t"), new HashSet<>(parseArray(harness.reply("KEYS", "*"))));
        harness.advanceMillis(5_000);
        assertEquals(Set.of("a", "e"), new HashSet<>(parseArray(harness.reply("KEYS", "*"))));
    }

    @Test
    void keysReturnsAKeyOnceEvenWhenTheStoreScanRepeatsIt()
    {
        final AgniStore store = scanOnlyStore((cursor, count) -> cursor == 0 ?
            new ScanResult(7, List.of(bytes("a"), bytes("b"))) :
            new ScanResult(0, List.of(bytes("b"), bytes("c"))));
        assertEquals("*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n", execute(store, "KEYS", "*"));
    }

    @Test
    void keysPassesNoPatternForStarAndThePatternOtherwise()
    {
        final List<byte[]> patterns = new ArrayList<>();
        final AgniStore store = (AgniStore)Proxy.newProxyInstance(
            AgniStore.class.getClassLoader(),
            new Class<?>[]{AgniStore.class},
            (proxy, method, args) ->
            {
                patterns.add((byte[])args[1]);
                return new ScanResult(0, List.of());
            });
        execute(store, "KEYS", "*");
        execute(store, "KEYS", "a*");
        assertEquals(2, patterns.size());
        assertEquals(null, patterns.get(0));
        assertArrayEquals(bytes("a*"), patterns.get(1));
    }

    private interface Scanner
    {
        ScanResult scan(long cursor, int count);
    }

    private static AgniStore scanOnlyStore(final Scanner scanner)
    {
        return (AgniStore)Proxy.newProxyInstance(
            AgniStore.class.getClassLoader(),
            new Class<?>[]{AgniStore.class},
            (proxy, method, args) ->
            {
                if (!method.getName().equals("scan"))
                {
                    throw new UnsupportedOperationException(method.getName());
                }
                return scanner.scan((Long)args[0], (Integer)args[2]);
            });
    }

    private static String execute(final AgniStore store, final String... args)
    {
        final CachedEpochClock clock = new CachedEpochClock();
        final LocalServerContext server = new LocalServerContext(null, 0);
        final CommandProcessor processor = new CommandProcessor(store, server, clock);
        final RespWriter out = new RespWriter(256);
        processor.execute(new Session(1, "127.0.0.1:1", "127.0.0.1:2", 0), RespArgs.of(args), out);
        final byte[] bytes = new byte[out.position()];
        out.buffer().getBytes(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * Runs a SCAN from cursor 0 to the end; {@code %s} in the arguments is replaced by the cursor.
     */
    private List<String> scanAll(final String... template)
    {
        final List<String> keys = new ArrayList<>();
        String cursor = "0";
        int steps = 0;
        do
        {
            final String[] args = template.clone();
            for (int i = 0; i < args.length; i++)
            {
                if (args[i].equals("%s"))
                {
                    args[i] = cursor;
                }
            }
            final ScanPage page = parse(harness.reply(args));
            keys.addAll(page.keys);
            cursor = page.cursor;
            assertTrue(++steps < MAX_STEPS, "the scan does not end");
        }
        while (!cursor.equals("0"));
        return keys;
    }

    private record ScanPage(String cursor, List<String> keys)
    {
    }

    private static ScanPage parse(final String reply)
    {
        assertTrue(reply.startsWith("*2\r\n$"), reply);
        final Reader reader = new Reader(reply, 4);
        final String cursor = reader.bulk();
        return new ScanPage(cursor, reader.array());
    }

    private static List<String> parseArray(final String reply)
    {
        final Reader reader = new Reader(reply, 0);
        final List<String> result = reader.array();
        assertEquals(reply.length(), reader.position, "trailing bytes in " + reply);
        return result;
    }

    private static final class Reader
    {
        private final String text;
        private int position;

        Reader(final String text, final int position)
        {
            this.text = text;
            this.position = position;
        }

        List<String> array()
        {
            final int count = header('*');
            final List<String> elements = new ArrayList<>(count);
            for (int i = 0; i < count; i++)
            {
                elements.add(bulk());
            }
            return elements;
        }

        String bulk()
        {
            final int length = header('$');
            final String value = text.substring(position, position + length);
            assertEquals("\r\n", text.substring(position + length, position + length + 2));
            position += length + 2;
            return value;
        }

        private int header(final char type)
        {
            assertEquals(type, text.charAt(position), text);
            final int end = text.indexOf("\r\n", position);
            final int value = Integer.parseInt(text.substring(position + 1, end));
            position = end + 2;
            return value;
        }
    }

    private void populate(final String prefix, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            set(prefix + i);
        }
    }

    private void set(final String key)
    {
        harness.store.set(bytes(key), bytes("v"));
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
