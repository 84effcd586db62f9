package io.agni.protocol.command;

import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INFO, DBSIZE, FLUSHDB, FLUSHALL and TIME.
 */
class ServerCommandsTest
{
    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    // INFO

    @Test
    void infoWithoutArgumentsRepliesEverySectionInRedisOrder()
    {
        assertEquals(
            List.of("# Server", "# Clients", "# Memory", "# Persistence", "# Stats", "# Replication", "# CPU",
                "# Modules", "# Errorstats", "# Cluster", "# Keyspace"),
            headers(info()));
        assertEquals(headers(info()), headers(info("default")));
        for (final String selector : new String[]{ "all", "everything", "EVERYTHING" })
        {
            assertEquals(
                List.of("# Server", "# Clients", "# Memory", "# Persistence", "# Stats", "# Replication", "# CPU",
                    "# Modules", "# Commandstats", "# Errorstats", "# Latencystats", "# Cluster", "# Keyspace"),
                headers(info(selector)), selector);
        }
    }

    @Test
    void infoIsOneBulkOfSectionsSeparatedByABlankLine()
    {
        final String reply = harness.reply("INFO", "server", "clients");
        final int headerEnd = reply.indexOf("\r\n");
        final String body = reply.substring(headerEnd + 2, reply.length() - 2);
        assertEquals(Integer.parseInt(reply.substring(1, headerEnd)), body.getBytes(StandardCharsets.UTF_8).length);
        assertTrue(body.startsWith("# Server\r\nredis_version:7.2.4\r\n"), body);
        assertTrue(body.contains("\r\n\r\n# Clients\r\nconnected_clients:1\r\n"), body);
        assertTrue(body.endsWith("\r\n"));
        for (final String line : body.split("\r\n"))
        {
            assertTrue(line.isEmpty() || line.startsWith("# ") || line.matches("[a-z_0-9]+:[^\r\n]*"), line);
        }
    }

    @Test
    void infoSelectsSectionsIgnoringCaseInRedisOrder()
    {
        assertEquals(List.of("# Server", "# Keyspace"), headers(info("KEYSPACE", "Server")));
        assertEquals(List.of("# Memory"), headers(info("memory", "memory", "nosuchsection")));
    }

    @Test
    void infoOfOnlyUnknownSectionsIsAnEmptyBulk()
    {
        assertEquals("$0\r\n\r\n", harness.reply("INFO", "nosuchsection"));
        assertEquals("$0\r\n\r\n", harness.reply("INFO", "latency", "commands"));
    }

    @Test
    void infoServerHasTheFieldsToolsRead()
    {
        harness.advanceMillis(90_061_000);
        final String server = info("server");
        assertTrue(server.contains("redis_version:7.2.4\r\n"));
        assertTrue(server.contains("\r\nagni_version:"));
        assertTrue(server.contains("\r\nredis_mode:standalone\r\n"));
        assertTrue(server.contains("\r\narch_bits:64\r\n") || server.contains("\r\narch_bits:32\r\n"));
        assertTrue(server.contains("\r\nprocess_id:" + ProcessHandle.current().pid() + "\r\n"));
        assertTrue(server.contains("\r\ntcp_port:0\r\n"));
        assertTrue(server.contains("\r\nserver_time_usec:" + (CommandHarness.START_MILLIS + 90_061_000) * 1000 + "\r\n"));
        assertTrue(server.contains("\r\nuptime_in_seconds:90061\r\nuptime_in_days:1\r\n"));
    }

    @Test
    void infoClientsCountsTheSessions()
    {
        harness.newSession(2);
        harness.newSession(3);
        final String clients = info("clients");
        assertTrue(clients.contains("connected_clients:3\r\n"));
        assertTrue(clients.contains("maxclients:10000\r\n"));
    }

    @Test
    void infoMemoryReportsTheStoreBudgetAndUsage()
    {
        final String memory = info("memory");
        assertTrue(memory.contains("\r\nmaxmemory:1073741824\r\nmaxmemory_human:1.00G\r\n"), memory);
        assertTrue(memory.contains("\r\nmaxmemory_policy:noeviction\r\n"));
        final long used = harness.store.stats().offHeapBytes();
        assertTrue(memory.contains("\r\nused_memory:" + used + "\r\nused_memory_human:" +
            ServerInfoCommand.humanBytes(used) + "\r\n"), memory);
    }

    @Test
    void infoStatsCountsHitsMissesAndExpiredKeys()
    {
        harness.store.set(bytes("k"), bytes("v"));
        harness.store.get(bytes("k"));
        harness.store.get(bytes("k"));
        harness.store.get(bytes("absent"));
        final String stats = info("stats");
        assertTrue(stats.contains("\r\nkeyspace_hits:2\r\nkeyspace_misses:1\r\n"), stats);
        assertTrue(stats.contains("\r\nexpired_keys:0\r\nevicted_keys:0\r\n"), stats);
    }

    @Test
    void infoKeyspaceHasNoDb0LineWhileTheStoreIsEmpty()
    {
        assertEquals("# Keyspace\r\n", info("keyspace"));
    }

    @Test
    void infoKeyspaceCountsKeysAndKeysWithAnExpiry()
    {
        harness.store.set(bytes("a"), bytes("1"));
        harness.store.set(bytes("b"), bytes("2"));
        harness.store.set(bytes("c"), bytes("3"), SetCondition.ALWAYS, ExpiryMode.AT,
            CommandHarness.START_MILLIS + 60_000);
        assertEquals("# Keyspace\r\ndb0:keys=3,expires=1,avg_ttl=0\r\n", info("keyspace"));
        harness.store.clear();
        assertEquals("# Keyspace\r\n", info("keyspace"));
    }

    @ParameterizedTest
    @CsvSource({
        "0, 0B", "1023, 1023B", "1024, 1.00K", "1536, 1.50K", "1152, 1.12K", "1048575, 1024.00K",
        "1048576, 1.00M", "268435456, 256.00M", "1073741824, 1.00G", "1099511627776, 1.00T",
        "1125899906842624, 1.00P", "1152921504606846976, 1152921504606846976B" })
    void humanBytesFormatsAsRedis(final long bytes, final String human)
    {
        assertEquals(human, ServerInfoCommand.humanBytes(bytes));
    }

    // DBSIZE, FLUSHDB, FLUSHALL

    @Test
    void dbsizeCountsTheKeys()
    {
        assertEquals(":0\r\n", harness.reply("DBSIZE"));
        harness.store.set(bytes("a"), bytes("1"));
        harness.store.set(bytes("b"), bytes("2"));
        assertEquals(":2\r\n", harness.reply("dbsize"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "FLUSHDB", "FLUSHALL", "FLUSHDB ASYNC", "FLUSHALL SYNC", "flushall async", "flushdb sync" })
    void flushRemovesEveryKey(final String command)
    {
        harness.store.set(bytes("a"), bytes("1"));
        harness.store.set(bytes("b"), bytes("2"));
        assertEquals("+OK\r\n", harness.reply(command.split(" ")));
        assertEquals(0, harness.store.size());
    }

    @ParameterizedTest
    @ValueSource(strings = { "FLUSHDB LAZY", "FLUSHALL ASYNC SYNC", "FLUSHALL 0" })
    void flushWithAnotherArgumentIsASyntaxErrorAndFlushesNothing(final String command)
    {
        harness.store.set(bytes("a"), bytes("1"));
        assertEquals("-ERR syntax error\r\n", harness.reply(command.split(" ")));
        assertEquals(1, harness.store.size());
    }

    // TIME

    @Test
    void timeRepliesSecondsAndMicrosecondsFromTheClock()
    {
        assertEquals("*2\r\n$10\r\n1700000000\r\n$1\r\n0\r\n", harness.reply("TIME"));
        harness.advanceMillis(1_234);
        assertEquals("*2\r\n$10\r\n1700000001\r\n$6\r\n234000\r\n", harness.reply("time"));
    }

    // wrong arity

    @ParameterizedTest
    @ValueSource(strings = { "dbsize x", "time x", "config" })
    void wrongArityGetsRedisText(final String command)
    {
        final String[] args = command.split(" ");
        assertEquals("-ERR wrong number of arguments for '" + args[0] + "' command\r\n", harness.reply(args));
    }

    @Test
    void infoAndFlushAcceptAnyArgumentCount()
    {
        assertFalse(harness.reply("INFO", "a", "b", "c", "d").startsWith("-"));
        assertTrue(harness.reply("FLUSHALL", "a", "b").startsWith("-ERR syntax error"));
    }

    private String info(final String... sections)
    {
        final String[] args = new String[sections.length + 1];
        args[0] = "INFO";
        System.arraycopy(sections, 0, args, 1, sections.length);
        final String reply = harness.reply(args);
        return reply.substring(reply.indexOf("\r\n") + 2, reply.length() - 2);
    }

    private static List<String> headers(final String info)
    {
        final List<String> headers = new ArrayList<>();
        for (final String line : info.split("\r\n"))
        {
            if (line.startsWith("#"))
            {
                headers.add(line);
            }
        }
        return headers;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
