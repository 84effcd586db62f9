package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.protocol.ProtocolLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.await;
import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile and broken clients over real sockets. Each test starts a server with a well-behaved bystander client
 * that has written keys and had them acknowledged; after the hostile client has done its worst, the bystander is
 * still served on the same connection, a new client is served, and every acknowledged write is still there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("socket")
class HostileInputTest
{
    private static final String PASSWORD = "hunter2 but longer";
    private static final int ACKNOWLEDGED_WRITES = 50;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Map<String, String> acknowledged = new LinkedHashMap<>();
    private AgniStore store;
    private AgniServer server;
    private RawRespConnection bystander;
    private boolean passwordSet;

    @BeforeEach
    void openStore()
    {
        store = ServerFixture.newStore();
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

    @Test
    void malformedRequestsGetRedisProtocolErrorsAndAreDisconnected() throws IOException
    {
        startServer(serverOn(store));

        assertProtocolError("*1\r\n!garbage\r\n", "-ERR Protocol error: expected '$', got '!'");
        assertProtocolError("*x\r\n", "-ERR Protocol error: invalid multibulk length");
        assertProtocolError("*1\r\n$-7\r\n", "-ERR Protocol error: invalid bulk length");
        assertProtocolError("SET k \"unterminated\r\n", "-ERR Protocol error: unbalanced quotes in request");

        assertEquals(4, server.stats().protocolErrors());
        assertOthersStillServed();
    }

    @Test
    void randomGarbageNeverStopsTheServer() throws IOException
    {
        startServer(serverOn(store));
        final Random random = new Random(42);

        for (int i = 0; i < 40; i++)
        {
            final RawRespConnection hostile = connect();
            final byte[] garbage = new byte[8 * 1024];
            random.nextBytes(garbage);
            final String prefix = i % 3 == 0 ? "*3\r\n$3\r\n" : i % 3 == 1 ? "*" : "";
            hostile.sendRaw(concat(prefix.getBytes(StandardCharsets.US_ASCII), garbage));
            hostile.socket().shutdownOutput();
            assertTrue(hostile.awaitClosedByServer(ServerFixture.AWAIT_MS), "garbage connection " + i + " closed");
            hostile.close();
        }

        await("every garbage connection to be released", () -> server.connectedClients() == 1);
        assertOthersStillServed();
    }

    @Test
    void anOversizeBulkLengthIsRefusedAsSoonAsItIsDeclared() throws IOException
    {
        startServer(serverOn(store).protocolLimits(ProtocolLimits.DEFAULT.withMaxBulkLength(1024 * 1024)));

        assertProtocolError("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1048577\r\n", "-ERR Protocol error: invalid bulk length");
        assertProtocolError("*2\r\n$3\r\nGET\r\n$2147483648\r\n", "-ERR Protocol error: invalid bulk length");
        assertProtocolError(
            "*2\r\n$3\r\nGET\r\n$99999999999999999999\r\n", "-ERR Protocol error: invalid bulk length");

        assertNull(store.get(bytes("k")));
        assertOthersStillServed();
    }

    @Test
    void aHugeMultibulkCountIsRefusedAsSoonAsItIsDeclared() throws IOException
    {
        startServer(serverOn(store));

        assertProtocolError("*1048577\r\n", "-ERR Protocol error: invalid multibulk length");
        assertProtocolError("*2147483648\r\n", "-ERR Protocol error: invalid multibulk length");
        assertProtocolError("*9223372036854775808\r\n", "-ERR Protocol error: invalid multibulk length");

        assertOthersStillServed();
    }

    @Test
    void aPendingCommandPastTheQueryBufferLimitIsDisconnected() throws IOException
    {
        startServer(serverOn(store).maxQueryBuffer(64 * 1024));

        final RawRespConnection declaresTooMuch = connect();
        declaresTooMuch.sendRaw("*3\r\n$3\r\nSET\r\n$7\r\ntoo-big\r\n$200000\r\n");
        assertTrue(declaresTooMuch.awaitClosedByServer(ServerFixture.AWAIT_MS), "closed once the length is known");

        final RawRespConnection manySmallArguments = connect();
        manySmallArguments.sendRaw("*1000000\r\n$3\r\nDEL\r\n");
        final byte[] argument = "$1\r\na\r\n".getBytes(StandardCharsets.US_ASCII);
        final ByteArrayOutputStream chunk = new ByteArrayOutputStream();
        for (int i = 0; i < 1024; i++)
        {
            chunk.writeBytes(argument);
        }
        boolean closed = false;
        for (int i = 0; i < 100 && !closed; i++)
        {
            try
            {
                manySmallArguments.sendRaw(chunk.toByteArray());
                closed = manySmallArguments.awaitClosedByServer(1);
            }
            catch (final IOException ex)
            {
                closed = true;
            }
        }
        assertTrue(closed || manySmallArguments.awaitClosedByServer(ServerFixture.AWAIT_MS), "closed at the limit");

        await("both clients to be counted", () -> server.stats().queryBufferLimitDisconnections() == 2);
        assertNull(store.get(bytes("too-big")));
        assertOthersStillServed();
    }

    @Test
    void anUnauthenticatedClientCannotSendALargePayload() throws IOException
    {
        passwordSet = true;
        startServer(serverOn(store).password(PASSWORD));

        assertProtocolError("*2\r\n$4\r\nAUTH\r\n$16385\r\n", "-ERR Protocol error: unauthenticated bulk length");
        assertProtocolError("*11\r\n", "-ERR Protocol error: unauthenticated multibulk length");
        final RawRespConnection unauthenticated = connect();
        assertEquals("-NOAUTH Authentication required.", unauthenticated.call("SET", "k", "x".repeat(16 * 1024)));
        assertNull(store.get(bytes("k")));

        assertOthersStillServed();
    }

    @Test
    void aSlowSenderIsClosedByTheIdleTimeoutWhileOthersAreServed() throws IOException
    {
        startServer(serverOn(store).idleTimeout(Duration.ofSeconds(1)));
        final RawRespConnection slow = connect();
        final byte[] command = RawRespConnection.encode("SET", "slow", "v".repeat(200));

        boolean closed = false;
        for (int i = 0; i < command.length && !closed; i++)
        {
            try
            {
                slow.sendRaw(new byte[] {command[i]});
                closed = slow.awaitClosedByServer(20);
            }
            catch (final IOException ex)
            {
                closed = true;
            }
            assertEquals("+PONG", bystander.call("PING"), "the bystander is served at byte " + i);
        }

        assertTrue(closed, "the slow sender is closed before it completes its command");
        assertEquals(1, server.stats().idleTimeoutDisconnections());
        assertNull(store.get(bytes("slow")));
        assertOthersStillServed();
    }

    @Test
    void aClientThatNeverReadsIsDisconnectedAtTheOutputLimitWithMemoryBounded() throws IOException
    {
        final int limit = 1024 * 1024;
        final int valueLength = 256 * 1024;
        startServer(serverOn(store).maxOutputBuffer(limit));
        assertEquals("+OK", bystander.call("SET", "big", "v".repeat(valueLength)));
        acknowledged.put("big", "v".repeat(valueLength));

        final RawRespConnection neverReads = connect();
        final ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
        for (int i = 0; i < 4000; i++)
        {
            pipeline.writeBytes("GET big\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        neverReads.sendRaw(pipeline.toByteArray());

        await("the client to be disconnected", () -> server.stats().outputBufferLimitDisconnections() == 1);
        await("its slot to be released", () -> server.connectedClients() == 1);
        final long peak = server.stats().peakOutputBufferBytes();
        assertTrue(peak <= limit, "the replies held never pass the limit, let alone 4000 x 256 KiB: peak=" + peak);
        assertOthersStillServed();
    }

    @Test
    void aReplyLargerThanTheOutputLimitIsRefusedWhileItIsWrittenNotAfterItIsBuilt() throws IOException
    {
        final int limit = 256 * 1024;
        startServer(serverOn(store).maxOutputBuffer(limit));
        final String large = "v".repeat(4 * limit);
        assertEquals("+OK", bystander.call("SET", "large", large));
        final String medium = "m".repeat(limit / 4);
        final String[] mget = new String[9];
        mget[0] = "MGET";
        for (int i = 1; i < mget.length; i++)
        {
            assertEquals("+OK", bystander.call("SET", "medium:" + i, medium));
            acknowledged.put("medium:" + i, medium);
            mget[i] = "medium:" + i;
        }
        final String longKeyPrefix = "k".repeat(1000);
        for (int i = 0; i < 300; i++)
        {
            assertEquals("+OK", bystander.call("SET", longKeyPrefix + i, "1"));
        }

        assertDisconnectedWithoutAReply(RawRespConnection.encode("GET", "large"));
        assertDisconnectedWithoutAReply(RawRespConnection.encode(mget));
        assertDisconnectedWithoutAReply(RawRespConnection.encode("KEYS", "*"));
        assertDisconnectedWithoutAReply(RawRespConnection.encode("GETDEL", "large"));

        await("the clients to be counted", () -> server.stats().outputBufferLimitDisconnections() == 4);
        final long peak = server.stats().peakOutputBufferBytes();
        assertTrue(peak <= limit, "no reply buffer grew past the limit to hold a reply it could not send: " + peak);
        assertEquals(large, new String(store.get(bytes("large")), StandardCharsets.UTF_8), "GETDEL deleted nothing");
        assertOthersStillServed();
    }

    @Test
    void oneThousandConcurrentConnectionsAreAllServed() throws IOException
    {
        startServer(serverOn(store));
        final List<RawRespConnection> clients = new ArrayList<>();
        for (int i = 0; i < 1000; i++)
        {
            clients.add(connect());
        }
        for (int i = 0; i < clients.size(); i++)
        {
            clients.get(i).send("SET", "conn:" + i, "value:" + i);
        }
        for (int i = 0; i < clients.size(); i++)
        {
            assertEquals("+OK", clients.get(i).read(), "client " + i);
        }
        assertEquals(1001, server.connectedClients());
        for (int i = 0; i < clients.size(); i++)
        {
            clients.get(i).send("GET", "conn:" + ((i + 1) % clients.size()));
        }
        for (int i = 0; i < clients.size(); i++)
        {
            assertEquals("value:" + ((i + 1) % clients.size()), clients.get(i).read(), "client " + i);
        }

        for (final RawRespConnection client : clients)
        {
            client.close();
        }
        await("every client to be released", () -> server.connectedClients() == 1);
        assertEquals(1001, server.stats().totalConnectionsReceived());
        assertOthersStillServed();
    }

    @Test
    void abruptDisconnectsInTheMiddleOfACommandExecuteNothingAndReleaseEverything() throws IOException
    {
        startServer(serverOn(store));

        for (int i = 0; i < 200; i++)
        {
            final RawRespConnection client = connect();
            final byte[] command = RawRespConnection.encode("SET", "abrupt:" + i, "value:" + i);
            final int cut = 1 + (i * 7) % (command.length - 1);
            final byte[] partial = new byte[cut];
            System.arraycopy(command, 0, partial, 0, cut);
            client.sendRaw(partial);
            if (i % 2 == 0)
            {
                client.abort();
            }
            else
            {
                client.close();
            }
        }
        final RawRespConnection halfABigValue = connect();
        halfABigValue.sendRaw("*3\r\n$3\r\nSET\r\n$10\r\nabrupt:big\r\n$1048576\r\n");
        halfABigValue.sendRaw(new byte[512 * 1024]);
        halfABigValue.abort();

        await("every aborted client to be released", () -> server.connectedClients() == 1);
        for (int i = 0; i < 200; i++)
        {
            assertNull(store.get(bytes("abrupt:" + i)), "a partial command is never executed: " + i);
        }
        assertNull(store.get(bytes("abrupt:big")));
        assertOthersStillServed();
    }

    @Test
    void moreClientsThanTheLimitAreRefusedWhileTheOthersAreServed() throws IOException
    {
        startServer(serverOn(store).maxClients(20));
        final List<RawRespConnection> served = new ArrayList<>();
        for (int i = 1; i < 20; i++)
        {
            final RawRespConnection client = connect();
            assertEquals("+PONG", client.call("PING"));
            served.add(client);
        }

        for (int i = 0; i < 50; i++)
        {
            final RawRespConnection refused = connect();
            assertEquals("-ERR max number of clients reached", refused.read(), "connection " + i);
            assertTrue(refused.awaitClosedByServer(ServerFixture.AWAIT_MS));
            refused.close();
        }

        assertEquals(50, server.stats().rejectedConnections());
        assertEquals(20, server.connectedClients());
        for (final RawRespConnection client : served)
        {
            assertEquals("+PONG", client.call("PING"));
        }
        served.get(0).close();
        await("a slot to be released", () -> server.connectedClients() == 19);
        assertOthersStillServed();
    }

    /**
     * The request's reply would pass the output limit: the server closes the connection and sends nothing.
     */
    private void assertDisconnectedWithoutAReply(final byte[] request) throws IOException
    {
        final RawRespConnection client = connect();
        client.sendRaw(request);
        final long received = client.readUntilClosed(ServerFixture.AWAIT_MS);
        assertEquals(0, received, "bytes received before the server closed the connection");
    }

    private void startServer(final AgniServerBuilder builder) throws IOException
    {
        server = builder.build().start();
        resources.add(server);
        bystander = connect();
        if (passwordSet)
        {
            assertEquals("+OK", bystander.call("AUTH", PASSWORD));
        }
        for (int i = 0; i < ACKNOWLEDGED_WRITES; i++)
        {
            final String key = "acknowledged:" + i;
            final String value = "value:" + i;
            assertEquals("+OK", bystander.call("SET", key, value));
            acknowledged.put(key, value);
        }
    }

    private RawRespConnection connect() throws IOException
    {
        final RawRespConnection connection = RawRespConnection.connect(server);
        resources.add(connection);
        return connection;
    }

    /**
     * The hostile request gets Redis's protocol error, then the server closes the connection.
     */
    private void assertProtocolError(final String request, final String expectedReply) throws IOException
    {
        final RawRespConnection hostile = connect();
        hostile.sendRaw(request);
        assertEquals(expectedReply, hostile.read(), "reply to " + request.replace("\r\n", "\\r\\n"));
        assertTrue(hostile.awaitClosedByServer(ServerFixture.AWAIT_MS), "closed after " + expectedReply);
        hostile.close();
    }

    /**
     * The bystander is still served on its own connection, a new client is served too, and every write acknowledged
     * before is there.
     */
    private void assertOthersStillServed() throws IOException
    {
        assertEquals("+PONG", bystander.call("PING"));
        for (final Map.Entry<String, String> write : acknowledged.entrySet())
        {
            assertEquals(write.getValue(), bystander.call("GET", write.getKey()), write.getKey());
        }
        final RawRespConnection newcomer = connect();
        if (passwordSet)
        {
            assertEquals("+OK", newcomer.call("AUTH", PASSWORD));
        }
        assertEquals("+OK", newcomer.call("SET", "newcomer", "welcome"));
        assertEquals("welcome", newcomer.call("GET", "newcomer"));
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
