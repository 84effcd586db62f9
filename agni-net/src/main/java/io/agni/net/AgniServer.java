package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.api.Evicting;
import io.agni.protocol.command.MemoryPolicy;
import io.agni.protocol.command.ServerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Serves an {@link AgniStore} over TCP to any Redis client, speaking RESP2 (and inline commands).
 *
 * <pre>{@code
 * try (AgniStore store = OffHeapStore.builder().build();
 *      AgniServer server = AgniServer.builder(store).port(6379).build().start())
 * {
 *     // redis-cli -p 6379 set k v
 * }
 * }</pre>
 *
 * <h2>Threads</h2>
 * One acceptor thread and {@link AgniServerBuilder#eventLoopThreads(int)} event-loop threads, each with its own
 * selector and command processor. A connection is assigned to a loop round robin when it is accepted and served
 * by that loop alone: one read, decode and execute every complete command, one write, per readiness event. The
 * store is shared by every loop, so it must be thread-safe (every {@code AgniStore} is).
 *
 * <h2>Limits and security</h2>
 * See {@link AgniServerBuilder}: maximum clients, idle timeout, query and output buffer limits per client, the
 * memory all clients' buffers may hold together (the largest clients are disconnected past it), the
 * password ({@code requirepass}) and Redis's pre-authentication limits, protected mode. A client that breaks a limit
 * is disconnected without disturbing the others; problems are logged at WARN at most once per ten seconds per kind,
 * connections at DEBUG.
 *
 * <h2>Lifecycle</h2>
 * {@link #start()} binds and starts serving; {@link #close()} stops accepting, stops reading, lets replies already
 * computed go out for up to the shutdown timeout, closes every socket and releases the port. A server starts at
 * most once. The store is the caller's: closing the server does not close it. All public methods are thread-safe.
 *
 * <h2>Failures</h2>
 * A failure that belongs to one connection (a {@link RuntimeException} or an {@link OutOfMemoryError} while setting
 * it up, reading, executing its commands or writing its replies) closes that connection, is logged at WARN (at most
 * once per ten seconds per kind), and the server serves on, as Redis drops a client it cannot serve. Anything else
 * that escapes the acceptor's or an event loop's loop (another {@link Error}, a failure of the loop's own work)
 * would leave the server half alive, so it stops the whole server instead: one ERROR line with the stack trace,
 * then what {@link #close()} does. {@link #failure()} then returns it, {@link #isRunning()} is false, and
 * {@link #awaitTermination()} returns, so that the embedding application (the standalone launcher: with exit status
 * 3) can tell a failure from a close.
 */
public final class AgniServer implements AutoCloseable
{
    static final Logger LOG = LoggerFactory.getLogger(AgniServer.class);

    /**
     * The listening socket's backlog, Redis's {@code tcp-backlog} (the kernel may cap it at {@code somaxconn}).
     */
    static final int ACCEPT_BACKLOG = 511;

    private static final long JOIN_MARGIN_MS = 5_000;
    private static final int NEW = 0;
    private static final int RUNNING = 1;
    private static final int CLOSED = 2;

    private final AgniServerConfig config;
    private final AgniServerContext context;
    private int state = NEW;
    private ServerSocketChannel serverChannel;
    private EventLoop[] loops;
    private Thread acceptorThread;
    private volatile InetSocketAddress localAddress;
    private final CountDownLatch terminated = new CountDownLatch(1);

    AgniServer(final AgniServerConfig config)
    {
        this.config = config;
        this.context = new AgniServerContext(config);
        context.failure.stopWith(this::close);
    }

    /**
     * Returns a builder with every setting at its default.
     *
     * @param store the store to serve, shared by every connection; not closed by the server.
     * @return a builder with every setting at its default.
     */
    public static AgniServerBuilder builder(final AgniStore store)
    {
        return new AgniServerBuilder(store);
    }

    /**
     * Binds the listening socket (with SO_REUSEADDR, so a port a closed server held can be bound again at once)
     * and starts the acceptor and event-loop threads.
     *
     * @return this server.
     * @throws IllegalStateException if the server was started or closed before.
     * @throws UncheckedIOException  if the address cannot be bound; the server is then closed.
     */
    public synchronized AgniServer start()
    {
        if (state != NEW)
        {
            throw new IllegalStateException(state == RUNNING ? "server already started" : "server closed");
        }
        state = CLOSED;
        final InetSocketAddress bindTo = new InetSocketAddress(config.bindAddress, config.port);
        final EventLoop[] loops = new EventLoop[config.eventLoopThreads];
        ServerSocketChannel channel = null;
        try
        {
            // An IPv4 bind address gets an IPv4 socket: the JVM's default dual-stack socket bound to 0.0.0.0 would
            // also listen on every IPv6 address (as ::), which "every IPv4 interface" does not promise.
            channel = ServerSocketChannel.open(config.bindAddress instanceof Inet4Address ?
                StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(bindTo, ACCEPT_BACKLOG);
            localAddress = (InetSocketAddress)channel.getLocalAddress();
            for (int i = 0; i < loops.length; i++)
            {
                loops[i] = new EventLoop("agni-loop-" + i + "-" + localAddress.getPort(), config, context);
            }
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            for (final EventLoop loop : loops)
            {
                if (loop != null)
                {
                    loop.closeUnstarted();
                }
            }
            terminated.countDown();
            throw new UncheckedIOException("cannot listen on " + EventLoop.format(bindTo) + ": " + ex.getMessage(), ex);
        }
        serverChannel = channel;
        this.loops = loops;
        final long[] threadIds = new long[loops.length];
        for (int i = 0; i < loops.length; i++)
        {
            threadIds[i] = loops[i].thread().getId();
        }
        final Evicting evicting = config.store.evicting().orElse(null);
        if (config.memoryPolicyName != null && evicting != null)
        {
            evicting.evictionPolicy(MemoryPolicy.policyOf(config.memoryPolicyName));
            context.memoryPolicyName(config.memoryPolicyName);
        }
        context.started(localAddress.getPort(), config.clock.time(), threadIds);
        for (final EventLoop loop : loops)
        {
            loop.start();
        }
        acceptorThread = new Thread(
            new Acceptor(channel, loops, context, config.maxClients), "agni-acceptor-" + localAddress.getPort());
        acceptorThread.start();
        state = RUNNING;
        LOG.info(
            "agni server listening on {} ({} event loops, maxClients={}, maxClientMemory={}, password {}, " +
            "protected mode {})", EventLoop.format(localAddress), loops.length, config.maxClients,
            config.maxClientMemory, config.passwordRequired() ? "set" : "not set", config.protectedMode ? "on" : "off");
        if (!config.bindAddress.isLoopbackAddress() && !config.passwordRequired())
        {
            LOG.warn(config.protectedMode ?
                "listening on a non-loopback address with no password: protected mode refuses non-loopback clients" :
                "listening on a non-loopback address with no password and protected mode off: anyone who can " +
                "reach {} can read and change the store", EventLoop.format(localAddress));
        }
        return this;
    }

    /**
     * Returns the port the server listens on; with port 0 configured, the one the system picked.
     *
     * @return the port the server listens on; with port 0 configured, the one the system picked.
     * @throws IllegalStateException if the server was never started.
     */
    public synchronized int port()
    {
        return localAddress().getPort();
    }

    /**
     * Returns the address and port the server listens on.
     *
     * @return the address and port the server listens on.
     * @throws IllegalStateException if the server was never started.
     */
    public synchronized InetSocketAddress localAddress()
    {
        if (localAddress == null)
        {
            throw new IllegalStateException("server not started");
        }
        return localAddress;
    }

    /**
     * Returns whether the server has started and not been closed.
     *
     * @return whether the server has started and not been closed.
     */
    public synchronized boolean isRunning()
    {
        return state == RUNNING;
    }

    /**
     * Returns the failure that stopped the server, if one did: what escaped the acceptor's or an event loop's loop
     * (see "Failures" above). Empty while the server runs, and after a {@link #close()} that no failure caused.
     *
     * @return the failure, or empty.
     */
    public Optional<Throwable> failure()
    {
        return Optional.ofNullable(context.failure.failure());
    }

    /**
     * Waits until the server has stopped: closed, by {@link #close()} or by a failure (then {@link #failure()} says
     * which), and its threads joined. Returns at once for a server that stopped, failed to start, or was closed
     * before it started.
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits.
     */
    public void awaitTermination() throws InterruptedException
    {
        terminated.await();
    }

    /**
     * Waits at most {@code timeout} until the server has stopped, as {@link #awaitTermination()}.
     *
     * @param timeout how long to wait at most.
     * @return {@code true} if the server stopped, {@code false} if the time ran out first.
     * @throws InterruptedException if the calling thread is interrupted while it waits.
     */
    public boolean awaitTermination(final Duration timeout) throws InterruptedException
    {
        return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Makes the server's threads fail where a test says; only before {@link #start()}.
     *
     * @return this server.
     */
    synchronized AgniServer injectFaults(final ServerFaults faults)
    {
        if (state != NEW)
        {
            throw new IllegalStateException("faults are injected before start");
        }
        context.faults = faults;
        return this;
    }

    /**
     * Returns the number of clients connected now (those being refused by protected mode included until closed).
     *
     * @return the number of clients connected now (those being refused by protected mode included until closed).
     */
    public int connectedClients()
    {
        return context.connectedClients();
    }

    /**
     * Returns a snapshot of the connection counters.
     *
     * @return a snapshot of the connection counters.
     */
    public AgniServerStats stats()
    {
        return context.stats();
    }

    /**
     * @return the event-loop threads, for tests that measure them; empty before start.
     */
    synchronized Thread[] eventLoopThreads()
    {
        final EventLoop[] loops = this.loops;
        final Thread[] threads = new Thread[loops == null ? 0 : loops.length];
        for (int i = 0; i < threads.length; i++)
        {
            threads[i] = loops[i].thread();
        }
        return threads;
    }

    /**
     * @return what the command layer sees of this server: sessions, authentication, start time, port.
     */
    ServerContext context()
    {
        return context;
    }

    /**
     * Stops accepting, stops reading from every client, lets the replies already computed go out for up to the
     * shutdown timeout, then closes every socket and selector, joins the threads and releases the port. Idempotent;
     * safe from any thread, an event loop's included (that loop is then not joined).
     */
    @Override
    public void close()
    {
        final EventLoop[] loops;
        synchronized (this)
        {
            if (state != RUNNING)
            {
                if (state == NEW)
                {
                    terminated.countDown();
                }
                state = CLOSED;
                return;
            }
            state = CLOSED;
            loops = this.loops;
        }
        closeQuietly(serverChannel);
        join(acceptorThread, JOIN_MARGIN_MS);
        for (final EventLoop loop : loops)
        {
            loop.requestShutdown();
        }
        for (final EventLoop loop : loops)
        {
            join(loop.thread(), config.shutdownTimeoutMs + JOIN_MARGIN_MS);
        }
        context.stopped();
        LOG.info("agni server on {} closed", EventLoop.format(localAddress));
        terminated.countDown();
    }

    private static void join(final Thread thread, final long timeoutMs)
    {
        if (thread == Thread.currentThread())
        {
            return;
        }
        try
        {
            thread.join(timeoutMs);
            if (thread.isAlive())
            {
                LOG.warn("{} did not stop within {} ms", thread.getName(), timeoutMs);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(final ServerSocketChannel channel)
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ex)
            {
                LOG.warn("closing the listening socket failed", ex);
            }
        }
    }

    @Override
    public String toString()
    {
        return "AgniServer[" + (localAddress == null ? "not started" : EventLoop.format(localAddress)) + "]";
    }
}
