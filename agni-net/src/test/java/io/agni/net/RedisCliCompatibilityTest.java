package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real {@code redis-cli} (7.x) against an {@link AgniServer} on an ephemeral loopback port: one-shot commands
 * in raw and {@code --no-raw} output, commands read from standard input, raw inline commands through
 * {@code --pipe}, Redis's error texts, and {@code -a} against a password. The same one-shot command lines are also
 * run against a real {@code redis-server} and must print the same.
 * <p>
 * Needs {@code redis-cli} (and {@code redis-server} for the comparison) on the PATH: skipped with a message when
 * missing, failed when the {@code CI} environment variable is set.
 */
@Tag("redis")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("socket")
class RedisCliCompatibilityTest
{
    private static final long TOOL_TIMEOUT_S = 30;
    private static final String PASSWORD = "cli-secret";

    private static Path redisCli;
    private static AgniStore store;
    private static AgniServer server;

    @BeforeAll
    static void startServer()
    {
        store = newStore();
        server = serverOn(store).build().start();
    }

    @AfterAll
    static void stopServer()
    {
        closeQuietly(server);
        closeQuietly(store);
    }

    @BeforeEach
    void findRedisCliAndEmptyTheStore()
    {
        // per test, not per class, so that a missing tool shows as each test skipped (or failed under CI)
        redisCli = RedisServerProcess.requireTool("redis-cli");
        store.clear();
    }

    private static ExternalTool.Result cli(final int port, final String stdin, final String... args)
    {
        final List<String> command = new ArrayList<>(List.of(
            redisCli.toString(), "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        final ExternalTool.Result result = ExternalTool.run(TOOL_TIMEOUT_S, stdin, command);
        assertEquals(0, result.exitCode(), result::toString);
        return result;
    }

    private static String cli(final String... args)
    {
        return cli(server.port(), null, args).output();
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void oneShotSetAndGetInRawAndQuotedOutput()
    {
        assertEquals("OK\n", cli("set", "greeting", "hello world"));
        assertEquals("hello world\n", cli("get", "greeting"));
        assertEquals("\"hello world\"\n", cli("--no-raw", "get", "greeting"));
        assertEquals("\n", cli("get", "nope"));
        assertEquals("(nil)\n", cli("--no-raw", "get", "nope"));
        assertArrayEquals(bytes("hello world"), store.get(bytes("greeting")));
    }

    @Test
    void oneShotCountersMultiKeyAndExpiry()
    {
        assertEquals("1\n", cli("incr", "visits"));
        assertEquals("42\n", cli("incrby", "visits", "41"));
        assertEquals("(integer) 43\n", cli("--no-raw", "incr", "visits"));
        assertEquals("OK\n", cli("mset", "a", "1", "b", "2"));
        assertEquals("1\n2\n\n", cli("mget", "a", "b", "nope"));
        assertEquals("1) \"1\"\n2) \"2\"\n3) (nil)\n", cli("--no-raw", "mget", "a", "b", "nope"));
        assertEquals("1\n", cli("expire", "a", "100"));
        final long ttl = Long.parseLong(cli("ttl", "a").strip());
        assertTrue(ttl > 90 && ttl <= 100, "ttl " + ttl);
        assertEquals("-1\n", cli("ttl", "b"));
        assertEquals("-2\n", cli("ttl", "nope"));
        assertEquals("1\n", cli("del", "a"));
        assertEquals("0\n", cli("exists", "a"));
    }

    @Test
    void oneShotScanWalksEveryMatchingKey()
    {
        final Set<String> expected = new HashSet<>();
        for (int i = 0; i < 50; i++)
        {
            store.set(bytes("user:" + i), bytes("v"));
            store.set(bytes("other:" + i), bytes("v"));
            expected.add("user:" + i);
        }
        final Set<String> seen = new HashSet<>();
        String cursor = "0";
        int calls = 0;
        do
        {
            final List<String> lines = cli(server.port(), null, "scan", cursor, "match", "user:*", "count", "20")
                .lines();
            cursor = lines.get(0);
            seen.addAll(lines.subList(1, lines.size()));
            assertTrue(++calls < 1_000, "SCAN never returned cursor 0");
        }
        while (!"0".equals(cursor));
        assertEquals(expected, seen);
    }

    @Test
    void errorRepliesAreRedisTexts()
    {
        cli("set", "s", "not a number");
        assertEquals("ERR value is not an integer or out of range\n\n", cli("incr", "s"));
        assertEquals("(error) ERR value is not an integer or out of range\n", cli("--no-raw", "incr", "s"));
        assertEquals("ERR unknown command 'lpush', with args beginning with: 'l' 'a' \n\n",
            cli("lpush", "l", "a"));
        assertEquals("ERR wrong number of arguments for 'get' command\n\n", cli("get"));
        // agni has one database, so any other index is out of range (Redis has 16 by default)
        assertEquals("ERR DB index is out of range\n\n", cli("select", "1"));
    }

    @Test
    void commandsReadFromStandardInput()
    {
        final ExternalTool.Result result = cli(server.port(), "PING\nSET a \"b c\"\nGET a\nINCR n\nINCR n\n");
        assertEquals(List.of("PONG", "OK", "b c", "1", "2"), result.lines());
    }

    @Test
    void pipeModeSendsInlineCommandsAsTheyAre()
    {
        final ExternalTool.Result result = cli(
            server.port(), "PING\r\nSET a b\r\nINCR n\r\nINCRBY n 9\r\nGET a\r\n", "--pipe");
        assertTrue(result.output().contains("errors: 0, replies: 5"), result::toString);
        assertArrayEquals(bytes("b"), store.get(bytes("a")));
        assertArrayEquals(bytes("10"), store.get(bytes("n")));
    }

    @Test
    void passwordFromTheCommandLineAuthenticates()
    {
        try (AgniServer secured = serverOn(store).password(PASSWORD).build().start())
        {
            final int port = secured.port();
            assertEquals("NOAUTH Authentication required.\n\n", cli(port, null, "ping").output(), "as Redis 7");
            assertEquals("PONG\n", cli(port, null, "-a", PASSWORD, "--no-auth-warning", "ping").output());
            assertEquals("NOAUTH Authentication required.\n\n", cli(port, null, "set", "k", "v").output());
            assertEquals("OK\n", cli(port, null, "-a", PASSWORD, "--no-auth-warning", "set", "k", "v").output());
            assertEquals("v\n", cli(port, null, "-a", PASSWORD, "--no-auth-warning", "get", "k").output());
            final String wrong = cli(port, null, "-a", "wrong", "--no-auth-warning", "get", "k").output();
            assertTrue(wrong.contains("AUTH failed: WRONGPASS invalid username-password pair or user is disabled."),
                wrong);
            assertTrue(wrong.contains("NOAUTH Authentication required."), wrong);
        }
    }

    @Test
    void printsWhatRedisPrintsForTheSameCommandLines()
    {
        final List<List<String>> script = List.of(
            List.of("set", "k", "v"),
            List.of("get", "k"),
            List.of("--no-raw", "get", "k"),
            List.of("get", "nope"),
            List.of("--no-raw", "get", "nope"),
            List.of("set", "k", "w", "nx"),
            List.of("--no-raw", "set", "k", "w", "nx"),
            List.of("set", "k", "w", "xx", "get"),
            List.of("append", "k", "123"),
            List.of("strlen", "k"),
            List.of("getrange", "k", "1", "-1"),
            List.of("incr", "k"),
            List.of("--no-raw", "incr", "k"),
            List.of("incr", "n"),
            List.of("incrbyfloat", "n", "1.5"),
            List.of("--no-raw", "mset", "a", "1", "b", "2"),
            List.of("--no-raw", "mget", "a", "b", "nope"),
            List.of("msetnx", "a", "3", "c", "4"),
            List.of("expire", "a", "1000"),
            List.of("ttl", "b"),
            List.of("persist", "a"),
            List.of("--no-raw", "exists", "a", "b", "nope"),
            List.of("type", "a"),
            List.of("type", "nope"),
            List.of("rename", "nope", "x"),
            List.of("--no-raw", "del", "a", "b", "nope"),
            List.of("ping"),
            List.of("ping", "hello"),
            List.of("echo", "hi"),
            List.of("select", "0"),
            List.of("get"),
            List.of("nosuchcommand", "a", "b"),
            List.of("--no-raw", "client", "nosuch"),
            List.of("--no-raw", "config", "get", "appendonly"));
        try (RedisServerProcess redis = RedisServerProcess.start())
        {
            for (final List<String> line : script)
            {
                final String[] args = line.toArray(new String[0]);
                assertEquals(cli(redis.port(), null, args).output(), cli(server.port(), null, args).output(),
                    "redis-cli " + String.join(" ", line));
            }
        }
    }
}
