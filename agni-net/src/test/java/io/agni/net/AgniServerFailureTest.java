package io.agni.net;

import io.agni.api.AgniStore;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the server does when one of its threads fails (AgniServer's javadoc, "Failures"): a failure of one
 * connection closes that connection and the server serves on; a failure that escapes the acceptor's or an event
 * loop's loop stops the whole server, never leaving it half alive. Failures are injected through
 * {@link ServerFaults} and through a store that throws; waits have deadlines, nothing sleeps.
 */
@Tag("socket")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AgniServerFailureTest
{
    private static final Duration DEADLINE = Duration.ofMillis(ServerFixture.AWAIT_MS);

    private final AgniStore store = ServerFixture.newStore();
    private AgniServer server;

    @AfterEach
    void closeServerAndStore()
    {
        ServerFixture.closeQuietly(server);
        store.close();
    }

    @Test
    void anOutOfMemoryErrorSettingUpOneConnectionClosesOnlyThatConnection() throws Exception
    {
        final AtomicInteger accepted = new AtomicInteger();
        server = ServerFixture.serverOn(store).build().injectFaults(new ServerFaults()
        {
            @Override
            public void accepted(final SocketChannel channel)
            {
                if (accepted.incrementAndGet() == 1)
                {
                    throw new OutOfMemoryError("injected: setting up the first connection");
                }
            }
        }).start();

        try (RawRespConnection first = RawRespConnection.connect(server))
        {
            assertTrue(first.awaitClosedByServer(ServerFixture.AWAIT_MS), "the failed connection is closed");
        }
        try (RawRespConnection second = RawRespConnection.connect(server))
        {
            assertEquals("+PONG", second.call("PING"));
            assertEquals(1, server.connectedClients(), "the failed connection's client slot was released");
        }
        assertTrue(server.isRunning());
        assertTrue(server.failure().isEmpty());
    }

    @Test
    void anErrorEscapingTheAcceptLoopStopsTheWholeServer() throws Exception
    {
        final OutOfMemoryError injected = new OutOfMemoryError("injected: the accept loop");
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger accepts = new AtomicInteger();
        server = ServerFixture.serverOn(store).build().injectFaults(new ServerFaults()
        {
            @Override
            public void beforeAccept()
            {
                if (accepts.incrementAndGet() == 2)
                {
                    awaitQuietly(release);
                    throw injected;
                }
            }
        }).start();
        final int port = server.port();

        try (RawRespConnection client = RawRespConnection.connect(server))
        {
            assertEquals("+PONG", client.call("PING"), "served before the failure");
            release.countDown();

            assertTrue(server.awaitTermination(DEADLINE), "the server stopped");
            assertSame(injected, server.failure().orElseThrow());
            assertFalse(server.isRunning());
            assertTrue(client.awaitClosedByServer(ServerFixture.AWAIT_MS), "its connections are closed");
        }
        assertPortReleased(port);
    }

    @Test
    void anErrorEscapingOneEventLoopStopsTheWholeServerNotJustThatLoop() throws Exception
    {
        final OutOfMemoryError injected = new OutOfMemoryError("injected: an event loop");
        final CountDownLatch armed = new CountDownLatch(1);
        final AtomicInteger thrown = new AtomicInteger();
        server = ServerFixture.serverOn(store).build().injectFaults(new ServerFaults()
        {
            @Override
            public void loopIteration()
            {
                if (armed.getCount() == 0 && thrown.getAndIncrement() == 0)
                {
                    throw injected;
                }
            }
        }).start();
        final int port = server.port();

        try (RawRespConnection a = RawRespConnection.connect(server);
            RawRespConnection b = RawRespConnection.connect(server))
        {
            assertEquals("+PONG", a.call("PING"));
            assertEquals("+PONG", b.call("PING"), "two clients, one on each of the two loops");
            armed.countDown();
            try
            {
                a.send("PING"); // wakes a loop, which then fails; it may have failed already, at its tick
            }
            catch (final IOException ex)
            {
                // the server stopped first and reset the connection
            }

            assertTrue(server.awaitTermination(DEADLINE), "the server stopped");
            assertSame(injected, server.failure().orElseThrow());
            assertFalse(server.isRunning());
            assertTrue(a.awaitClosedByServer(ServerFixture.AWAIT_MS));
            assertTrue(b.awaitClosedByServer(ServerFixture.AWAIT_MS), "the other loop's client is closed too");
        }
        assertPortReleased(port);
        assertThrows(ConnectException.class, () -> new RawRespConnection(InetAddress.getLoopbackAddress(), port));
    }

    @Test
    void anOutOfMemoryErrorFromACommandClosesThatClientAndTheServerServesOn() throws Exception
    {
        server = ServerFixture.serverOn(failingOn("boom", new OutOfMemoryError("injected: a command"))).build()
            .start();

        try (RawRespConnection failing = RawRespConnection.connect(server);
            RawRespConnection other = RawRespConnection.connect(server))
        {
            assertEquals("+OK", other.call("SET", "k", "v"));
            failing.send("GET", "boom");

            assertTrue(failing.awaitClosedByServer(ServerFixture.AWAIT_MS), "the client whose command failed");
            assertEquals("v", other.call("GET", "k"), "the other client is served");
        }
        try (RawRespConnection later = RawRespConnection.connect(server))
        {
            assertEquals("+PONG", later.call("PING"), "new clients are accepted and served");
        }
        assertTrue(server.isRunning());
        assertTrue(server.failure().isEmpty());
    }

    @Test
    void aRuntimeExceptionFromACommandIsAnInternalErrorAndTheConnectionStays() throws Exception
    {
        server = ServerFixture.serverOn(failingOn("boom", new IllegalStateException("injected: a bug"))).build()
            .start();

        try (RawRespConnection client = RawRespConnection.connect(server))
        {
            assertEquals("-ERR internal error", client.call("GET", "boom"));
            assertEquals("+PONG", client.call("PING"));
        }
        assertTrue(server.isRunning());
        assertTrue(server.failure().isEmpty());
    }

    @Test
    void theWarningForAClientClosedAfterAFailureNamesTheClientAndTheFailure() throws Exception
    {
        final String log = stderrWhile(() ->
        {
            server = ServerFixture.serverOn(failingOn("boom", new OutOfMemoryError("injected: a command"))).build()
                .start();
            try (RawRespConnection failing = RawRespConnection.connect(server))
            {
                failing.send("GET", "boom");
                assertTrue(failing.awaitClosedByServer(ServerFixture.AWAIT_MS));
            }
        });

        assertTrue(log.contains("unexpected failure serving client id=") &&
            log.contains(": java.lang.OutOfMemoryError: injected: a command"), log);
        assertFalse(log.contains("{}"), log);
    }

    @Test
    void theWarningForACommandThatFailedNamesTheClientAndTheFailure() throws Exception
    {
        final String log = stderrWhile(() ->
        {
            server = ServerFixture.serverOn(failingOn("bug", new IllegalStateException("injected: a bug"))).build()
                .start();
            try (RawRespConnection client = RawRespConnection.connect(server))
            {
                assertEquals("-ERR internal error", client.call("GET", "bug"));
            }
        });

        assertTrue(log.contains("command failed for client 127.0.0.1:") &&
            log.contains(": java.lang.IllegalStateException: injected: a bug"), log);
        assertFalse(log.contains("{}"), log);
    }

    @Test
    void anErrorOtherThanOutOfMemoryFromACommandStopsTheServer() throws Exception
    {
        final AssertionError injected = new AssertionError("injected: a broken invariant");
        server = ServerFixture.serverOn(failingOn("boom", injected)).build().start();

        try (RawRespConnection client = RawRespConnection.connect(server))
        {
            client.send("GET", "boom");

            assertTrue(server.awaitTermination(DEADLINE), "the server stopped");
            assertSame(injected, server.failure().orElseThrow());
            assertTrue(client.awaitClosedByServer(ServerFixture.AWAIT_MS));
        }
    }

    @Test
    void aServerClosedWithoutAFailureTerminatesWithNone() throws Exception
    {
        server = ServerFixture.serverOn(store).build();
        assertFalse(server.awaitTermination(Duration.ofMillis(1)), "not started, not closed");
        server.start();

        server.close();

        assertTrue(server.awaitTermination(DEADLINE));
        assertTrue(server.failure().isEmpty());
    }

    @Test
    void aServerClosedBeforeItStartedHasTerminated() throws Exception
    {
        server = ServerFixture.serverOn(store).build();

        server.close();

        assertTrue(server.awaitTermination(Duration.ZERO));
    }

    @Test
    void theFirstFailureIsLoggedOnceAtErrorAndStopsTheServerALaterOneOnlyAtDebug()
    {
        final ServerRateLimitedWarningsTest.RecordingLogger log = new ServerRateLimitedWarningsTest.RecordingLogger();
        final ServerFailure failure = new ServerFailure(log);
        final AtomicInteger stops = new AtomicInteger();
        failure.stopWith(stops::incrementAndGet);
        final OutOfMemoryError first = new OutOfMemoryError("first");

        failure.fatal("agni-loop-0", first);
        failure.fatal("agni-loop-1", new OutOfMemoryError("second"));

        assertSame(first, failure.failure());
        assertEquals(1, stops.get());
        assertEquals(List.of("agni-loop-0 failed; stopping the server: java.lang.OutOfMemoryError: first"), log.lines);
    }

    /**
     * The server's store, but the zero-copy {@code get} of one key throws.
     */
    private AgniStore failingOn(final String key, final Throwable failure)
    {
        return failingOn(Map.of(key, failure));
    }

    /**
     * The server's store, but the zero-copy {@code get} of each key given throws its failure.
     */
    private AgniStore failingOn(final Map<String, Throwable> failures)
    {
        return (AgniStore)Proxy.newProxyInstance(AgniStore.class.getClassLoader(), new Class<?>[] {AgniStore.class},
            (proxy, method, args) ->
            {
                if (method.getName().equals("get") && args.length == 5)
                {
                    for (final Map.Entry<String, Throwable> failure : failures.entrySet())
                    {
                        if (isKey(failure.getKey().getBytes(StandardCharsets.US_ASCII), args))
                        {
                            throw failure.getValue();
                        }
                    }
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

    private static boolean isKey(final byte[] key, final Object[] args)
    {
        final DirectBuffer buffer = (DirectBuffer)args[0];
        final int offset = (Integer)args[1];
        final int length = (Integer)args[2];
        if (length != key.length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != key[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * What the server logs while the action runs: slf4j-simple writes to whatever {@code System.err} is then.
     */
    private static String stderrWhile(final ThrowingAction action) throws Exception
    {
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final PrintStream stderr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try
        {
            action.run();
        }
        finally
        {
            System.setErr(stderr);
        }
        return log.toString(StandardCharsets.UTF_8);
    }

    private interface ThrowingAction
    {
        void run() throws Exception;
    }

    private static void assertPortReleased(final int port) throws IOException
    {
        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress()))
        {
            assertEquals(port, again.getLocalPort());
        }
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(ServerFixture.AWAIT_MS, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
