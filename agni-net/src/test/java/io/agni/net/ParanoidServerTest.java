package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.api.DeferredDurability;
import io.agni.api.Durability;
import io.agni.api.StoreReadOnlyException;
import io.agni.api.Transactional;
import io.agni.store.OffHeapStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code PARANOID} store over the network: the event loops sync once per iteration for every write their
 * connections made, and send no reply before the sync that covers its write (docs/architecture.md, "The server's
 * request path"); replies to each connection stay in order; a failed sync disconnects the clients whose replies
 * waited for it.
 */
@Tag("socket")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ParanoidServerTest
{
    private static final int CONNECTIONS = 6;
    private static final int ROUNDS = 15;
    private static final int PER_ROUND = 60;
    private static final Set<String> WRITES = Set.of("set", "setAll", "incrementBy", "delete", "append",
        "getAndSet", "getAndDelete", "getAndExpire", "expire", "expireAfter", "persist", "rename", "clear", "write",
        "runExclusive");

    @TempDir
    Path directory;

    @Test
    void pipelinedWritesFromSeveralConnectionsAllGetTheirRepliesInOrderAndAreKept() throws Exception
    {
        try (OffHeapStore store = paranoidStore())
        {
            final AgniServer server = AgniServer.builder(store).port(0).eventLoopThreads(2).build().start();
            try
            {
                runClients(server);
            }
            finally
            {
                server.close();
            }
        }
        try (OffHeapStore reopened = paranoidStore())
        {
            for (int c = 0; c < CONNECTIONS; c++)
            {
                assertArrayEquals(bytes(Integer.toString(ROUNDS * PER_ROUND)), reopened.get(bytes("counter" + c)));
                for (int n = 0; n < ROUNDS * PER_ROUND; n++)
                {
                    assertArrayEquals(bytes("v" + n), reopened.get(bytes("k" + c + ":" + n)), "k" + c + ":" + n);
                }
            }
        }
    }

    @Test
    void noReplyIsWrittenBeforeTheSyncThatCoversItsWrite() throws Exception
    {
        final ConcurrentLinkedQueue<String[]> events = new ConcurrentLinkedQueue<>();
        try (OffHeapStore store = paranoidStore())
        {
            final AgniStore recording = recording(store, events, new AtomicBoolean());
            final AgniServer server = AgniServer.builder(recording).port(0).eventLoopThreads(2).build();
            server.injectFaults(new ServerFaults()
            {
                @Override
                public void beforeReplyWrite(final SocketChannel channel)
                {
                    events.add(new String[] {Thread.currentThread().getName(), "flush"});
                }
            });
            server.start();
            try
            {
                runClients(server);
            }
            finally
            {
                server.close();
            }
        }

        final int[] counts = checkNoReplyBeforeItsSync(events);
        final int writes = counts[0];
        final int syncs = counts[1];
        final int flushes = counts[2];
        final int expectedWrites = CONNECTIONS * ROUNDS * PER_ROUND * 2;
        assertEquals(expectedWrites, writes);
        assertTrue(flushes >= CONNECTIONS * ROUNDS, "every round's replies were written: " + flushes);
        assertTrue(syncs < writes, "writes share syncs: " + syncs + " syncs for " + writes + " writes");
    }

    /**
     * Transactions, command by command in an exclusive section (with INCR) and as one batch (plain writes): their
     * EXEC's reply too leaves only after the sync of what they wrote, and what they wrote is there after a reopen.
     */
    @Test
    void aTransactionsReplyWaitsForTheSyncThatCoversIt() throws Exception
    {
        final ConcurrentLinkedQueue<String[]> events = new ConcurrentLinkedQueue<>();
        final int transactions = 40;
        try (OffHeapStore store = paranoidStore())
        {
            final AgniStore recording = recording(store, events, new AtomicBoolean());
            final AgniServer server = AgniServer.builder(recording).port(0).eventLoopThreads(2).build();
            server.injectFaults(new ServerFaults()
            {
                @Override
                public void beforeReplyWrite(final SocketChannel channel)
                {
                    events.add(new String[] {Thread.currentThread().getName(), "flush"});
                }
            });
            server.start();
            try (RawRespConnection a = RawRespConnection.connect(server);
                RawRespConnection b = RawRespConnection.connect(server))
            {
                for (int n = 0; n < transactions; n++)
                {
                    final ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
                    pipeline.writeBytes(RawRespConnection.encode("MULTI"));
                    pipeline.writeBytes(RawRespConnection.encode("SET", "t" + n, "v" + n));
                    pipeline.writeBytes(RawRespConnection.encode("INCR", "tc"));
                    pipeline.writeBytes(RawRespConnection.encode("EXEC"));
                    a.sendRaw(pipeline.toByteArray());
                    b.sendRaw(RawRespConnection.encode("MULTI"));
                    b.sendRaw(RawRespConnection.encode("SET", "p" + n, "w" + n));
                    b.sendRaw(RawRespConnection.encode("DEL", "p" + (n - 1)));
                    b.sendRaw(RawRespConnection.encode("EXEC"));
                    for (final RawRespConnection connection : List.of(a, b))
                    {
                        assertEquals("+OK", connection.read());
                        assertEquals("+QUEUED", connection.read());
                        assertEquals("+QUEUED", connection.read());
                    }
                    assertEquals(List.of("+OK", ":" + (n + 1)), a.read());
                    assertEquals(List.of("+OK", n == 0 ? ":0" : ":1"), b.read());
                }
            }
            finally
            {
                server.close();
            }
        }

        final int[] counts = checkNoReplyBeforeItsSync(events);
        assertTrue(counts[0] >= 2 * transactions, "the transactions wrote: " + counts[0]);
        try (OffHeapStore reopened = paranoidStore())
        {
            assertArrayEquals(bytes(Integer.toString(transactions)), reopened.get(bytes("tc")));
            assertArrayEquals(bytes("v" + (transactions - 1)), reopened.get(bytes("t" + (transactions - 1))));
            assertArrayEquals(bytes("w" + (transactions - 1)), reopened.get(bytes("p" + (transactions - 1))));
            assertNull(reopened.get(bytes("p" + (transactions - 2))));
        }
    }

    @Test
    void aFailedSyncDisconnectsTheClientsWhoseRepliesWaitedForIt() throws Exception
    {
        final AtomicBoolean failNextSync = new AtomicBoolean();
        try (OffHeapStore store = paranoidStore())
        {
            final AgniStore recording = recording(store, new ConcurrentLinkedQueue<>(), failNextSync);
            final AgniServer server = AgniServer.builder(recording).port(0).eventLoopThreads(1).build().start();
            try (RawRespConnection client = RawRespConnection.connect(server))
            {
                assertEquals("+OK", client.call("SET", "before", "1"));
                failNextSync.set(true);
                client.send("SET", "k", "v");
                final IOException closed = assertThrows(IOException.class, client::read,
                    "no reply confirms a write whose sync failed");
                assertTrue(closed.getMessage().contains("closed by the server"), closed.toString());
                try (RawRespConnection other = RawRespConnection.connect(server))
                {
                    assertEquals("+PONG", other.call("PING"), "the server serves on");
                }
            }
            finally
            {
                server.close();
            }
        }
    }

    /**
     * Checks that no thread wrote replies while a write of its own was not synced yet.
     *
     * @return the writes, syncs and reply writes seen.
     */
    private static int[] checkNoReplyBeforeItsSync(final ConcurrentLinkedQueue<String[]> events)
    {
        final Map<String, List<String>> byThread = new HashMap<>();
        for (final String[] event : events)
        {
            byThread.computeIfAbsent(event[0], t -> new ArrayList<>()).add(event[1]);
        }
        int writes = 0;
        int syncs = 0;
        int flushes = 0;
        for (final Map.Entry<String, List<String>> thread : byThread.entrySet())
        {
            final List<String> sequence = thread.getValue();
            boolean deferred = false;
            boolean unsynced = false;
            for (int i = 0; i < sequence.size(); i++)
            {
                switch (sequence.get(i))
                {
                    case "defer":
                        deferred = true;
                        break;
                    case "write":
                        assertTrue(deferred, thread.getKey() + " wrote before it deferred its writes' syncs");
                        unsynced = true;
                        writes++;
                        break;
                    case "sync":
                        unsynced = false;
                        syncs++;
                        break;
                    default:
                        assertFalse(unsynced, thread.getKey() + " wrote replies before the sync of the writes " +
                            "they answer, at event " + i + ": ..." + sequence.subList(Math.max(0, i - 4), i + 1));
                        flushes++;
                        break;
                }
            }
        }
        return new int[] {writes, syncs, flushes};
    }

    private void runClients(final AgniServer server) throws Exception
    {
        final ExecutorService clients = Executors.newFixedThreadPool(CONNECTIONS);
        try
        {
            final List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++)
            {
                final int client = c;
                done.add(clients.submit(() ->
                {
                    runClient(server, client);
                    return null;
                }));
            }
            for (final Future<?> future : done)
            {
                future.get(90, TimeUnit.SECONDS);
            }
        }
        finally
        {
            clients.shutdownNow();
        }
    }

    /**
     * Rounds of pipelined SET, INCR and GET; every reply is checked in order.
     */
    private static void runClient(final AgniServer server, final int client) throws IOException
    {
        try (RawRespConnection connection = RawRespConnection.connect(server))
        {
            int n = 0;
            for (int round = 0; round < ROUNDS; round++)
            {
                final ByteArrayOutputStream batch = new ByteArrayOutputStream();
                for (int i = 0; i < PER_ROUND; i++)
                {
                    final int k = n + i;
                    batch.writeBytes(RawRespConnection.encode("SET", "k" + client + ":" + k, "v" + k));
                    batch.writeBytes(RawRespConnection.encode("INCR", "counter" + client));
                    batch.writeBytes(RawRespConnection.encode("GET", "k" + client + ":" + k));
                }
                connection.sendRaw(batch.toByteArray());
                for (int i = 0; i < PER_ROUND; i++)
                {
                    final int k = n + i;
                    assertEquals("+OK", connection.read(), "SET " + k + " of client " + client);
                    assertEquals(":" + (k + 1), connection.read(), "INCR " + k + " of client " + client);
                    assertEquals("v" + k, connection.read(), "GET " + k + " of client " + client);
                }
                n += PER_ROUND;
            }
        }
    }

    private OffHeapStore paranoidStore()
    {
        return OffHeapStore.builder().shards(4).maxMemory(64L << 20).directory(directory)
            .durability(Durability.PARANOID).build();
    }

    /**
     * The store, recording on the calling thread's name each write ("write", once it returned), each wait for
     * durability ("sync", once it returned) and each deferral ("defer"); a wait fails once {@code failNextSync} is
     * set.
     */
    private static AgniStore recording(
        final OffHeapStore store, final ConcurrentLinkedQueue<String[]> events, final AtomicBoolean failNextSync)
    {
        return (AgniStore)Proxy.newProxyInstance(ParanoidServerTest.class.getClassLoader(),
            new Class<?>[] {AgniStore.class, DeferredDurability.class, Transactional.class}, (proxy, method, args) ->
            {
                final String thread = Thread.currentThread().getName();
                if (method.getName().equals("awaitDurable") && failNextSync.compareAndSet(true, false))
                {
                    throw new StoreReadOnlyException("syncing the log failed (injected)");
                }
                if (method.getName().equals("deferredDurability") || method.getName().equals("transactional"))
                {
                    // the capabilities are this proxy, so that their calls are recorded too
                    return Optional.of(proxy);
                }
                final Object target = method.getDeclaringClass() == DeferredDurability.class ?
                    store.deferredDurability().orElseThrow() :
                    method.getDeclaringClass() == Transactional.class ? store.transactional().orElseThrow() : store;
                final Object result;
                try
                {
                    result = method.invoke(target, args);
                }
                catch (final InvocationTargetException ex)
                {
                    throw ex.getCause();
                }
                if (WRITES.contains(method.getName()))
                {
                    events.add(new String[] {thread, "write"});
                }
                else if (method.getName().equals("awaitDurable"))
                {
                    events.add(new String[] {thread, "sync"});
                }
                else if (method.getName().equals("deferDurability") && Boolean.TRUE.equals(args[0]))
                {
                    events.add(new String[] {thread, "defer"});
                }
                return result;
            });
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
