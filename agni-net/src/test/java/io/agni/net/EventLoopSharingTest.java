package io.agni.net;

import io.agni.api.AgniStore;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the clients of one event loop share (docs/operations.md, "The heap" and "Commands that hold an event
 * loop"): a command runs to its end on its loop's thread, so while a long one runs (a KEYS, an MGET of many keys, a
 * SCAN with a large COUNT) no other client of that loop is served; and each connection costs the server a few KiB
 * of heap.
 */
@Tag("socket")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EventLoopSharingTest
{
    /**
     * How long a client of the held loop is watched for a reply that must not come: a bound for a negative, not a
     * wait for something to happen.
     */
    private static final int NO_REPLY_WITHIN_MS = 300;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"KEYS *", "SCAN 0 COUNT 1000000", "MGET a slow b"})
    void whileALongCommandRunsNoOtherClientOfItsEventLoopIsServed(final String command) throws Exception
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        try (AgniStore store = ServerFixture.newStore();
            AgniServer server = AgniServer.builder(held(store, entered, release)).port(0).eventLoopThreads(1).build()
                .start();
            RawRespConnection running = RawRespConnection.connect(server);
            RawRespConnection waiting = RawRespConnection.connect(server))
        {
            store.set(new byte[] {'a'}, new byte[] {'1'});
            assertEquals("+PONG", running.call("PING"));
            assertEquals("+PONG", waiting.call("PING"), "both clients are served by the one loop");

            running.send(command.split(" "));
            assertTrue(entered.await(ServerFixture.AWAIT_MS, TimeUnit.MILLISECONDS), "the command is running");
            waiting.send("PING");
            waiting.socket().setSoTimeout(NO_REPLY_WITHIN_MS);
            assertThrows(SocketTimeoutException.class, waiting::read, "served while the loop ran another command");

            release.countDown();
            waiting.socket().setSoTimeout(RawRespConnection.READ_TIMEOUT_MS);
            running.read();
            assertEquals("+PONG", waiting.read(), "served once the command ended");
        }
    }

    @Test
    void eachConnectionCostsTheServerAtMostFourKibibytesOfHeap() throws Exception
    {
        final java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads instanceof com.sun.management.ThreadMXBean &&
            ((com.sun.management.ThreadMXBean)threads).isThreadAllocatedMemorySupported(), "no allocation counter");
        final com.sun.management.ThreadMXBean counter = (com.sun.management.ThreadMXBean)threads;
        counter.setThreadAllocatedMemoryEnabled(true);
        final int perRound = 300;
        final List<RawRespConnection> connections = new ArrayList<>();
        try (AgniStore store = ServerFixture.newStore();
            AgniServer server = AgniServer.builder(store).port(0).eventLoopThreads(1).build().start())
        {
            final long loop = server.eventLoopThreads()[0].getId();
            final long acceptor = acceptorThread(server.port()).getId();
            long least = Long.MAX_VALUE;
            for (int round = 0; round < 3; round++)
            {
                final long before = counter.getThreadAllocatedBytes(loop) + counter.getThreadAllocatedBytes(acceptor);
                for (int i = 0; i < perRound; i++)
                {
                    final RawRespConnection connection = RawRespConnection.connect(server);
                    connections.add(connection);
                    assertEquals("+PONG", connection.call("PING"));
                }
                final long after = counter.getThreadAllocatedBytes(loop) + counter.getThreadAllocatedBytes(acceptor);
                least = Math.min(least, (after - before) / perRound);
            }
            assertTrue(least <= 4096, "a connection cost " + least + " bytes of heap");
        }
        finally
        {
            for (final RawRespConnection connection : connections)
            {
                connection.close();
            }
        }
    }

    private static Thread acceptorThread(final int port)
    {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(thread -> thread.getName().equals("agni-acceptor-" + port))
            .findFirst().orElseThrow();
    }

    /**
     * The store, but its first scan, and a multi-key read ({@code getAll} into a buffer, as MGET reads) that
     * includes the key {@code slow}, wait until released.
     */
    private static AgniStore held(final AgniStore store, final CountDownLatch entered, final CountDownLatch release)
    {
        return (AgniStore)Proxy.newProxyInstance(AgniStore.class.getClassLoader(), new Class<?>[] {AgniStore.class},
            (proxy, method, args) ->
            {
                final boolean slowRead = method.getName().equals("getAll") && args.length == 7 && readsSlow(args);
                if ((method.getName().equals("scan") || slowRead) && entered.getCount() > 0)
                {
                    entered.countDown();
                    assertTrue(release.await(ServerFixture.AWAIT_MS, TimeUnit.MILLISECONDS), "released");
                }
                try
                {
                    return method.invoke(store, args);
                }
                catch (final InvocationTargetException ex)
                {
                    throw ex.getCause();
                }
            });
    }

    /**
     * Whether the arguments of the zero-copy {@code getAll} name the key {@code slow}.
     */
    private static boolean readsSlow(final Object[] args)
    {
        final DirectBuffer keys = (DirectBuffer)args[0];
        final int[] offsets = (int[])args[1];
        final int[] lengths = (int[])args[2];
        for (int i = 0; i < (Integer)args[3]; i++)
        {
            if (lengths[i] == 4 && keys.getStringWithoutLengthAscii(offsets[i], 4).equals("slow"))
            {
                return true;
            }
        }
        return false;
    }
}
