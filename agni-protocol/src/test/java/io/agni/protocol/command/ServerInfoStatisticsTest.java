package io.agni.protocol.command;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INFO's counters (stats, commandstats, errorstats, cpu, replication, keyspace) and CONFIG RESETSTAT, each field
 * read the way monitoring tools read it ({@link InfoReplyParser}) and checked for what it means.
 */
class ServerInfoStatisticsTest
{
    private final CommandHarness harness = new CommandHarness();

    @AfterEach
    void close()
    {
        harness.close();
    }

    @Test
    void everySectionOfInfoEverythingParsesAsRedisExporterReadsIt()
    {
        harness.reply("SET", "k", "v");
        harness.reply("GET", "k");
        harness.reply("NOSUCH");
        final Map<String, Map<String, String>> info = InfoReplyParser.parseReply(harness.reply("INFO", "everything"));
        assertEquals(
            List.of("Server", "Clients", "Memory", "Persistence", "Stats", "Replication", "CPU", "Modules",
                "Commandstats", "Errorstats", "Latencystats", "Cluster", "Keyspace"),
            List.copyOf(info.keySet()));
        final Map<String, String> memory = info.get("Memory");
        for (final String field : List.of("used_memory", "maxmemory", "maxmemory_policy", "used_memory_peak"))
        {
            assertTrue(memory.containsKey(field), field);
        }
        final Map<String, String> stats = info.get("Stats");
        for (final String field : List.of(
            "total_commands_processed", "instantaneous_ops_per_sec", "keyspace_hits", "keyspace_misses",
            "evicted_keys", "expired_keys", "rejected_connections", "total_connections_received",
            "total_error_replies"))
        {
            assertTrue(stats.get(field).matches("\\d+"), field + "=" + stats.get(field));
        }
        assertEquals("master", info.get("Replication").get("role"));
        assertEquals("0", info.get("Replication").get("connected_slaves"));
        assertEquals("0", info.get("Replication").get("master_repl_offset"));
        assertTrue(info.get("Server").get("run_id").matches("[0-9a-f]{40}"));
        for (final String field : List.of(
            "used_cpu_sys", "used_cpu_user", "used_cpu_sys_children", "used_cpu_user_children",
            "used_cpu_sys_main_thread", "used_cpu_user_main_thread"))
        {
            assertTrue(info.get("CPU").get(field).matches("\\d+\\.\\d{6}"), field + "=" + info.get("CPU").get(field));
        }
        assertTrue(info.get("Modules").isEmpty());
        assertTrue(info.get("Latencystats").isEmpty());
        assertEquals(Map.of("keys", "1", "expires", "0", "avg_ttl", "0"),
            InfoReplyParser.pairs(info.get("Keyspace").get("db0")));
        assertEquals(
            List.of("calls", "usec", "usec_per_call", "rejected_calls", "failed_calls"),
            List.copyOf(InfoReplyParser.pairs(info.get("Commandstats").get("cmdstat_get")).keySet()));
        assertEquals("count=1", info.get("Errorstats").get("errorstat_ERR"));
    }

    @Test
    void commandstatsCountsCallsTimeAndTotalCommandsIsTheirSum()
    {
        harness.reply("SET", "a", "1");
        harness.reply("set", "b", "2");
        harness.reply("SET", "c", "3");
        harness.reply("GET", "a");
        final Map<String, String> set = cmdstat("set");
        assertEquals("3", set.get("calls"));
        assertEquals("0", set.get("rejected_calls"));
        assertEquals("0", set.get("failed_calls"));
        final long usec = Long.parseLong(set.get("usec"));
        final double perCall = Double.parseDouble(set.get("usec_per_call"));
        assertTrue(set.get("usec_per_call").matches("\\d+\\.\\d{2}"), set.get("usec_per_call"));
        assertTrue(perCall >= usec / 3.0 - 0.01 && perCall < (usec + 1) / 3.0 + 0.01, set.toString());
        assertEquals("1", cmdstat("get").get("calls"));
        // the INFO calls made so far by cmdstat() count as well: 4 writes and reads, and 2 INFO
        assertEquals("2", cmdstat("info").get("calls"));
        assertEquals("7", stats().get("total_commands_processed"));
    }

    @Test
    void aCommandRefusedBeforeItRunsIsARejectedCallAndAnErrorReply()
    {
        harness.reply("GET");
        harness.reply("GET", "a", "b");
        harness.reply("NOSUCHCOMMAND", "x");
        final Map<String, String> get = cmdstat("get");
        assertEquals("0", get.get("calls"));
        assertEquals("2", get.get("rejected_calls"));
        assertNull(commandstats().get("cmdstat_nosuchcommand"));
        assertEquals("count=3", errorstats().get("errorstat_ERR"));
        assertEquals("3", stats().get("total_error_replies"));
        assertEquals("4", stats().get("total_commands_processed"), "only the four INFO before this one ran");
    }

    @Test
    void aCommandThatRanAndRepliedAnErrorIsAFailedCall()
    {
        harness.reply("SET", "s", "text");
        assertTrue(harness.reply("INCR", "s").startsWith("-ERR value is not an integer"));
        harness.reply("INCR", "n");
        final Map<String, String> incr = cmdstat("incr");
        assertEquals("2", incr.get("calls"));
        assertEquals("1", incr.get("failed_calls"));
        assertEquals("count=1", errorstats().get("errorstat_ERR"));
    }

    @Test
    void errorsAreCountedByTheirCodeAsRedisReadsIt()
    {
        final CommandHarness locked = new CommandHarness("secret", 1L << 30);
        try
        {
            assertTrue(locked.reply("GET", "k").startsWith("-NOAUTH"));
            locked.reply("AUTH", "secret");
            locked.reply("MULTI");
            locked.reply("NOSUCH");
            assertTrue(locked.reply("EXEC").startsWith("-EXECABORT"));
            final Map<String, String> errors =
                InfoReplyParser.parseReply(locked.reply("INFO", "errorstats")).get("Errorstats");
            assertEquals(Map.of("errorstat_NOAUTH", "count=1", "errorstat_ERR", "count=1",
                "errorstat_EXECABORT", "count=1"), errors);
            final Map<String, String> commands =
                InfoReplyParser.parseReply(locked.reply("INFO", "commandstats")).get("Commandstats");
            assertEquals("0", InfoReplyParser.pairs(commands.get("cmdstat_get")).get("calls"));
            assertEquals("1", InfoReplyParser.pairs(commands.get("cmdstat_get")).get("rejected_calls"));
            assertEquals("1", InfoReplyParser.pairs(commands.get("cmdstat_exec")).get("failed_calls"));
        }
        finally
        {
            locked.close();
        }
    }

    @Test
    void subcommandsAreCountedUnderTheirOwnNameAsRedis7Does()
    {
        harness.reply("CONFIG", "GET", "save");
        harness.reply("config", "get", "maxmemory");
        harness.reply("CONFIG", "GET");
        harness.reply("CONFIG", "NOSUCH");
        final Map<String, String> configGet = cmdstat("config|get");
        assertEquals("2", configGet.get("calls"));
        assertEquals("1", configGet.get("rejected_calls"));
        assertNull(commandstats().get("cmdstat_config"), "a container is never counted itself");
        assertEquals("count=2", errorstats().get("errorstat_ERR"));
    }

    @Test
    void commandsOfATransactionAreCountedWhenExecRunsThem()
    {
        harness.reply("MULTI");
        harness.reply("SET", "a", "1");
        harness.reply("INCR", "a");
        harness.reply("GET", "a");
        final Session other = harness.newSession(2);
        final String beforeExec = harness.reply(other, io.agni.protocol.RespArgs.of("INFO", "commandstats"));
        assertFalse(beforeExec.contains("cmdstat_set"), "queued, not run: " + beforeExec);
        harness.reply("EXEC");
        assertEquals("1", cmdstat("set").get("calls"));
        assertEquals("1", cmdstat("incr").get("calls"));
        assertEquals("1", cmdstat("get").get("calls"));
        assertEquals("1", cmdstat("exec").get("calls"));
        assertEquals("1", cmdstat("multi").get("calls"));
    }

    @Test
    void keyspaceHitsAndMissesMoveWithGet()
    {
        harness.reply("SET", "k", "v");
        harness.reply("GET", "k");
        harness.reply("GET", "k");
        harness.reply("GET", "absent");
        harness.reply("MGET", "k", "absent", "absent2");
        final Map<String, String> stats = stats();
        assertEquals("3", stats.get("keyspace_hits"));
        assertEquals("3", stats.get("keyspace_misses"));
    }

    @Test
    void expiredKeysCountKeysThatExpired()
    {
        harness.reply("SET", "k", "v", "PX", "10");
        harness.reply("SET", "forever", "v");
        harness.advanceMillis(20);
        harness.reply("GET", "k");
        assertEquals("1", stats().get("expired_keys"));
        assertEquals("db0:keys=1,expires=0,avg_ttl=0", "db0:" + info("keyspace").get("Keyspace").get("db0"));
    }

    @Test
    void configResetstatResetsWhatRedisResetsAndCountsItself()
    {
        harness.reply("SET", "k", "v");
        harness.reply("GET", "k");
        harness.reply("GET", "absent");
        harness.reply("GET");
        assertEquals("+OK\r\n", harness.reply("CONFIG", "RESETSTAT"));
        final Map<String, Map<String, String>> info = info("stats", "commandstats", "errorstats", "keyspace");
        assertEquals("1", info.get("Stats").get("total_commands_processed"));
        assertEquals("0", info.get("Stats").get("keyspace_hits"));
        assertEquals("0", info.get("Stats").get("keyspace_misses"));
        assertEquals("0", info.get("Stats").get("total_error_replies"));
        assertEquals(List.of("cmdstat_config|resetstat"), List.copyOf(info.get("Commandstats").keySet()));
        assertTrue(info.get("Errorstats").isEmpty());
        assertEquals("keys=1,expires=0,avg_ttl=0", info.get("Keyspace").get("db0"), "the data is not a statistic");
        harness.reply("GET", "k");
        assertEquals("1", stats().get("keyspace_hits"));
    }

    @Test
    void instantaneousOpsPerSecondIsTheRateOverTheLastSamples()
    {
        final ServerStatistics statistics = harness.server.statistics();
        final long t0 = 1_000_000;
        assertEquals(0, statistics.instantaneousOpsPerSecond(t0), "one sample is no rate");
        for (int i = 0; i < 50; i++)
        {
            harness.reply("SET", "k" + i, "v");
        }
        assertEquals(100, statistics.instantaneousOpsPerSecond(t0 + 500));
        assertEquals(50, statistics.instantaneousOpsPerSecond(t0 + 1_000), "no calls in the second half");
        assertEquals(0, statistics.instantaneousOpsPerSecond(t0 + 10_000), "an idle server");
        assertFalse(statistics.sample(t0 + 10_050), "samples are at least 100 ms apart");
    }

    @Test
    void memoryReportsUsedPeakAndThePolicyFromOnePlace()
    {
        final Map<String, String> memory = info("memory").get("Memory");
        final long used = Long.parseLong(memory.get("used_memory"));
        assertTrue(Long.parseLong(memory.get("used_memory_peak")) >= used);
        assertEquals(MemoryPolicy.name(harness.store, harness.server), memory.get("maxmemory_policy"));
        assertEquals("*2\r\n$16\r\nmaxmemory-policy\r\n$10\r\nnoeviction\r\n",
            harness.reply("CONFIG", "GET", "maxmemory-policy"));
        assertEquals("+OK\r\n", harness.reply("CONFIG", "SET", "maxmemory-policy", "volatile-lfu", "maxmemory", "256mb"));
        final Map<String, String> changed = info("memory").get("Memory");
        assertEquals("volatile-lfu", changed.get("maxmemory_policy"));
        assertEquals(Long.toString(256L << 20), changed.get("maxmemory"));
        assertEquals("256.00M", changed.get("maxmemory_human"));
        assertEquals(Long.toString(harness.server.clientMemoryBytes()), memory.get("mem_clients_normal"));
    }

    @Test
    void usedMemoryIsWhatTheBudgetCountsSoItStaysWithinMaxmemoryBesideTheClientsBuffersWhileEvicting()
    {
        final long clients = 3L << 20;
        try (CommandHarness small = new CommandHarness(null, 4L << 20))
        {
            final CommandProcessor processor = new CommandProcessor(
                small.store, new ServerWithClientMemory(small.server, clients, 0), small.clock);
            assertEquals("+OK\r\n", small.reply(processor, "CONFIG", "SET", "maxmemory-policy", "allkeys-lru"));
            final byte[] value = new byte[1000];
            for (int i = 0; i < 12_000; i++)
            {
                small.store.set(("k" + i).getBytes(StandardCharsets.UTF_8), value);
                if (i % 1000 == 0)
                {
                    // an event loop's tick, which samples used_memory for its peak (at most every 100 ms)
                    small.server.statistics().tick(i, small.store);
                }
            }
            final Map<String, Map<String, String>> info = InfoReplyParser.parseReply(small.reply(processor, "INFO"));
            assertTrue(Long.parseLong(info.get("Stats").get("evicted_keys")) > 0, "the store evicts at its budget");
            final Map<String, String> memory = info.get("Memory");
            final long used = Long.parseLong(memory.get("used_memory"));
            final long max = Long.parseLong(memory.get("maxmemory"));
            assertEquals(small.store.stats().offHeapBytes(), used);
            assertTrue(used <= max, "used_memory " + used + " within maxmemory " + max);
            assertTrue(Long.parseLong(memory.get("used_memory_peak")) <= max, memory.get("used_memory_peak"));
            assertEquals(Long.toString(clients), memory.get("mem_clients_normal"));
            assertEquals("0", memory.get("mem_not_counted_for_evict"));
            assertEquals(Long.toString(used + clients), memory.get("agni_used_memory_total"));
        }
    }

    @Test
    void errorCodesAreTheFirstWordOrErr()
    {
        final ServerStatistics statistics = new ServerStatistics();
        final org.agrona.concurrent.UnsafeBuffer buffer = new org.agrona.concurrent.UnsafeBuffer(new byte[128]);
        final int written = buffer.putStringWithoutLengthAscii(0, "-WRONGTYPE Operation\r\n-nospace\r\n");
        statistics.error(buffer, 0, written);
        statistics.error(buffer, "-WRONGTYPE Operation\r\n".length(), written);
        statistics.error("ERR");
        assertEquals(List.of(Map.entry("ERR", 2L), Map.entry("WRONGTYPE", 1L)), statistics.errorCounts());
        assertEquals(3, statistics.totalErrors());
    }

    @Test
    void processCpuTimesAreSecondsWithSixDecimals()
    {
        assertEquals("0.000000", ProcessUsage.seconds(0));
        assertEquals("1.500000", ProcessUsage.seconds(1_500_000_000L));
        assertEquals("12.000034", ProcessUsage.seconds(12_000_034_999L));
    }

    private Map<String, Map<String, String>> info(final String... sections)
    {
        final String[] args = new String[sections.length + 1];
        args[0] = "INFO";
        System.arraycopy(sections, 0, args, 1, sections.length);
        return InfoReplyParser.parseReply(harness.reply(args));
    }

    private Map<String, String> stats()
    {
        return info("stats").get("Stats");
    }

    private Map<String, String> commandstats()
    {
        return info("commandstats").get("Commandstats");
    }

    private Map<String, String> errorstats()
    {
        return info("errorstats").get("Errorstats");
    }

    private Map<String, String> cmdstat(final String name)
    {
        final String value = commandstats().get("cmdstat_" + name);
        assertTrue(value != null, "no cmdstat_" + name);
        return InfoReplyParser.pairs(value);
    }

    static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
