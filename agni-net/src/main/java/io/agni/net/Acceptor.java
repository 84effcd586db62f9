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
 * interval and the thread pauses briefly instead of spinning.
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
        try
        {
            while (true)
            {
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
                accepted(channel);
            }
        }
        catch (final Throwable ex)
        {
            LOG.error("the acceptor failed; no new connections will be accepted", ex);
        }
    }

    private void accepted(final SocketChannel channel)
    {
        server.totalConnectionsReceived.incrementAndGet();
        if (!server.tryReserveClient())
        {
            reject(channel);
            return;
        }
        try
        {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        }
        catch (final IOException ex)
        {
            LOG.debug("setting up a new connection failed: {}", ex.toString());
            closeQuietly(channel);
            server.releaseClient();
            return;
        }
        for (int attempt = 0; attempt < loops.length; attempt++)
        {
            final EventLoop loop = loops[next];
            next = next + 1 == loops.length ? 0 : next + 1;
            if (loop.handOff(channel))
            {
                return;
            }
        }
        LOG.error("every event loop has stopped; refusing a connection");
        closeQuietly(channel);
        server.releaseClient();
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
