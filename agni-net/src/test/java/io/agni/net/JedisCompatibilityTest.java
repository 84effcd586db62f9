package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.resps.ScanResult;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jedis 7.x with its default settings against an {@link AgniServer} on an ephemeral loopback port: a plain
 * {@code new Jedis(host, port)} (which sends nothing on connect) and a {@code JedisPooled} (which sends
 * {@code CLIENT SETINFO} and, with a password, {@code AUTH}), each doing strings, counters, multi-key commands,
 * expiry, SCAN, binary keys and values, pipelines and errors.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("socket")
class JedisCompatibilityTest
{
    private static final String HOST = "127.0.0.1";
    private static final String PASSWORD = "jedis-secret";

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
    void emptyTheStore()
    {
        store.clear();
    }

    @Test
    void plainJedisSetsGetsAndCounts()
    {
        try (Jedis jedis = new Jedis(HOST, server.port()))
        {
            assertEquals("PONG", jedis.ping());
            assertEquals("OK", jedis.set("greeting", "hello"));
            assertEquals("hello", jedis.get("greeting"));
            assertNull(jedis.get("nope"));
            assertEquals("OK", jedis.set("greeting", "hi", SetParams.setParams().xx()));
            assertNull(jedis.set("greeting", "ignored", SetParams.setParams().nx()));
            assertEquals("hi", jedis.get("greeting"));
            assertEquals(1L, jedis.incr("visits"));
            assertEquals(42L, jedis.incrBy("visits", 41));
            assertEquals(40L, jedis.decrBy("visits", 2));
            assertEquals(5L, jedis.append("greeting", "!!!"));
            assertEquals(2L, jedis.exists("greeting", "visits", "nope"));
            assertEquals(2L, jedis.dbSize());
        }
    }

    @Test
    void plainJedisMultiKeyCommands()
    {
        try (Jedis jedis = new Jedis(HOST, server.port()))
        {
            assertEquals("OK", jedis.mset("a", "1", "b", "2", "c", "3"));
            assertEquals(Arrays.asList("1", "2", null, "3"), jedis.mget("a", "b", "nope", "c"));
            assertEquals(0L, jedis.msetnx("c", "x", "d", "4"));
            assertEquals(1L, jedis.msetnx("d", "4", "e", "5"));
            assertEquals(2L, jedis.del("a", "b", "nope"));
            assertEquals(Arrays.asList(null, null, "3", "4", "5"), jedis.mget("a", "b", "c", "d", "e"));
        }
    }

    @Test
    void plainJedisExpiryAndTtl()
    {
        try (Jedis jedis = new Jedis(HOST, server.port()))
        {
            jedis.set("session", "alice");
            assertEquals(-1L, jedis.ttl("session"));
            assertEquals(-2L, jedis.ttl("nope"));
            assertEquals(1L, jedis.expire("session", 100));
            final long ttl = jedis.ttl("session");
            assertTrue(ttl > 90 && ttl <= 100, "ttl " + ttl);
            final long pttl = jedis.pttl("session");
            assertTrue(pttl > 90_000 && pttl <= 100_000, "pttl " + pttl);
            assertEquals(0L, jedis.expire("nope", 100));
            assertEquals(1L, jedis.persist("session"));
            assertEquals(-1L, jedis.ttl("session"));
            assertEquals("OK", jedis.setex("short", 60, "v"));
            assertTrue(jedis.ttl("short") > 0);
            assertEquals(1L, jedis.pexpire("short", 1));
            ServerFixture.await("short to expire", () -> jedis.get("short") == null);
            assertFalse(jedis.exists("short"));
        }
    }

    @Test
    void plainJedisScanVisitsEveryMatchingKey()
    {
        try (Jedis jedis = new Jedis(HOST, server.port()))
        {
            final Set<String> expected = new HashSet<>();
            for (int i = 0; i < 300; i++)
            {
                jedis.set("user:" + i, "v");
                jedis.set("order:" + i, "v");
                expected.add("user:" + i);
            }
            final Set<String> seen = new HashSet<>();
            final ScanParams params = new ScanParams().match("user:*").count(50);
            String cursor = ScanParams.SCAN_POINTER_START;
            int calls = 0;
            do
            {
                final ScanResult<String> page = jedis.scan(cursor, params);
                seen.addAll(page.getResult());
                cursor = page.getCursor();
                assertTrue(++calls < 10_000, "SCAN never returned cursor 0");
            }
            while (!isStart(cursor));
            assertEquals(expected, seen);
        }
    }

    private static boolean isStart(final String cursor)
    {
        return ScanParams.SCAN_POINTER_START.equals(cursor);
    }

    @Test
    void plainJedisBinaryKeysAndValuesRoundTrip()
    {
        final byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++)
        {
            everyByte[i] = (byte)i;
        }
        final byte[] key = {0, '\r', '\n', (byte)0xff, ' ', '*', '$'};
        final byte[] large = new byte[1 << 20];
        new Random(42).nextBytes(large);
        try (Jedis jedis = new Jedis(HOST, server.port()))
        {
            assertEquals("OK", jedis.set(key, everyByte));
            assertArrayEquals(everyByte, jedis.get(key));
            assertEquals("OK", jedis.set(everyByte, large));
            assertArrayEquals(large, jedis.get(everyByte));
            assertEquals("OK", jedis.mset(key, large, everyByte, key));
            final List<byte[]> values = jedis.mget(key, everyByte, bytes("nope"));
            assertArrayEquals(large, values.get(0));
            assertArrayEquals(key, values.get(1));
            assertNull(values.get(2));
            assertEquals("OK", jedis.set(bytes("empty"), new byte[0]));
            assertArrayEquals(new byte[0], jedis.get(bytes("empty")));
        }
        assertArrayEquals(large, store.get(key));
    }

    @Test
    void plainJedisPipelineAnswersInOrder()
    {
        final int commands = 1_000;
        try (Jedis jedis = new Jedis(HOST, server.port()))
        {
            jedis.set("text", "not a number");
            final Pipeline pipeline = jedis.pipelined();
            final List<Response<Long>> counts = new ArrayList<>();
            final List<Response<String>> values = new ArrayList<>();
            for (int i = 0; i < commands; i++)
            {
                pipeline.set("p:" + i, "v" + i);
                counts.add(pipeline.incr("counter"));
                values.add(pipeline.get("p:" + i));
            }
            final Response<Long> failed = pipeline.incr("text");
            final Response<List<String>> many = pipeline.mget("p:0", "p:999", "nope");
            pipeline.sync();
            for (int i = 0; i < commands; i++)
            {
                assertEquals(i + 1L, counts.get(i).get());
                assertEquals("v" + i, values.get(i).get());
            }
            assertEquals("ERR value is not an integer or out of range",
                assertThrows(JedisDataException.class, failed::get).getMessage());
            assertEquals(Arrays.asList("v0", "v999", null), many.get());
            assertEquals("PONG", jedis.ping());
        }
    }

    @Test
    void plainJedisGetsRedisErrorTexts()
    {
        try (Jedis jedis = new Jedis(HOST, server.port()))
        {
            jedis.set("text", "abc");
            assertEquals("ERR value is not an integer or out of range",
                assertThrows(JedisDataException.class, () -> jedis.incr("text")).getMessage());
            assertEquals("ERR unknown command 'LPUSH', with args beginning with: 'list' 'a' ",
                assertThrows(JedisDataException.class,
                    () -> jedis.sendCommand(Protocol.Command.LPUSH, "list", "a")).getMessage());
            assertEquals("abc", jedis.get("text"));
        }
    }

    @Test
    void jedisPooledWithDefaultConfigDoesItAll()
    {
        try (JedisPooled jedis = new JedisPooled(HOST, server.port()))
        {
            exercise(jedis);
            // JedisPooled sent CLIENT SETINFO LIB-NAME on connect, and agni kept it
            final String clients = new String((byte[])jedis.sendCommand(Protocol.Command.CLIENT, "LIST"),
                StandardCharsets.UTF_8);
            assertTrue(clients.contains("lib-name=jedis"), clients);
        }
    }

    @Test
    void jedisPooledThatValidatesConnectionsWithPing()
    {
        final ConnectionPoolConfig poolConfig = new ConnectionPoolConfig();
        poolConfig.setTestOnBorrow(true);
        poolConfig.setTestOnReturn(true);
        try (JedisPooled jedis = new JedisPooled(poolConfig, HOST, server.port()))
        {
            exercise(jedis);
        }
    }

    @Test
    void jedisPooledAuthenticatesWithAPassword()
    {
        try (AgniServer secured = serverOn(store).password(PASSWORD).build().start())
        {
            final HostAndPort address = new HostAndPort(HOST, secured.port());
            try (JedisPooled jedis = new JedisPooled(
                address, DefaultJedisClientConfig.builder().password(PASSWORD).build()))
            {
                exercise(jedis);
            }
            try (JedisPooled wrong = new JedisPooled(
                address, DefaultJedisClientConfig.builder().password("wrong").build()))
            {
                final JedisDataException refused = assertThrows(JedisDataException.class, () -> wrong.get("k"));
                assertTrue(refused.getMessage().contains("WRONGPASS"), refused.getMessage());
            }
            try (Jedis plain = new Jedis(HOST, secured.port()))
            {
                assertEquals("NOAUTH Authentication required.",
                    assertThrows(JedisDataException.class, () -> plain.get("k")).getMessage());
                assertEquals("OK", plain.auth(PASSWORD));
                assertEquals("OK", plain.set("k", "v"));
            }
        }
    }

    /**
     * The same workload through any {@link UnifiedJedis}: every command kind, binary values and a pipeline.
     */
    private static void exercise(final UnifiedJedis jedis)
    {
        assertEquals("PONG", jedis.ping());
        assertEquals("OK", jedis.set("k", "v"));
        assertEquals("v", jedis.get("k"));
        assertEquals(7L, jedis.incrBy("n", 7));
        assertEquals(8L, jedis.incr("n"));
        assertEquals("OK", jedis.mset("a", "1", "b", "2"));
        assertEquals(Arrays.asList("1", "2", null), jedis.mget("a", "b", "nope"));
        assertEquals(1L, jedis.expire("a", 100));
        assertTrue(jedis.ttl("a") > 90);
        final Set<String> scanned = new HashSet<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do
        {
            // a SCAN call may stop early (agni's stops at the end of each shard): only cursor 0 means done
            final ScanResult<String> page = jedis.scan(cursor, new ScanParams().count(1000));
            scanned.addAll(page.getResult());
            cursor = page.getCursor();
        }
        while (!isStart(cursor));
        assertTrue(scanned.containsAll(List.of("k", "n", "a", "b")), scanned.toString());

        final byte[] binary = {0, 1, '\r', '\n', (byte)0x80, (byte)0xff};
        assertEquals("OK", jedis.set(binary, binary));
        assertArrayEquals(binary, jedis.get(binary));

        try (AbstractPipeline pipeline = jedis.pipelined())
        {
            final List<Response<Long>> counts = new ArrayList<>();
            for (int i = 0; i < 500; i++)
            {
                pipeline.set("q:" + i, Integer.toString(i));
                counts.add(pipeline.incr("pipelined"));
            }
            final Response<String> last = pipeline.get("q:499");
            pipeline.sync();
            for (int i = 0; i < counts.size(); i++)
            {
                assertEquals(i + 1L, counts.get(i).get());
            }
            assertEquals("499", last.get());
        }
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
