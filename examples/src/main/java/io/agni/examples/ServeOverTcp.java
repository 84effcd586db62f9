package io.agni.examples;

import io.agni.api.AgniStore;
import io.agni.net.AgniServer;
import io.agni.store.OffHeapStore;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Embeds a store in this JVM and serves it to Redis clients on a port at the same time: the application keeps
 * using the store in-process at full speed while {@code redis-cli}, Jedis, Lettuce or {@link RemoteClient} reach
 * the same data over TCP. Runs until Ctrl-C (or SIGTERM), or for a number of seconds. From the repository root:
 * <pre>
 * java -jar examples/target/agni-examples.jar ServeOverTcp            # port 6380, until Ctrl-C
 * java -jar examples/target/agni-examples.jar ServeOverTcp 6390 30    # port 6390, for 30 seconds
 * redis-cli -p 6380 get welcome                                        # from another terminal
 * </pre>
 * The server listens on 127.0.0.1 only and has no password: see {@code docs/operations.md} before exposing one.
 */
public final class ServeOverTcp
{
    /**
     * The default port: not Redis's 6379, so that it can run next to a Redis.
     */
    static final int DEFAULT_PORT = 6380;

    private static final long MIB = 1024 * 1024;

    private ServeOverTcp()
    {
    }

    /**
     * Serves until Ctrl-C or for the given time.
     *
     * @param args {@code [port [seconds]]}: default {@value #DEFAULT_PORT}, and 0 seconds for "until Ctrl-C".
     * @throws InterruptedException if interrupted while serving.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final int port = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_PORT;
        final long seconds = args.length > 1 ? Long.parseLong(args[1]) : 0;

        // Ctrl-C runs shutdown hooks and then halts the JVM: this hook asks main to stop, then waits until main
        // has closed the server and the store, so both close cleanly.
        final CountDownLatch stop = new CountDownLatch(1);
        final CountDownLatch closed = new CountDownLatch(1);
        final Thread hook = new Thread(() ->
        {
            stop.countDown();
            awaitQuietly(closed);
        }, "serve-over-tcp-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            serve(port, seconds, stop, boundPort ->
                System.out.println("serving on 127.0.0.1:" + boundPort + (seconds > 0 ? " for " + seconds + " s" :
                    " until Ctrl-C") + "; try: redis-cli -p " + boundPort + " get welcome"));
        }
        finally
        {
            closed.countDown();
        }
    }

    /**
     * Opens a store, serves it until {@code stop} opens or the time is up, then closes the server and the store.
     *
     * @param port        the port, 0 for any free one.
     * @param seconds     how long to serve, 0 for until {@code stop}.
     * @param stop        opened to stop serving.
     * @param onListening told the port once the server listens.
     * @throws InterruptedException if interrupted while serving.
     */
    static void serve(final int port, final long seconds, final CountDownLatch stop, final IntConsumer onListening)
        throws InterruptedException
    {
        // The store and the server are two objects: the server serves any AgniStore and never closes it, so
        // try-with-resources closes the server first (stop accepting, flush replies), then the store.
        try (AgniStore store = OffHeapStore.builder().maxMemory(64 * MIB).build();
            AgniServer server = AgniServer.builder(store).port(port).build().start())
        {
            // The embedding application uses the store directly, without a network hop or a copy to the wire.
            store.set("welcome".getBytes(UTF_8), "hello from the JVM that embeds agni".getBytes(UTF_8));
            onListening.accept(server.port());

            if (seconds > 0)
            {
                stop.await(seconds, TimeUnit.SECONDS);
            }
            else
            {
                stop.await();
            }
            System.out.println("stopping after " + server.stats().totalConnectionsReceived() + " connections " +
                "(keys in the store: " + store.size() + "); closing the server, then the store");
        }
        System.out.println("closed");
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(10, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
