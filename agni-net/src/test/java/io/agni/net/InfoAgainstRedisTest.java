package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INFO on agni against INFO on a real {@code redis-server} 7: the same arguments pick the same sections in the same
 * order, and the same commands move the same counters (calls, rejected and failed calls per command, error replies
 * by code, hits, misses, keys), so that a dashboard built on Redis reads agni the same way.
 * <p>
 * Needs {@code redis-server} on the PATH: skipped with a message when missing, failed when {@code CI} is set.
 */
@Tag("redis")
@Tag("socket")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InfoAgainstRedisTest
{
    private static AgniStore store;
    private static AgniServer server;
    private static RedisServerProcess redis;

    @BeforeAll
    static void start()
    {
        redis = RedisServerProcess.start();
        store = newStore();
        server = serverOn(store).build().start();
    }

    @AfterAll
    static void stop()
    {
        closeQuietly(server);
        closeQuietly(store);
        if (redis != null)
        {
            redis.close();
        }
    }

    @Test
    void theSameArgumentsPickTheSameSectionsInTheSameOrder() throws IOException
    {
        final List<String[]> cases = List.of(
            new String[0], new String[]{ "default" }, new String[]{ "all" }, new String[]{ "everything" },
            new String[]{ "EVERYTHING" }, new String[]{ "SERVER", "clients" }, new String[]{ "keyspace", "server" },
            new String[]{ "foo" }, new String[]{ "server", "foo" }, new String[]{ "commandstats" },
            new String[]{ "default", "commandstats" }, new String[]{ "Commandstats", "default" },
            new String[]{ "modules" }, new String[]{ "errorstats" }, new String[]{ "latencystats" },
            new String[]{ "cpu" }, new String[]{ "CPU", "Memory" }, new String[]{ "all", "default" },
            new String[]{ "everything", "foo" }, new String[]{ "replication", "persistence", "stats", "cluster" });
        try (RawRespConnection agni = RawRespConnection.connect(server);
            RawRespConnection real = new RawRespConnection(server.localAddress().getAddress(), redis.port()))
        {
            for (final String[] arguments : cases)
            {
                assertEquals(headers(info(real, arguments)), headers(info(agni, arguments)), String.join(" ", arguments));
            }
        }
    }

    @Test
    void theSameCommandsMoveTheSameCounters() throws IOException
    {
        try (RawRespConnection agni = RawRespConnection.connect(server);
            RawRespConnection real = new RawRespConnection(server.localAddress().getAddress(), redis.port()))
        {
            assertEquals(counters(real), counters(agni));
        }
    }

    @Test
    void configSetOfTheBudgetAndItsPolicyShowsInInfoAsInRedis() throws IOException
    {
        try (RawRespConnection agni = RawRespConnection.connect(server);
            RawRespConnection real = new RawRespConnection(server.localAddress().getAddress(), redis.port()))
        {
            for (final String[] change : List.of(
                new String[]{ "32mb", "allkeys-lfu" }, new String[]{ "48000K", "VOLATILE-TTL" },
                new String[]{ "33554433", "allkeys-random" }, new String[]{ "512mb", "volatile-lfu" }))
            {
                final Map<String, String> fromRedis = memoryAfter(real, change[0], change[1]);
                assertEquals(fromRedis, memoryAfter(agni, change[0], change[1]), String.join(" ", change));
            }
            assertEquals("+OK", real.call("CONFIG", "SET", "maxmemory", "0", "maxmemory-policy", "noeviction"));
            assertEquals("+OK", agni.call("CONFIG", "SET", "maxmemory", "64mb", "maxmemory-policy", "noeviction"));
        }
    }

    /**
     * Sets the budget and its policy, and reads them back from INFO and CONFIG GET.
     */
    private static Map<String, String> memoryAfter(
        final RawRespConnection connection, final String maxmemory, final String policy) throws IOException
    {
        assertEquals("+OK", connection.call("CONFIG", "SET", "maxmemory", maxmemory, "maxmemory-policy", policy));
        final Map<String, String> memory = parse(info(connection, "memory")).get("Memory");
        final Map<String, String> fields = new TreeMap<>();
        for (final String field : List.of("maxmemory", "maxmemory_human", "maxmemory_policy"))
        {
            fields.put(field, memory.get(field));
        }
        fields.put("CONFIG GET maxmemory", String.valueOf(connection.call("CONFIG", "GET", "maxmemory")));
        fields.put("CONFIG GET maxmemory-policy", String.valueOf(connection.call("CONFIG", "GET", "maxmemory-policy")));
        return fields;
    }

    /**
     * Runs the same commands on a fresh keyspace after CONFIG RESETSTAT, and reads the counters both servers keep
     * with the same meaning (not the times, which differ).
     */
    private static Map<String, String> counters(final RawRespConnection connection) throws IOException
    {
        assertEquals("+OK", connection.call("FLUSHALL"));
        assertEquals("+OK", connection.call("CONFIG", "RESETSTAT"));
        connection.call("SET", "k", "v");
        connection.call("SET", "text", "abc");
        connection.call("SET", "ttl", "v", "EX", "100");
        connection.call("GET", "k");
        connection.call("GET", "missing");
        connection.call("MGET", "k", "missing", "text");
        connection.call("GET");
        connection.call("NOSUCHCOMMAND", "x");
        connection.call("INCR", "text");
        connection.call("INCR", "counter");
        connection.call("CONFIG", "GET", "maxmemory");
        connection.call("CONFIG", "GET");
        connection.call("CONFIG", "NOSUCH");
        connection.call("MULTI");
        connection.call("SET", "a", "1");
        connection.call("INCR", "a");
        connection.call("EXEC");
        connection.call("MULTI");
        connection.call("GET", "a", "b");
        connection.call("EXEC");
        connection.call("DEL", "k", "missing");
        final Map<String, Map<String, String>> info = parse(info(connection, "everything"));
        final Map<String, String> counters = new TreeMap<>();
        for (final String field : List.of(
            "total_commands_processed", "keyspace_hits", "keyspace_misses", "expired_keys", "evicted_keys",
            "total_error_replies", "rejected_connections"))
        {
            counters.put(field, info.get("Stats").get(field));
        }
        for (final Map.Entry<String, String> cmdstat : info.get("Commandstats").entrySet())
        {
            final Map<String, String> pairs = pairs(cmdstat.getValue());
            counters.put(cmdstat.getKey(), "calls=" + pairs.get("calls") + ",rejected_calls=" +
                pairs.get("rejected_calls") + ",failed_calls=" + pairs.get("failed_calls"));
        }
        counters.putAll(info.get("Errorstats"));
        counters.put("db0", info.get("Keyspace").get("db0").replaceAll(",avg_ttl=\\d+", ""));
        counters.put("role", info.get("Replication").get("role"));
        counters.put("maxmemory_policy", info.get("Memory").get("maxmemory_policy"));
        return counters;
    }

    private static String info(final RawRespConnection connection, final String... sections) throws IOException
    {
        final String[] args = new String[sections.length + 1];
        args[0] = "INFO";
        System.arraycopy(sections, 0, args, 1, sections.length);
        final Object reply = connection.call(args);
        assertTrue(reply instanceof String && !((String)reply).startsWith("-"), String.valueOf(reply));
        return (String)reply;
    }

    private static List<String> headers(final String info)
    {
        final List<String> headers = new ArrayList<>();
        for (final String line : info.split("\r\n"))
        {
            if (line.startsWith("# "))
            {
                headers.add(line);
            }
        }
        return headers;
    }

    private static Map<String, Map<String, String>> parse(final String info)
    {
        final Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        Map<String, String> fields = null;
        for (final String line : info.split("\r\n"))
        {
            if (line.startsWith("# "))
            {
                fields = new LinkedHashMap<>();
                sections.put(line.substring(2), fields);
            }
            else if (!line.isEmpty())
            {
                final int colon = line.indexOf(':');
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return sections;
    }

    private static Map<String, String> pairs(final String value)
    {
        final Map<String, String> pairs = new LinkedHashMap<>();
        for (final String pair : value.split(","))
        {
            final int equals = pair.indexOf('=');
            pairs.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return pairs;
    }
}
