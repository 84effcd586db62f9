package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.await;
import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The clients' buffers are one account, apart from the store's budget: INFO reports them in
 * {@code mem_clients_normal}, beside the store's {@code used_memory}, they shrink back after a large command, and past
 * {@code maxClientMemory} the client with the largest buffers is disconnected first.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("socket")
class ClientMemoryTest
{
    private static final int BASE = QueryBuffer.INITIAL_CAPACITY + ReplyBuffer.INITIAL_CAPACITY;
    private static final int MIB = 1 << 20;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private AgniStore store;

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
    void infoReportsTheClientsBuffersAsTheyGrowAndShrinkBesideTheStoresUsedMemory() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final RawRespConnection observer = connect(server);
        final long base = info(observer, "mem_clients_normal");
        assertEquals(server.stats().clientMemoryBytes(), base);
        assertTrue(base > BASE, "the observer's buffers and each loop's scratch buffer are counted: " + base);

        final RawRespConnection sender = connect(server);
        await("the sender's buffers to be counted", () -> info(observer, "mem_clients_normal") == base + BASE);
        sender.sendRaw("*3\r\n$3\r\nSET\r\n$5\r\nlarge\r\n$" + MIB + "\r\n");
        sender.sendRaw(new byte[700 * 1024]);
        await("the sender's query buffer to grow",
            () -> info(observer, "mem_clients_normal") >= base + BASE + 700 * 1024);
        final long clients = info(observer, "mem_clients_normal");
        assertEquals(store.stats().offHeapBytes(), info(observer, "used_memory"),
            "used_memory is what the store's budget counts, without the clients' buffers");
        assertEquals(store.stats().offHeapBytes() + clients, info(observer, "agni_used_memory_total"));

        sender.sendRaw(new byte[MIB - 700 * 1024]);
        sender.sendRaw("\r\n");
        assertEquals("+OK", sender.read());
        await("the query buffer to shrink once the command ran",
            () -> info(observer, "mem_clients_normal") == base + BASE);
        sender.close();
        await("the sender's buffers to be freed", () -> info(observer, "mem_clients_normal") == base);
        assertEquals(store.stats().offHeapBytes(), info(observer, "used_memory"));
        assertEquals(store.stats().offHeapBytes() + base, info(observer, "agni_used_memory_total"));
    }

    @Test
    void buffersReturnToTheirFirstSizeRightAfterALargeCommandNotOnlyWhenIdle() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final RawRespConnection client = connect(server);
        final String value = "v".repeat(MIB);

        assertEquals("+OK", client.call("SET", "large", value));
        assertEquals(value, client.call("GET", "large"));
        final String line = (String)client.call("CLIENT", "INFO");

        assertTrue(line.contains(" qbuf=" + QueryBuffer.INITIAL_CAPACITY + " "), line);
        assertTrue(line.contains(" rbs=" + ReplyBuffer.INITIAL_CAPACITY + " "), line);
        assertTrue(line.contains(" tot-mem=" + BASE + " "), line);
        assertTrue(server.stats().peakClientMemoryBytes() > 2 * MIB, "the command did need large buffers");
    }

    /**
     * Four clients on two event loops, accepted in turn: the observer and L on loop 0, M and T on loop 1. M and L
     * hold 1 and 2 MiB of partial commands; T's growth past the limit evicts L, the largest, which its own loop closes.
     */
    @Test
    void theClientWithTheLargestBuffersIsEvictedFirst() throws IOException
    {
        final AgniServer server = start(serverOn(store).maxClientMemory(5L * MIB));
        final RawRespConnection observer = connect(server);
        final RawRespConnection medium = connect(server);
        final RawRespConnection large = connect(server);
        final RawRespConnection trigger = connect(server);

        final byte[] mediumValue = filled(MIB, 'm');
        medium.sendRaw(setHeader("medium", mediumValue.length));
        medium.sendRaw(slice(mediumValue, 0, 700 * 1024));
        await("the medium client to hold 1 MiB", () -> server.stats().clientMemoryBytes() >= 3 * BASE + MIB);
        final byte[] largeValue = filled(2 * MIB, 'l');
        large.sendRaw(setHeader("large", largeValue.length));
        large.sendRaw(slice(largeValue, 0, 3 * MIB / 2));
        await("the large client to hold 2 MiB", () -> server.stats().clientMemoryBytes() >= 2 * BASE + 3 * MIB);
        assertEquals(0, server.stats().evictedClients());

        final byte[] triggerValue = filled(3 * MIB / 2, 't');
        trigger.sendRaw(setHeader("trigger", triggerValue.length));
        trigger.sendRaw(triggerValue);
        trigger.sendRaw("\r\n");

        assertEquals("+OK", trigger.read(), "the client that grew is served");
        assertTrue(large.awaitClosedByServer(ServerFixture.AWAIT_MS), "the largest client is disconnected");
        medium.sendRaw(slice(mediumValue, 700 * 1024, mediumValue.length - 700 * 1024));
        medium.sendRaw("\r\n");
        assertEquals("+OK", medium.read(), "the smaller client is served");
        assertEquals("+PONG", observer.call("PING"));
        assertEquals(1, server.stats().evictedClients());
        assertEquals(1, info(observer, "evicted_clients"));
        assertArrayEquals(triggerValue, store.get(bytes("trigger")));
        assertArrayEquals(mediumValue, store.get(bytes("medium")));
        assertNull(store.get(bytes("large")));
    }

    @Test
    void aClientWhoseGrowthWouldMakeItTheLargestPastTheLimitIsTheOneEvicted() throws IOException
    {
        final AgniServer server = start(serverOn(store).eventLoopThreads(1).maxClientMemory(2L * MIB));
        final RawRespConnection observer = connect(server);
        final RawRespConnection greedy = connect(server);

        // Within its own query limit (lowered to maxClientMemory), but not beside the 1 MiB buffer it grows from.
        greedy.sendRaw(setHeader("greedy", 2 * MIB - 100 * 1024));
        boolean closed = false;
        for (int i = 0; i < 32 && !closed; i++)
        {
            try
            {
                greedy.sendRaw(new byte[64 * 1024]);
            }
            catch (final IOException ex)
            {
                closed = true;
            }
        }

        assertTrue(closed || greedy.awaitClosedByServer(ServerFixture.AWAIT_MS), "the greedy client is evicted");
        await("the eviction to be counted", () -> server.stats().evictedClients() == 1);
        assertEquals(0, server.stats().queryBufferLimitDisconnections());
        assertTrue(server.stats().peakClientMemoryBytes() <= 2L * MIB, "with one loop the limit holds exactly");
        assertEquals("+PONG", observer.call("PING"));
        assertNull(store.get(bytes("greedy")));
        assertFalse(info(observer, "mem_clients_normal") > 2L * MIB);
    }

    @Test
    void aTransactionsQueueIsCountedGivenBackAfterExecAndFreedWithItsConnection() throws IOException
    {
        final AgniServer server = start(serverOn(store));
        final RawRespConnection observer = connect(server);
        final long base = info(observer, "mem_clients_normal");
        final RawRespConnection client = connect(server);
        await("the client's buffers to be counted", () -> info(observer, "mem_clients_normal") == base + BASE);

        assertEquals("+OK", client.call("MULTI"));
        assertEquals("+QUEUED", client.call("SET", "large", "q".repeat(300 * 1024)));
        assertTrue(info(observer, "mem_clients_normal") >= base + BASE + 300 * 1024, "the queue is counted");
        final String line = (String)observer.call("CLIENT", "LIST");
        assertTrue(line.contains(" flags=x db=0 sub=0 psub=0 ssub=0 multi=1 "), line);

        assertEquals(List.of("+OK"), client.call("EXEC"));
        // the queue keeps its first 1 KiB for the next transaction
        await("the queue to be given back after EXEC",
            () -> info(observer, "mem_clients_normal") == base + BASE + 1024);
        assertEquals("+OK", client.call("MULTI"));
        assertEquals("+QUEUED", client.call("SET", "again", "q".repeat(200 * 1024)));
        client.close();
        await("the connection's queue to be freed with it", () -> info(observer, "mem_clients_normal") == base);
        assertNull(store.get(bytes("again")), "the transaction died with its connection");
    }

    @Test
    void aClientWhoseTransactionQueueGrowsPastTheLimitIsEvicted() throws IOException
    {
        final AgniServer server = start(serverOn(store).eventLoopThreads(1).maxClientMemory(2L * MIB));
        final RawRespConnection observer = connect(server);
        final RawRespConnection greedy = connect(server);
        assertEquals("+OK", greedy.call("MULTI"));

        boolean closed = false;
        for (int i = 0; i < 16 && !closed; i++)
        {
            try
            {
                greedy.send("SET", "greedy" + i, "g".repeat(256 * 1024));
                closed = !"+QUEUED".equals(greedy.read());
            }
            catch (final IOException ex)
            {
                closed = true;
            }
        }

        assertTrue(closed, "the greedy client is evicted");
        await("the eviction to be counted", () -> server.stats().evictedClients() == 1);
        assertEquals("+PONG", observer.call("PING"));
        assertEquals(0, store.size(), "nothing of the transaction ran");
        assertFalse(info(observer, "mem_clients_normal") > 2L * MIB);
    }

    /**
     * A connection that grows evicts the others of its loop at once, possibly while the selector is still handing
     * over this round's ready keys: the loop must skip the key of a connection closed that way.
     */
    @Test
    void theLoopSkipsTheKeyOfAConnectionClosedEarlierInTheSameRound() throws IOException
    {
        final AgniServerConfig config = serverOn(store).config();
        final EventLoop loop = new EventLoop("test-loop", config, new AgniServerContext(config));
        try (Selector selector = Selector.open())
        {
            final Pipe pipe = Pipe.open();
            resources.add(pipe.sink());
            resources.add(pipe.source());
            pipe.source().configureBlocking(false);
            final SelectionKey key = pipe.source().register(selector, SelectionKey.OP_READ);
            key.cancel();

            loop.accept(key);
        }
        finally
        {
            loop.closeUnstarted();
        }
    }

    private AgniServer start(final AgniServerBuilder builder)
    {
        final AgniServer server = builder.build().start();
        resources.add(server);
        return server;
    }

    /**
     * Connects and waits for the connection to be served, so that connections reach the event loops in order.
     */
    private RawRespConnection connect(final AgniServer server) throws IOException
    {
        final RawRespConnection connection = RawRespConnection.connect(server);
        resources.add(connection);
        assertEquals("+PONG", connection.call("PING"));
        return connection;
    }

    private static long info(final RawRespConnection connection, final String field)
    {
        try
        {
            final String info = (String)connection.call("INFO");
            for (final String line : info.split("\r\n"))
            {
                if (line.startsWith(field + ":"))
                {
                    return Long.parseLong(line.substring(field.length() + 1));
                }
            }
            throw new AssertionError("INFO has no " + field + ": " + info);
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static byte[] setHeader(final String key, final int valueLength)
    {
        return ("*3\r\n$3\r\nSET\r\n$" + key.length() + "\r\n" + key + "\r\n$" + valueLength + "\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] filled(final int length, final char c)
    {
        final byte[] bytes = new byte[length];
        java.util.Arrays.fill(bytes, (byte)c);
        return bytes;
    }

    private static byte[] slice(final byte[] bytes, final int from, final int length)
    {
        return java.util.Arrays.copyOfRange(bytes, from, from + length);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
