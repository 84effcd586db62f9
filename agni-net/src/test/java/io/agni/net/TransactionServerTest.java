package io.agni.net;

import io.agni.api.CapacityExceededException;
import io.agni.api.WriteBatch;
import io.agni.store.OffHeapStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.agni.net.ServerFixture.closeQuietly;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MULTI/EXEC over real connections to an {@link AgniServer} on an {@link OffHeapStore} (docs/protocol.md,
 * "Transactions"): no other connection's command runs inside an EXEC, whatever event loop serves it; a transaction
 * dies with its connection; {@link AgniClient#write(WriteBatch)} is all or nothing when the store's budget refuses it.
 */
@Tag("socket")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionServerTest
{
    private static final int TRANSACTIONS_PER_WRITER = 3_000;

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeEverything()
    {
        for (int i = resources.size() - 1; i >= 0; i--)
        {
            closeQuietly(resources.get(i));
        }
    }

    /**
     * Two connections each increment x and y in one transaction, a third sets p and q to the same number in one (a
     * transaction of plain writes, which the server applies as one batch); readers on every event loop read the four
     * keys at one instant and must never find x and y, or p and q, apart.
     */
    @Test
    void noOtherConnectionsCommandRunsInsideAnExec() throws Exception
    {
        final OffHeapStore store = open(OffHeapStore.builder().shards(8).maxMemory(64L << 20).build());
        final AgniServer server = start(AgniServer.builder(store).port(0).eventLoopThreads(2).build());
        final AtomicBoolean writing = new AtomicBoolean(true);
        final AtomicLong reads = new AtomicLong();
        final ExecutorService threads = Executors.newFixedThreadPool(5);
        try
        {
            final List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++)
            {
                writers.add(threads.submit(() -> incrementBoth(server)));
            }
            writers.add(threads.submit(() -> setBoth(server)));
            final List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++)
            {
                readers.add(threads.submit(() -> readAll(server, writing, reads)));
            }
            for (final Future<?> writer : writers)
            {
                writer.get(90, TimeUnit.SECONDS);
            }
            writing.set(false);
            for (final Future<?> reader : readers)
            {
                reader.get(30, TimeUnit.SECONDS);
            }
        }
        finally
        {
            threads.shutdownNow();
        }

        final String total = Integer.toString(2 * TRANSACTIONS_PER_WRITER);
        assertArrayEquals(bytes(total), store.get(bytes("x")));
        assertArrayEquals(bytes(total), store.get(bytes("y")));
        assertArrayEquals(bytes(Integer.toString(TRANSACTIONS_PER_WRITER)), store.get(bytes("p")));
        assertTrue(reads.get() > 0, "the readers read");
    }

    @Test
    void aTransactionDiesWithItsConnection() throws IOException
    {
        final OffHeapStore store = open(OffHeapStore.builder().shards(2).maxMemory(16L << 20).build());
        final AgniServer server = start(AgniServer.builder(store).port(0).eventLoopThreads(1).build());
        final RawRespConnection client = connect(server);
        assertEquals("+OK", client.call("MULTI"));
        assertEquals("+QUEUED", client.call("SET", "a", "1"));
        client.close();

        final RawRespConnection other = connect(server);
        assertEquals("+OK", other.call("SET", "b", "2"));
        assertNull(other.call("GET", "a"));
        assertEquals("-ERR EXEC without MULTI", other.call("EXEC"), "the transaction was the closed connection's");
    }

    @Test
    void aBatchTheServersBudgetRefusesChangesNothing()
    {
        final OffHeapStore store = open(OffHeapStore.builder().shards(1).maxMemory(1L << 20).build());
        final AgniServer server = start(AgniServer.builder(store).port(0).eventLoopThreads(1).build());
        final AgniClient client = open(AgniClient.builder().host("127.0.0.1").port(server.port()).connections(1)
            .build());
        client.set(bytes("kept"), bytes("old"));
        final WriteBatch batch = new WriteBatch().set(bytes("kept"), bytes("new")).delete(bytes("kept"));
        for (int i = 0; i < 3; i++)
        {
            batch.set(bytes("large" + i), new byte[400_000]);
        }

        final CapacityExceededException refused = assertThrows(CapacityExceededException.class,
            () -> client.write(batch));

        assertTrue(refused.getMessage().startsWith("OOM"), refused.getMessage());
        assertArrayEquals(bytes("old"), client.get(bytes("kept")));
        assertEquals(1, client.size());
        client.write(new WriteBatch().set(bytes("a"), bytes("1")).delete(bytes("kept")));
        assertArrayEquals(bytes("1"), client.get(bytes("a")), "the connection serves the next batch");
        assertNull(client.get(bytes("kept")));
    }

    private static Void incrementBoth(final AgniServer server) throws IOException
    {
        try (RawRespConnection connection = RawRespConnection.connect(server))
        {
            final byte[] transaction = concat(RawRespConnection.encode("MULTI"), RawRespConnection.encode("INCR", "x"),
                RawRespConnection.encode("INCR", "y"), RawRespConnection.encode("EXEC"));
            for (int i = 0; i < TRANSACTIONS_PER_WRITER; i++)
            {
                connection.sendRaw(transaction);
                assertEquals("+OK", connection.read());
                assertEquals("+QUEUED", connection.read());
                assertEquals("+QUEUED", connection.read());
                final List<?> results = (List<?>)connection.read();
                assertEquals(2, results.size());
                assertEquals(results.get(0), results.get(1), "x and y of one transaction");
            }
        }
        return null;
    }

    private static Void setBoth(final AgniServer server) throws IOException
    {
        try (RawRespConnection connection = RawRespConnection.connect(server))
        {
            for (int i = 1; i <= TRANSACTIONS_PER_WRITER; i++)
            {
                final String value = Integer.toString(i);
                connection.sendRaw(concat(RawRespConnection.encode("MULTI"), RawRespConnection.encode("SET", "p", value),
                    RawRespConnection.encode("SET", "q", value), RawRespConnection.encode("EXEC")));
                assertEquals("+OK", connection.read());
                assertEquals("+QUEUED", connection.read());
                assertEquals("+QUEUED", connection.read());
                assertEquals(List.of("+OK", "+OK"), connection.read());
            }
        }
        return null;
    }

    private static Void readAll(final AgniServer server, final AtomicBoolean writing, final AtomicLong reads)
        throws IOException
    {
        try (RawRespConnection connection = RawRespConnection.connect(server))
        {
            while (writing.get())
            {
                final List<?> values = (List<?>)connection.call("MGET", "x", "y", "p", "q");
                assertEquals(values.get(0), values.get(1), "x and y apart: a transaction was seen half done");
                assertEquals(values.get(2), values.get(3), "p and q apart: a transaction was seen half done");
                reads.incrementAndGet();
            }
        }
        return null;
    }

    private RawRespConnection connect(final AgniServer server) throws IOException
    {
        final RawRespConnection connection = RawRespConnection.connect(server);
        resources.add(connection);
        return connection;
    }

    private AgniServer start(final AgniServer server)
    {
        resources.add(server);
        return server.start();
    }

    private <T extends AutoCloseable> T open(final T resource)
    {
        resources.add(resource);
        return resource;
    }

    private static byte[] concat(final byte[]... parts)
    {
        int length = 0;
        for (final byte[] part : parts)
        {
            length += part.length;
        }
        final byte[] all = new byte[length];
        int at = 0;
        for (final byte[] part : parts)
        {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
