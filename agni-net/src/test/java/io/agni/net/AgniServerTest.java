package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.protocol.ProtocolLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.await;
import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link AgniServer} over real loopback sockets with a raw RESP client: commands, pipelining, inline commands,
 * QUIT, authentication, protected mode, max clients, idle timeout and the lifecycle.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("socket")
class AgniServerTest
{
    private static final String PASSWORD = "correct horse battery staple";

    private final List<AutoCloseable> resources = new ArrayList<>();
    private AgniStore store;

    @BeforeEach
    void openStore()
    {
        store = newStore();
    }

    @AfterEach
    void closeEverything()
    {
        for (int i = resources.size() - 1; i >= 0; i--)
        {
            closeQuietly(resources.get(i));
        }
        store.close();
    }

    private AgniServer start(final AgniServerBuilder builder)
    {
        final AgniServer server = builder.build().start();
        resources.add(server);
        return server;
    }

    private RawRespConnection connect(final AgniServer server) throws IOException
    {
        final RawRespConnection connection = RawRespConnection.connect(server);
        resources.add(connection);
        return connection;
    }

    @Test
    void servesSetAndGet() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final RawRespConnection client = connect(server);

        assertEquals("+OK", client.call("SET", "greeting", "hello"));
        assertEquals("hello", client.call("GET", "greeting"));
        assertNull(client.call("GET", "missing"));
        assertEquals("+PONG", client.call("PING"));
        assertEquals("hello", new String(store.get(bytes("greeting")), StandardCharsets.UTF_8));
    }

    @Test
    void answersOneThousandCommandsPipelinedInOneWriteInOrder() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final RawRespConnection client = connect(server);
        final ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
        for (int i = 0; i < 1000; i++)
        {
            pipeline.writeBytes(RawRespConnection.encode("SET", "key:" + i, "value:" + i));
        }
        client.sendRaw(pipeline.toByteArray());
        for (int i = 0; i < 1000; i++)
        {
            assertEquals("+OK", client.read(), "reply " + i);
        }

        pipeline.reset();
        for (int i = 0; i < 1000; i++)
        {
            pipeline.writeBytes(RawRespConnection.encode("GET", "key:" + i));
        }
        client.sendRaw(pipeline.toByteArray());
        for (int i = 0; i < 1000; i++)
        {
            assertEquals("value:" + i, client.read(), "reply " + i);
        }
    }

    @Test
    void pipelinedGetsOfValuesLargerThanTheReplyBufferArriveWholeAndInOrder() throws IOException
    {
        // Values go from the store straight into the reply buffer: sizes on both sides of the initial 16 KiB and of
        // the 256 KiB mid-batch flush, headers of every digit count, misses and an empty value between them.
        final int[] sizes = {100, 0, 20_000, 7, 300_000, 100, 99_999};
        final AgniServer server = start(serverOn(store));
        final RawRespConnection client = connect(server);
        for (int i = 0; i < sizes.length; i++)
        {
            assertEquals("+OK", client.call("SET", "big:" + i, value(sizes[i], i)));
        }
        final ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < sizes.length; i++)
            {
                pipeline.writeBytes(RawRespConnection.encode("GET", "big:" + i));
                pipeline.writeBytes(RawRespConnection.encode("GET", "missing:" + i));
            }
        }
        client.sendRaw(pipeline.toByteArray());

        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < sizes.length; i++)
            {
                assertEquals(value(sizes[i], i), client.read(), "round " + round + ", value " + i);
                assertNull(client.read(), "round " + round + ", miss " + i);
            }
        }
    }

    private static String value(final int length, final int seed)
    {
        final StringBuilder value = new StringBuilder(length);
        for (int i = 0; i < length; i++)
        {
            value.append((char)('a' + (i + seed) % 26));
        }
        return value.toString();
    }

    @Test
    void servesInlineCommands() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final RawRespConnection client = connect(server);

        client.sendRaw("PING\r\n");
        assertEquals("+PONG", client.read());
        client.sendRaw("SET colour \"dark blue\"\r\nGET colour\n");
        assertEquals("+OK", client.read());
        assertEquals("dark blue", client.read());
    }

    @Test
    void quitRepliesOkAndClosesTheConnection() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final RawRespConnection client = connect(server);
        assertEquals("+PONG", client.call("PING"));

        client.sendRaw(concat(RawRespConnection.encode("QUIT"), RawRespConnection.encode("SET", "after", "quit")));

        assertEquals("+OK", client.read());
        assertTrue(client.awaitClosedByServer(ServerFixture.AWAIT_MS), "connection closed after QUIT");
        client.close();
        await("the client to be released", () -> server.connectedClients() == 0);
        assertNull(store.get(bytes("after")), "a command after QUIT is not executed");
    }

    @Test
    void aPasswordHoldsClientsToAuthHelloAndQuitUntilTheyAuthenticate() throws IOException
    {
        final AgniServer server = start(serverOn(store).password(PASSWORD));
        final RawRespConnection client = connect(server);

        assertEquals("-NOAUTH Authentication required.", client.call("GET", "k"));
        assertEquals("-NOAUTH Authentication required.", client.call("PING"), "as Redis 7 answers");
        assertEquals(
            "-WRONGPASS invalid username-password pair or user is disabled.", client.call("AUTH", "wrong"));
        assertEquals("-NOAUTH Authentication required.", client.call("SET", "k", "v"));
        assertNull(store.get(bytes("k")));

        assertEquals("+OK", client.call("AUTH", PASSWORD));
        assertEquals("+OK", client.call("SET", "k", "v"));
        assertEquals("v", client.call("GET", "k"));

        final String large = "x".repeat(20_000);
        assertEquals("+OK", client.call("SET", "large", large), "an authenticated client may send a bulk > 16 KiB");
        assertEquals(large, client.call("GET", "large"));
    }

    @Test
    void authAcceptsTheDefaultUserByName() throws IOException
    {
        final AgniServer server = start(serverOn(store).password(PASSWORD));
        final RawRespConnection client = connect(server);

        assertEquals(
            "-WRONGPASS invalid username-password pair or user is disabled.",
            client.call("AUTH", "someone", PASSWORD));
        assertEquals("+OK", client.call("AUTH", "default", PASSWORD));
        assertEquals("+PONG", client.call("PING"));
    }

    @Test
    void protectedModeDeniesANonLoopbackClientWhenNoPasswordIsSet() throws IOException
    {
        final InetAddress address = nonLoopbackAddressOrSkip();
        final AgniServer server = start(serverOn(store).bindAddress(address));
        final RawRespConnection client = connect(server);

        client.send("PING");

        assertEquals(ServerReplies.DENIED.substring(0, ServerReplies.DENIED.length() - 2), client.read());
        assertTrue(client.awaitClosedByServer(ServerFixture.AWAIT_MS), "connection closed after DENIED");
        assertEquals(1, server.stats().protectedModeDenials());
        client.close();
        await("the client to be released", () -> server.connectedClients() == 0);
    }

    @Test
    void protectedModeLetsNonLoopbackClientsInWhenAPasswordIsSet() throws IOException
    {
        final InetAddress address = nonLoopbackAddressOrSkip();
        final AgniServer server = start(serverOn(store).bindAddress(address).password(PASSWORD));
        final RawRespConnection client = connect(server);

        assertEquals("-NOAUTH Authentication required.", client.call("PING"), "served, not denied: PING needs AUTH");
        assertEquals("+OK", client.call("AUTH", PASSWORD));
        assertEquals("+OK", client.call("SET", "k", "v"));
        assertEquals(0, server.stats().protectedModeDenials());
    }

    @Test
    void protectedModeTurnedOffServesNonLoopbackClientsWithoutPassword() throws IOException
    {
        final InetAddress address = nonLoopbackAddressOrSkip();
        final AgniServer server = start(serverOn(store).bindAddress(address).protectedMode(false));
        final RawRespConnection client = connect(server);

        assertEquals("+OK", client.call("SET", "k", "v"));
        assertEquals("v", client.call("GET", "k"));
    }

    @Test
    void protectedModeServesLoopbackClientsOfAServerBoundToEveryInterface() throws IOException
    {
        final AgniServer server = start(serverOn(store).bindAddress("0.0.0.0"));
        final RawRespConnection client = new RawRespConnection(InetAddress.getLoopbackAddress(), server.port());
        resources.add(client);

        assertEquals("+PONG", client.call("PING"));
    }

    @Test
    void refusesTheClientPastMaxClientsAndServesANewOneOnceASlotIsFree() throws IOException
    {
        final AgniServer server = start(serverOn(store).maxClients(2));
        final RawRespConnection first = connect(server);
        final RawRespConnection second = connect(server);
        assertEquals("+PONG", first.call("PING"));
        assertEquals("+PONG", second.call("PING"));

        final RawRespConnection third = connect(server);
        assertEquals("-ERR max number of clients reached", third.read());
        assertTrue(third.awaitClosedByServer(ServerFixture.AWAIT_MS));
        assertEquals(1, server.stats().rejectedConnections());

        first.close();
        await("the closed client's slot to be released", () -> server.connectedClients() == 1);
        final RawRespConnection fourth = connect(server);
        assertEquals("+PONG", fourth.call("PING"));
        assertEquals("+PONG", second.call("PING"));
    }

    @Test
    void closesAClientIdleForTheTimeoutAndKeepsABusyOne() throws IOException
    {
        final AgniServer server = start(serverOn(store).idleTimeout(Duration.ofSeconds(1)));
        final RawRespConnection idle = connect(server);
        final RawRespConnection busy = connect(server);
        assertEquals("+PONG", idle.call("PING"));

        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        boolean idleClosed = false;
        while (!idleClosed && System.nanoTime() - deadline < 0)
        {
            assertEquals("+PONG", busy.call("PING"), "a client that keeps sending commands is not idle");
            idleClosed = idle.awaitClosedByServer(20);
        }

        assertTrue(idleClosed, "the idle client is closed");
        assertEquals(1, server.stats().idleTimeoutDisconnections());
        assertEquals("+PONG", busy.call("PING"));
    }

    @Test
    void listsTheSessionsOfConnectedClients() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final RawRespConnection first = connect(server);
        final RawRespConnection second = connect(server);
        assertEquals("+PONG", first.call("PING"));
        assertEquals("+PONG", second.call("PING"));

        assertEquals(2, server.context().sessions().size());
        assertEquals(server.port(), server.context().tcpPort());
        assertNotEquals(
            server.context().sessions().get(0).id(), server.context().sessions().get(1).id());

        first.close();
        await("the closed client's session to go", () -> server.context().sessions().size() == 1);
    }

    @Test
    void configGetAndInfoReportTheServersOwnSettings() throws IOException
    {
        final AgniServer server = start(serverOn(store)
            .maxClients(77)
            .idleTimeout(Duration.ofSeconds(90))
            .protocolLimits(ProtocolLimits.DEFAULT.withMaxBulkLength(1 << 20)));
        final RawRespConnection client = connect(server);

        assertEquals(List.of("maxclients", "77"), client.call("CONFIG", "GET", "maxclients"));
        assertEquals(List.of("timeout", "90"), client.call("CONFIG", "GET", "timeout"));
        assertEquals(List.of("bind", "127.0.0.1"), client.call("CONFIG", "GET", "bind"));
        assertEquals(List.of("port", Integer.toString(server.port())), client.call("CONFIG", "GET", "port"));
        assertEquals(List.of("proto-max-bulk-len", "1048576"), client.call("CONFIG", "GET", "proto-max-bulk-len"));
        final String info = (String)client.call("INFO");
        assertTrue(info.contains("tcp_port:" + server.port() + "\r\n"), info);
        assertTrue(info.contains("connected_clients:1\r\n"), info);
    }

    @Test
    void anEphemeralPortIsReadableAfterStartOnly()
    {
        final AgniServer server = serverOn(store).build();
        resources.add(server);
        assertThrows(IllegalStateException.class, server::port);

        server.start();

        assertTrue(server.port() > 0);
        assertTrue(server.isRunning());
    }

    @Test
    void startsOnceOnly()
    {
        final AgniServer server = start(serverOn(store));
        assertEquals("server already started", assertThrows(IllegalStateException.class, server::start).getMessage());
        server.close();
        assertEquals("server closed", assertThrows(IllegalStateException.class, server::start).getMessage());
    }

    @Test
    void startFailsWithTheAddressWhenThePortIsTaken()
    {
        final AgniServer first = start(serverOn(store));
        final AgniServer second = serverOn(store).port(first.port()).build();

        final UncheckedIOException ex = assertThrows(UncheckedIOException.class, second::start);

        assertTrue(ex.getMessage().startsWith("cannot listen on 127.0.0.1:" + first.port()), ex.getMessage());
        assertFalse(second.isRunning());
    }

    @Test
    void closeDisconnectsClientsAndReleasesThePortForANewServer() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final int port = server.port();
        final RawRespConnection client = connect(server);
        assertEquals("+OK", client.call("SET", "survives", "restart"));

        server.close();
        server.close();

        assertFalse(server.isRunning());
        assertTrue(client.awaitClosedByServer(ServerFixture.AWAIT_MS), "clients are disconnected");
        final AgniServer again = start(serverOn(store).port(port));
        final RawRespConnection next = connect(again);
        assertEquals("restart", next.call("GET", "survives"));
    }

    @Test
    void closeReturnsWithinTheShutdownTimeoutWhenAClientNeverReads() throws IOException
    {
        final AgniServer server = start(serverOn(store).shutdownTimeout(Duration.ofMillis(200)));
        final RawRespConnection writer = connect(server);
        assertEquals("+OK", writer.call("SET", "big", "v".repeat(512 * 1024)));
        final RawRespConnection neverReads = connect(server);
        final ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
        for (int i = 0; i < 64; i++)
        {
            pipeline.writeBytes("GET big\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        neverReads.sendRaw(pipeline.toByteArray());
        await("replies to pile up", () -> server.stats().peakOutputBufferBytes() > 1024 * 1024);

        final long start = System.nanoTime();
        server.close();
        final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertTrue(tookMs < 5_000, "close took " + tookMs + " ms");
        assertTrue(neverReads.awaitClosedByServer(ServerFixture.AWAIT_MS));
    }

    @Test
    void aClosedConnectionIsAnEndOfStreamForTheClient() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final RawRespConnection client = connect(server);
        assertEquals("+PONG", client.call("PING"));
        server.close();

        assertThrows(EOFException.class, client::read);
    }

    private static InetAddress nonLoopbackAddressOrSkip() throws IOException
    {
        final Optional<InetAddress> address = ServerFixture.nonLoopbackAddress();
        assumeTrue(address.isPresent(), "this machine has no non-loopback IPv4 address to bind to");
        return address.get();
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(final byte[] first, final byte[] second)
    {
        final byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
