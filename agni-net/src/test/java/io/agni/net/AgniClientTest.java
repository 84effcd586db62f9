package io.agni.net;

import io.agni.api.AgniException;
import io.agni.api.AgniStore;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreConnectionException;
import io.agni.api.StoreRefusedException;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What AgniClient does besides the store contract: its handshake, its failures (unreachable server, wrong
 * password, timeouts, broken and garbled replies), its pool under concurrent callers, and close. Uses a scripted
 * server ({@link ClientTestServer}) to make a server misbehave on cue.
 */
@Tag("socket")
class AgniClientTest
{
    private static final long AWAIT_MS = 10_000;

    // ------------------------------------------------------------------------------------------------------------
    // Builder
    // ------------------------------------------------------------------------------------------------------------

    @Test
    void builderRejectsSettingsOutOfRangeNamingThem()
    {
        assertMessage("port out of range: port=0, range=1..65535", () -> AgniClient.builder().port(0).config());
        assertMessage("port out of range: port=65536, range=1..65535", () -> AgniClient.builder().port(65536).config());
        assertMessage("connections out of range: connections=0, range=1..1024",
            () -> AgniClient.builder().connections(0).config());
        assertMessage("connectTimeout out of range: connectTimeout=PT0S, range=1ms..2147483647ms",
            () -> AgniClient.builder().connectTimeout(Duration.ZERO));
        assertMessage("readTimeout out of range: readTimeout=PT-1S, range=1ms..2147483647ms",
            () -> AgniClient.builder().readTimeout(Duration.ofSeconds(-1)));
        assertMessage("readTimeout out of range: readTimeout=PT0.0009S, range=1ms..2147483647ms",
            () -> AgniClient.builder().readTimeout(Duration.ofNanos(900_000)));
        assertMessage(NullPointerException.class, "connectTimeout", () -> AgniClient.builder().connectTimeout(null));
        assertMessage("maxBulkLength out of range: maxBulkLength=0, range=1..2147483583",
            () -> AgniClient.builder().maxBulkLength(0).config());
        assertMessage("clientName must be printable ASCII without spaces, and not empty: clientName='my app'",
            () -> AgniClient.builder().clientName("my app").config());
        assertMessage("host must not be empty", () -> AgniClient.builder().host("").config());
        assertThrows(NullPointerException.class, () -> AgniClient.builder().host(null));
    }

    @Test
    void builderDefaultsAreTheDocumentedOnes()
    {
        final ClientConfig config = AgniClient.builder().config();

        assertEquals("localhost:6379", config.address());
        assertEquals(AgniClientBuilder.DEFAULT_CONNECTIONS, config.connections());
        assertEquals(5_000, config.connectTimeoutMillis());
        assertEquals(30_000, config.readTimeoutMillis());
        assertEquals(512 * 1024 * 1024, config.maxBulkLength());
        assertNull(config.password());
        assertNull(config.clientName());
    }

    // ------------------------------------------------------------------------------------------------------------
    // Handshake
    // ------------------------------------------------------------------------------------------------------------

    @Test
    void handshakeSendsAuthThenClientSetnameThenPing() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(ClientTestServer.pongThen((c, command) -> "+OK\r\n"));
            AgniClient client = clientOf(server).password("s3cret").clientName("billing-7").build())
        {
            assertEquals(List.of(List.of("AUTH", "s3cret"), List.of("CLIENT", "SETNAME", "billing-7"), List.of("PING")),
                server.commands());
            assertEquals(1, client.openConnections(), "build() opens the first connection");
        }
    }

    @Test
    void connectingToAClosedPortFailsWithStoreConnectionException() throws IOException
    {
        final int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            port = socket.getLocalPort();
        }

        final StoreConnectionException ex = assertThrows(StoreConnectionException.class,
            () -> AgniClient.connect("127.0.0.1", port));

        assertTrue(ex.getMessage().startsWith("cannot connect to 127.0.0.1:" + port), ex.getMessage());
        assertInstanceOf(IOException.class, ex.getCause());
    }

    @Test
    void aServerThatRefusesThePasswordFailsTheBuild() throws IOException
    {
        final ClientTestServer.Responder responder = (c, command) -> "AUTH".equals(command.get(0)) ?
            "-WRONGPASS invalid username-password pair or user is disabled.\r\n" : "+PONG\r\n";
        try (ClientTestServer server = new ClientTestServer(responder))
        {
            final StoreConnectionException ex = assertThrows(StoreConnectionException.class,
                () -> clientOf(server).password("wrong").build());

            assertEquals("server at 127.0.0.1:" + server.port() + " refused the password: " +
                "WRONGPASS invalid username-password pair or user is disabled.", ex.getMessage());
        }
    }

    @Test
    void aServerThatNeedsAPasswordFailsTheBuildWithItsNoauthError() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer((c, command) -> "-NOAUTH Authentication required.\r\n"))
        {
            final StoreConnectionException ex =
                assertThrows(StoreConnectionException.class, () -> clientOf(server).build());

            assertEquals("server at 127.0.0.1:" + server.port() + " refused PING: NOAUTH Authentication required.",
                ex.getMessage());
        }
    }

    @Test
    void passwordsWorkAgainstRedisWithRequirepass()
    {
        try (RedisServerProcess redis = RedisServerProcess.start("--requirepass", "s3cret-pw"))
        {
            try (AgniClient client = AgniClient.builder().host("127.0.0.1").port(redis.port())
                .password("s3cret-pw").clientName("agni-test").build())
            {
                client.set(bytes("k"), bytes("v"));
                assertArrayEquals(bytes("v"), client.get(bytes("k")));
            }
            final StoreConnectionException wrong = assertThrows(StoreConnectionException.class,
                () -> AgniClient.builder().host("127.0.0.1").port(redis.port()).password("nope").build());
            assertTrue(wrong.getMessage().contains("refused the password: WRONGPASS"), wrong.getMessage());
            final StoreConnectionException none = assertThrows(StoreConnectionException.class,
                () -> AgniClient.connect("127.0.0.1", redis.port()));
            assertTrue(none.getMessage().contains("refused PING: NOAUTH"), none.getMessage());
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Failures of a call
    // ------------------------------------------------------------------------------------------------------------

    @Test
    @Timeout(30)
    void aReplyThatDoesNotComeWithinTheReadTimeoutFailsTheCallAndTheNextCallReconnects() throws IOException
    {
        final ClientTestServer.Responder firstConnectionHangs =
            ClientTestServer.pongThen((connection, command) -> connection == 0 ? null : "$2\r\nok\r\n");
        try (ClientTestServer server = new ClientTestServer(firstConnectionHangs);
            AgniClient client = clientOf(server).readTimeout(Duration.ofMillis(200)).build())
        {
            final StoreConnectionException ex =
                assertThrows(StoreConnectionException.class, () -> client.get(bytes("k")));
            assertTrue(ex.getMessage().startsWith("no reply from 127.0.0.1:" + server.port() + " within 200 ms"),
                ex.getMessage());
            assertEquals(0, client.openConnections(), "the timed-out connection is dropped");

            assertArrayEquals(bytes("ok"), client.get(bytes("k")));
            assertEquals(2, server.accepted());
        }
    }

    @Test
    void aServerThatClosesTheConnectionFailsTheCallAndTheNextCallReconnects() throws IOException
    {
        final ClientTestServer.Responder closeFirst =
            ClientTestServer.pongThen((connection, command) -> connection == 0 ? ClientTestServer.CLOSE : ":1\r\n");
        try (ClientTestServer server = new ClientTestServer(closeFirst); AgniClient client = clientOf(server).build())
        {
            final StoreConnectionException ex =
                assertThrows(StoreConnectionException.class, () -> client.exists(bytes("k")));
            assertEquals("server at 127.0.0.1:" + server.port() + " closed the connection", ex.getMessage());
            assertEquals(0, client.openConnections());

            assertTrue(client.exists(bytes("k")));
        }
    }

    @Test
    @Timeout(30)
    void afterTheServerDropsEveryConnectionOnlyOneCallFails() throws Exception
    {
        final CountDownLatch threeInFlight = new CountDownLatch(3);
        final ClientTestServer.Responder holdUntilThree = ClientTestServer.pongThen((connection, command) ->
        {
            threeInFlight.countDown();
            await(threeInFlight);
            return ":1\r\n";
        });
        try (ClientTestServer server = new ClientTestServer(holdUntilThree);
            AgniClient client = clientOf(server).connections(3).build())
        {
            final ExecutorService executor = Executors.newFixedThreadPool(3);
            try
            {
                final List<Future<Boolean>> calls = new java.util.ArrayList<>();
                for (int i = 0; i < 3; i++)
                {
                    calls.add(executor.submit(() -> client.exists(bytes("k"))));
                }
                for (final Future<Boolean> call : calls)
                {
                    assertTrue(call.get(10, TimeUnit.SECONDS));
                }
            }
            finally
            {
                executor.shutdownNow();
            }
            assertEquals(3, client.openConnections());

            server.dropAllConnections();

            assertThrows(StoreConnectionException.class, () -> client.exists(bytes("k")));
            assertEquals(0, client.openConnections(), "the idle connections went with the broken one");
            assertTrue(client.exists(bytes("k")));
            assertTrue(client.exists(bytes("k")));
            assertEquals(4, server.accepted());
        }
    }

    @Test
    void aReplyThatIsNotRespIsAProtocolErrorAndDropsTheConnection() throws IOException
    {
        final ClientTestServer.Responder garbage =
            ClientTestServer.pongThen((connection, command) -> connection == 0 ? "HTTP/1.1 400 Bad Request\r\n" : ":3\r\n");
        try (ClientTestServer server = new ClientTestServer(garbage); AgniClient client = clientOf(server).build())
        {
            final StoreConnectionException ex =
                assertThrows(StoreConnectionException.class, () -> client.incrementBy(bytes("n"), 3));
            assertEquals("protocol error: reply type byte not valid: 0x48", ex.getMessage());
            assertEquals(0, client.openConnections());

            assertEquals(3, client.incrementBy(bytes("n"), 3));
        }
    }

    @Test
    void aReplyOfTheWrongTypeIsAProtocolErrorAndDropsTheConnection() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(ClientTestServer.pongThen((c, command) -> ":1\r\n"));
            AgniClient client = clientOf(server).build())
        {
            final StoreConnectionException ex =
                assertThrows(StoreConnectionException.class, () -> client.get(bytes("k")));

            assertEquals("protocol error: unexpected reply, expected a bulk string or nil, got an integer",
                ex.getMessage());
            assertEquals(0, client.openConnections());
        }
    }

    @Test
    void anErrorReplyKeepsTheConnection() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(
            ClientTestServer.pongThen((c, command) -> "-ERR something went wrong\r\n"));
            AgniClient client = clientOf(server).build())
        {
            final AgniException ex = assertThrows(AgniException.class, () -> client.get(bytes("k")));

            assertEquals("ERR something went wrong", ex.getMessage());
            assertEquals(1, client.openConnections(), "an error reply is a complete reply: the connection stays");
            assertThrows(AgniException.class, () -> client.get(bytes("k")));
            assertEquals(1, server.accepted());
        }
    }

    @Test
    void redisErrorsWithoutAStoreCounterpartKeepTheirText()
    {
        try (RedisServerProcess redis = RedisServerProcess.start();
            AgniClient client = AgniClient.connect("127.0.0.1", redis.port()))
        {
            RawRedis.command(redis.port(), "RPUSH", "list", "a");

            final AgniException ex = assertThrows(AgniException.class, () -> client.get(bytes("list")));

            assertEquals("WRONGTYPE Operation against a key holding the wrong kind of value", ex.getMessage());
            assertEquals(StoreRefusedException.class, ex.getClass());
        }
    }

    @Test
    void redisOutOfMemoryIsCapacityExceeded()
    {
        try (RedisServerProcess redis = RedisServerProcess.start("--maxmemory", "2mb", "--maxmemory-policy", "noeviction");
            AgniClient client = AgniClient.connect("127.0.0.1", redis.port()))
        {
            final byte[] value = new byte[512 * 1024];
            final io.agni.api.CapacityExceededException ex = assertThrows(io.agni.api.CapacityExceededException.class, () ->
            {
                for (int i = 0; i < 100; i++)
                {
                    client.set(bytes("k" + i), value);
                }
            });

            assertTrue(ex.getMessage().startsWith("OOM command not allowed"), ex.getMessage());
            assertTrue(client.stats().rejectedWrites() >= 1, "INFO's errorstat_OOM counts the refusal");
        }
    }

    @Test
    void setAllIfPresentIsRefusedWithoutSendingAnything() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(ClientTestServer.pongThen((c, command) -> "+OK\r\n"));
            AgniClient client = clientOf(server).build())
        {
            final UnsupportedOperationException ex = assertThrows(UnsupportedOperationException.class,
                () -> client.setAll(List.of(bytes("a")), List.of(bytes("1")), SetCondition.IF_PRESENT));

            assertEquals("setAll with IF_PRESENT cannot be done atomically over RESP: " +
                "Redis has MSET and MSETNX but no MSET XX", ex.getMessage());
            assertEquals(List.of(List.of("PING")), server.commands());
        }
    }

    @Test
    void keysAndValuesLongerThanTheBulkLimitAreRefusedBeforeSending() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(ClientTestServer.pongThen((c, command) -> "+OK\r\n"));
            AgniClient client = clientOf(server).maxBulkLength(8).build())
        {
            assertMessage(io.agni.api.EntryTooLargeException.class, "key too large: length=9, limit=8",
                () -> client.get(new byte[9]));
            assertMessage(io.agni.api.EntryTooLargeException.class, "value too large: length=9, limit=8",
                () -> client.set(bytes("k"), new byte[9]));
            assertMessage(io.agni.api.EntryTooLargeException.class, "value too large: length=10, limit=8",
                () -> client.setRange(bytes("k"), 7, new byte[3]));
            assertMessage(IllegalArgumentException.class, "negative key length: -1",
                () -> client.get(new UnsafeBuffer(new byte[4]), 0, -1, new ExpandableArrayBuffer(), 0));

            assertEquals(List.of(List.of("PING")), server.commands());
        }
    }

    @Test
    void aValueLargerThanTheBuffersRoundTripsInBothForms()
    {
        try (RedisServerProcess redis = RedisServerProcess.start();
            AgniClient client = AgniClient.connect("127.0.0.1", redis.port()))
        {
            final byte[] value = new byte[8 * 1024 * 1024 + 3];
            for (int i = 0; i < value.length; i++)
            {
                value[i] = (byte)(i * 31 + (i >>> 11));
            }

            client.set(bytes("big"), value);
            assertArrayEquals(value, client.get(bytes("big")));

            final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(16);
            assertEquals(value.length, client.get(new UnsafeBuffer(bytes("big")), 0, 3, dst, 5));
            final byte[] copied = new byte[value.length];
            dst.getBytes(5, copied);
            assertArrayEquals(value, copied);

            client.set(bytes("small"), bytes("after"));
            assertArrayEquals(bytes("after"), client.get(bytes("small")), "the connection is in step afterwards");
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Pool and close
    // ------------------------------------------------------------------------------------------------------------

    @Test
    @Timeout(60)
    void concurrentCallersShareAtMostTheConfiguredConnectionsAndLoseNoIncrement() throws Exception
    {
        final int threads = 8;
        final int increments = 500;
        try (RedisServerProcess redis = RedisServerProcess.start();
            AgniClient client = AgniClient.builder().host("127.0.0.1").port(redis.port()).connections(3).build())
        {
            final ExecutorService executor = Executors.newFixedThreadPool(threads);
            try
            {
                final CountDownLatch start = new CountDownLatch(1);
                final List<Future<?>> futures = new java.util.ArrayList<>();
                for (int t = 0; t < threads; t++)
                {
                    futures.add(executor.submit(() ->
                    {
                        start.await();
                        for (int i = 0; i < increments; i++)
                        {
                            client.incrementBy(bytes("counter"), 1);
                            assertTrue(client.openConnections() <= 3, "connections open");
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (final Future<?> future : futures)
                {
                    future.get(50, TimeUnit.SECONDS);
                }
            }
            finally
            {
                executor.shutdownNow();
            }

            assertEquals((long)threads * increments, client.incrementBy(bytes("counter"), 0));
            assertTrue(client.openConnections() <= 3 && client.openConnections() >= 1);
        }
    }

    @Test
    @Timeout(30)
    void closeWaitsForTheCallInFlightAndThenRefusesEveryCall() throws Exception
    {
        final CountDownLatch requestArrived = new CountDownLatch(1);
        final CountDownLatch mayReply = new CountDownLatch(1);
        final ClientTestServer.Responder slowGet = ClientTestServer.pongThen((connection, command) ->
        {
            requestArrived.countDown();
            await(mayReply);
            return "$4\r\nslow\r\n";
        });
        try (ClientTestServer server = new ClientTestServer(slowGet))
        {
            final AgniClient client = clientOf(server).build();
            final ExecutorService executor = Executors.newFixedThreadPool(2);
            try
            {
                final Future<byte[]> inFlight = executor.submit(() -> client.get(bytes("k")));
                await(requestArrived);
                final Future<?> closing = executor.submit(client::close);
                awaitCondition("close() to refuse new calls", () -> client.toString().contains("closed=true"));
                assertFalse(closing.isDone(), "close() waits for the call in flight");
                assertThrows(StoreClosedException.class, () -> client.get(bytes("k")));

                mayReply.countDown();
                assertArrayEquals(bytes("slow"), inFlight.get(10, TimeUnit.SECONDS));
                closing.get(10, TimeUnit.SECONDS);
                assertEquals(0, client.openConnections());
            }
            finally
            {
                mayReply.countDown();
                executor.shutdownNow();
            }
        }
    }

    @Test
    @Timeout(30)
    void aCallerWaitingForAConnectionIsRefusedWhenTheClientCloses() throws Exception
    {
        final CountDownLatch requestArrived = new CountDownLatch(1);
        final CountDownLatch mayReply = new CountDownLatch(1);
        final ClientTestServer.Responder slow = ClientTestServer.pongThen((connection, command) ->
        {
            requestArrived.countDown();
            await(mayReply);
            return ":1\r\n";
        });
        try (ClientTestServer server = new ClientTestServer(slow))
        {
            final AgniClient client = clientOf(server).connections(1).build();
            final ExecutorService executor = Executors.newFixedThreadPool(3);
            try
            {
                final Future<Boolean> holder = executor.submit(() -> client.exists(bytes("a")));
                await(requestArrived);
                final AtomicInteger waitingStarted = new AtomicInteger();
                final Future<Boolean> waiter = executor.submit(() ->
                {
                    waitingStarted.incrementAndGet();
                    return client.exists(bytes("b"));
                });
                awaitCondition("the second caller to start", () -> waitingStarted.get() == 1);
                final Future<?> closing = executor.submit(client::close);

                final java.util.concurrent.ExecutionException ex =
                    assertThrows(java.util.concurrent.ExecutionException.class, () -> waiter.get(10, TimeUnit.SECONDS));
                assertInstanceOf(StoreClosedException.class, ex.getCause());
                mayReply.countDown();
                assertTrue(holder.get(10, TimeUnit.SECONDS));
                closing.get(10, TimeUnit.SECONDS);
            }
            finally
            {
                mayReply.countDown();
                executor.shutdownNow();
            }
        }
    }

    @Test
    void closeIsIdempotentAndEmptyMultiKeyCallsAreRefusedAfterIt() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(ClientTestServer.pongThen((c, command) -> "+OK\r\n")))
        {
            final AgniClient client = clientOf(server).build();
            client.close();
            client.close();

            assertThrows(StoreClosedException.class, () -> client.getAll(List.of()));
            assertThrows(StoreClosedException.class, () -> client.setAll(List.of(), List.of(), SetCondition.ALWAYS));
            assertMessage(StoreClosedException.class, "AgniClient(127.0.0.1:" + server.port() + ") is closed",
                () -> client.randomKey());
        }
    }

    @Test
    void emptyMultiKeyCallsAreAnsweredWithoutAskingTheServer() throws IOException
    {
        try (ClientTestServer server = new ClientTestServer(ClientTestServer.pongThen((c, command) -> "+OK\r\n"));
            AgniClient client = clientOf(server).build())
        {
            assertEquals(List.of(), client.getAll(List.of()));
            assertTrue(client.setAll(List.of(), List.of(), SetCondition.IF_ABSENT));
            assertEquals(List.of(List.of("PING")), server.commands());
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Helpers
    // ------------------------------------------------------------------------------------------------------------

    private static AgniClientBuilder clientOf(final ClientTestServer server)
    {
        return AgniClient.builder().host("127.0.0.1").port(server.port()).readTimeout(Duration.ofSeconds(20));
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void assertMessage(final String expected, final org.junit.jupiter.api.function.Executable call)
    {
        assertMessage(IllegalArgumentException.class, expected, call);
    }

    private static <T extends Throwable> void assertMessage(
        final Class<T> type, final String expected, final org.junit.jupiter.api.function.Executable call)
    {
        assertEquals(expected, assertThrows(type, call).getMessage());
    }

    private static void await(final CountDownLatch latch)
    {
        try
        {
            if (!latch.await(AWAIT_MS, TimeUnit.MILLISECONDS))
            {
                fail("timed out after " + AWAIT_MS + " ms");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            fail("interrupted");
        }
    }

    private static void awaitCondition(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AWAIT_MS);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out after " + AWAIT_MS + " ms waiting for " + what);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /**
     * Sends one command to a Redis server on a fresh connection, for setting up what AgniStore cannot.
     */
    static final class RawRedis
    {
        private RawRedis()
        {
        }

        static void command(final int port, final String... args)
        {
            final StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
            for (final String arg : args)
            {
                request.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
            }
            try (java.net.Socket socket = new java.net.Socket(InetAddress.getLoopbackAddress(), port))
            {
                socket.setSoTimeout(5000);
                socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.US_ASCII));
                final int first = socket.getInputStream().read();
                assertTrue(first == ':' || first == '+', "reply to " + String.join(" ", args));
            }
            catch (final IOException ex)
            {
                throw new java.io.UncheckedIOException(ex);
            }
        }
    }
}
