package io.agni.net;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The accepting thread: a blocking {@code accept} loop on the listening socket. Each new connection takes a client
 * slot (or is told {@code -ERR max number of clients reached} and closed, as Redis does), is made non-blocking with
 * TCP_NODELAY, and is handed to the next event loop, round robin (skipping a loop that failed). Closing the
 * listening socket ends the loop.
 * <p>
 * When {@code accept} fails (out of file descriptors, most often) the failure is logged at WARN at most once per
 * interval and the thread pauses briefly instead of spinning. A {@link RuntimeException} or
 * {@link OutOfMemoryError} while setting up one new connection closes that connection (its client slot is
 * released) and the loop goes on, logged at WARN as an accept failure. Anything else that escapes the loop stops
 * the whole server ({@link ServerFailure}): a server that no longer accepts must not look alive.
 */
final class Acceptor implements Runnable
{
    private static final Logger LOG = LoggerFactory.getLogger(Acceptor.class);
    private static final long ACCEPT_FAILURE_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private final ServerSocketChannel serverChannel;
    private final EventLoop[] loops;
    private final AgniServerContext server;
    private final int maxClients;
    private int next;

    Acceptor(
        final ServerSocketChannel serverChannel,
        final EventLoop[] loops,
        final AgniServerContext server,
        final int maxClients)
    {
        this.serverChannel = serverChannel;
        this.loops = loops;
        this.server = server;
        this.maxClients = maxClients;
    }

    @Override
    public void run()
    {
        final ServerFaults faults = server.faults;
        try
        {
            while (true)
            {
                faults.beforeAccept();
                final SocketChannel channel;
                try
                {
                    channel = serverChannel.accept();
                }
                catch (final ClosedChannelException ex)
                {
                    return;
                }
                catch (final IOException ex)
                {
                    if (!serverChannel.isOpen())
                    {
                        return;
                    }
                    server.warnings.acceptFailures.warn("accepting a connection failed: {}", ex.toString());
                    LockSupport.parkNanos(ACCEPT_FAILURE_PAUSE_NS);
                    continue;
                }
                accepted(channel, faults);
            }
        }
        catch (final Throwable ex)
        {
            server.failure.fatal(Thread.currentThread().getName(), ex);
        }
    }

    /**
     * Sets up one new connection and hands it to a loop; a failure of this connection's setup closes it alone.
     */
    private void accepted(final SocketChannel channel, final ServerFaults faults)
    {
        boolean reserved = false;
        try
        {
            faults.accepted(channel);
            server.totalConnectionsReceived.incrementAndGet();
            if (!server.tryReserveClient())
            {
                reject(channel);
                return;
            }
            reserved = true;
            if (setUp(channel) && handOff(channel))
            {
                return;
            }
        }
        catch (final RuntimeException | OutOfMemoryError ex)
        {
            server.warnings.acceptFailures.warn("setting up a new connection failed: {}", ex.toString());
        }
        closeQuietly(channel);
        if (reserved)
        {
            server.releaseClient();
        }
    }

    private static boolean setUp(final SocketChannel channel)
    {
        try
        {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            return true;
        }
        catch (final IOException ex)
        {
            LOG.debug("setting up a new connection failed: {}", ex.toString());
            return false;
        }
    }

    /**
     * @return whether a loop took the connection; if none did (every loop stopped: the server is stopping), the
     * caller closes it.
     */
    private boolean handOff(final SocketChannel channel)
    {
        for (int attempt = 0; attempt < loops.length; attempt++)
        {
            final EventLoop loop = loops[next];
            next = next + 1 == loops.length ? 0 : next + 1;
            if (loop.handOff(channel))
            {
                return true;
            }
        }
        LOG.debug("every event loop has stopped; refusing a connection");
        return false;
    }

    /**
     * Redis's answer past {@code maxclients}: a best-effort error, then close.
     */
    private void reject(final SocketChannel channel)
    {
        server.rejectedConnections.incrementAndGet();
        server.warnings.maxClientsRefused.warn("refused a connection: maxClients={} reached", maxClients);
        try
        {
            channel.configureBlocking(false);
            channel.write(ServerReplies.maxClientsReached());
            channel.shutdownOutput();
        }
        catch (final IOException ex)
        {
            LOG.debug("sending the max-clients error failed: {}", ex.toString());
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(final SocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            LOG.debug("closing a connection failed: {}", ex.toString());
        }
    }
}
