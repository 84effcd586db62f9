package io.agni.net;

import io.agni.api.DeferredDurability;
import io.agni.protocol.command.CommandProcessor;
import io.agni.protocol.command.CommandTable;
import io.agni.protocol.command.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * One event-loop thread: a selector over the connections the acceptor handed it, and the
 * {@link CommandProcessor} they share. Every connection is served by exactly one loop for its whole life, so
 * nothing a connection owns is ever touched by two threads.
 *
 * <h2>The loop</h2>
 * {@code select} with the loop itself as the action (no iterator or selected-key set garbage per wake-up); new
 * connections from the hand-off queue; every {@code tick}, the idle timeout and linger deadlines of every
 * connection (as Redis's {@code clientsCron}). The tick is a tenth of the idle timeout, between 10 ms and 1 s.
 *
 * <h2>Fairness</h2>
 * A connection executes at most {@link Connection#MAX_COMMANDS_PER_TURN} commands per turn. One that stops there
 * with input left asks for another turn ({@link #resumeLater}); the selector cannot report that input, so the loop
 * keeps the list itself. Each iteration serves the connections the selector reports first, then the ones that
 * asked in an earlier iteration, each once (the lists are swapped, so one that stops again waits for the next
 * iteration). While the list is not empty the loop selects without blocking. A connection whose write is partial
 * is not on the list: it waits for {@code OP_WRITE} and asks again once drained.
 *
 * <h2>Replies after the sync</h2>
 * When the store makes each write wait for the device ({@link DeferredDurability#writesAwaitDurable()}, agni's
 * {@code PARANOID}), waiting inside each write would hold up every connection of the loop for every sync. Instead
 * the loop's thread defers its writes' durability ({@link DeferredDurability#deferDurability}), and a connection's
 * turn leaves its replies in its buffer and joins the loop's list ({@link #flushAfterSync(Connection)}). Once per iteration,
 * after every connection the selector reported and every resumed one was served, the loop waits once until every
 * write it made is durable ({@link DeferredDurability#awaitDurable}: one sync, shared with the other loops syncing
 * at the same moment) and only then writes the listed connections' replies, each connection's in order: Redis's
 * {@code appendfsync always}, which syncs in {@code beforeSleep} and sends the replies after it. A reply written
 * early (a connection with a quarter of a megabyte of replies waiting) waits for the sync first. If the sync fails,
 * the replies that wait for it are never sent: their clients are disconnected (the outcome of their writes is
 * unknown, as after any failed write), and the store, now read-only, refuses every later write with an error reply.
 *
 * <h2>Eviction</h2>
 * When the clients' buffers pass the server's client-memory limit, {@link ClientMemory} chooses the largest clients
 * to disconnect; a client of this loop chosen while another loop's connection grew is handed over with
 * {@link #evict} (any thread) and closed here at the next iteration, since only this thread may touch its buffers.
 *
 * <h2>Shutdown</h2>
 * {@link #requestShutdown()} (any thread) makes the loop stop reading from every connection, let the replies
 * already computed go out until the server's shutdown timeout, then close every socket and the selector.
 *
 * <h2>Failures</h2>
 * A {@link RuntimeException} or {@link OutOfMemoryError} while serving or registering one connection (its buffers,
 * its command) closes that connection, logged at WARN (rate-limited), and the loop serves on. Anything that
 * escapes the loop itself (any other {@link Error} from a connection, any {@link Throwable} from the loop's own
 * work) closes this loop's connections and selector and then stops the whole server ({@link ServerFailure}): a
 * server with a dead loop would accept connections nobody serves.
 */
final class EventLoop implements Runnable, Consumer<SelectionKey>
{
    private static final Logger LOG = LoggerFactory.getLogger(EventLoop.class);
    private static final long MIN_TICK_MS = 10;
    private static final long MAX_TICK_MS = 1_000;

    private final AgniServerConfig config;
    private final AgniServerContext server;
    private final Selector selector;
    private final CommandProcessor processor;
    private final ConcurrentLinkedQueue<SocketChannel> handoff = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Connection> evictions = new ConcurrentLinkedQueue<>();
    private final ArrayList<Connection> connections = new ArrayList<>();
    private ArrayList<Connection> inputPending = new ArrayList<>();
    private ArrayList<Connection> resuming = new ArrayList<>();
    /**
     * The store, when its writes wait for the device and the loop makes them wait once per iteration instead;
     * {@code null} otherwise.
     */
    private final DeferredDurability durability;
    private final ArrayList<Connection> awaitingSync = new ArrayList<>();
    private boolean syncFailed;
    private final long tickMs;
    private final Thread thread;
    private volatile boolean shutdownRequested;
    private volatile boolean stopped;
    private boolean draining;
    private long drainDeadlineMs;
    private long nextTickMs;

    EventLoop(final String name, final AgniServerConfig config, final AgniServerContext server) throws IOException
    {
        this.config = config;
        this.server = server;
        this.processor = new CommandProcessor(
            config.store, server, config.clock, CommandTable.standard(), server.clientMemory.shared());
        this.tickMs = config.idleTimeoutMs > 0 ?
            Math.max(MIN_TICK_MS, Math.min(MAX_TICK_MS, config.idleTimeoutMs / 10)) : MAX_TICK_MS;
        this.selector = Selector.open();
        this.thread = new Thread(this, name);
        this.durability = config.store.deferredDurability().filter(DeferredDurability::writesAwaitDurable)
            .orElse(null);
    }

    void start()
    {
        thread.start();
    }

    Thread thread()
    {
        return thread;
    }

    /**
     * Hands a new, non-blocking connection to this loop; its client slot is already reserved. Any thread.
     *
     * @return false if the loop has stopped (it failed), so the caller should try another.
     */
    boolean handOff(final SocketChannel channel)
    {
        if (stopped)
        {
            return false;
        }
        handoff.offer(channel);
        selector.wakeup();
        if (stopped)
        {
            // The loop stopped after the check above and may have drained the queue already: close what is left.
            closeHandedOffConnections();
        }
        return true;
    }

    /**
     * Asks the loop to close a connection of its own that {@link ClientMemory} chose for eviction. Any thread.
     */
    void evict(final Connection connection)
    {
        evictions.offer(connection);
        selector.wakeup();
    }

    /**
     * Asks the loop to flush, close everything and stop. Any thread.
     */
    void requestShutdown()
    {
        shutdownRequested = true;
        selector.wakeup();
    }

    /**
     * Closes the selector of a loop that was never started.
     */
    void closeUnstarted()
    {
        processor.free();
        closeSelector();
    }

    @Override
    public void run()
    {
        final ServerFaults faults = server.faults;
        Throwable failure = null;
        try
        {
            if (durability != null)
            {
                durability.deferDurability(true);
            }
            long nowMs = nowMs();
            nextTickMs = nowMs + tickMs;
            while (true)
            {
                final long timeoutMs = draining ? Math.max(1, Math.min(tickMs, drainDeadlineMs - nowMs)) : tickMs;
                final ArrayList<Connection> waiting = takeInputPending();
                if (waiting.isEmpty())
                {
                    selector.select(this, timeoutMs);
                }
                else
                {
                    selector.selectNow(this);
                    resume(waiting);
                }
                nowMs = nowMs();
                faults.loopIteration();
                closeEvicted();
                registerHandedOff(nowMs);
                if (nowMs - nextTickMs >= 0)
                {
                    tick(nowMs);
                    nextTickMs = nowMs + tickMs;
                }
                if (shutdownRequested && !draining)
                {
                    draining = true;
                    drainDeadlineMs = nowMs + config.shutdownTimeoutMs;
                    shutdownConnections(nowMs);
                }
                syncThenWriteReplies(nowMs);
                if (draining && (connections.isEmpty() || nowMs - drainDeadlineMs >= 0))
                {
                    break;
                }
            }
        }
        catch (final Throwable ex)
        {
            failure = ex;
        }
        finally
        {
            try
            {
                closeEverything();
            }
            catch (final Throwable ex)
            {
                failure = failure == null ? ex : failure;
            }
            if (failure != null)
            {
                server.failure.fatal(thread.getName(), failure);
            }
        }
    }

    /**
     * The selector's action for one ready key.
     */
    @Override
    public void accept(final SelectionKey key)
    {
        // A connection served earlier in this round may have closed this one (evicting it for client memory): its
        // key is then cancelled, and its ready operations can no longer be read.
        if (key.isValid())
        {
            serve((Connection)key.attachment(), key.readyOps());
        }
    }

    /**
     * Whether replies wait for the loop's sync once per iteration ("Replies after the sync").
     *
     * @return {@code true} when the store's writes wait for the device.
     */
    boolean defersReplies()
    {
        return durability != null;
    }

    /**
     * Has a connection's replies written once this iteration's writes are durable. Only this loop's thread, at most
     * once per connection and iteration.
     */
    void flushAfterSync(final Connection connection)
    {
        awaitingSync.add(connection);
    }

    /**
     * Waits until every write this loop's thread made is durable. Only this loop's thread, when
     * {@link #defersReplies()}.
     *
     * @return {@code false} if a sync failed in this iteration: replies that wait for one must not be sent.
     */
    boolean awaitDurable()
    {
        try
        {
            durability.awaitDurable();
        }
        catch (final RuntimeException ex)
        {
            if (!syncFailed)
            {
                server.warnings.durabilityFailures.warn("the store could not make this event loop's writes " +
                    "durable; disconnecting the clients whose replies waited for them: {}", ex.toString());
            }
            syncFailed = true;
        }
        return !syncFailed;
    }

    /**
     * The end of an iteration: one sync for every write made in it, then the replies that waited for it.
     */
    private void syncThenWriteReplies(final long nowMs)
    {
        if (awaitingSync.isEmpty())
        {
            syncFailed = false;
            return;
        }
        final boolean synced = awaitDurable();
        for (int i = 0, size = awaitingSync.size(); i < size; i++)
        {
            final Connection connection = awaitingSync.get(i);
            try
            {
                connection.flushAfterSync(nowMs, synced);
            }
            catch (final IOException | CancelledKeyException ex)
            {
                LOG.debug("{}: {}", connection, ex.toString());
                connection.close(DisconnectReason.IO_ERROR);
            }
            catch (final RuntimeException ex)
            {
                server.warnings.internalErrors.warn("unexpected failure serving {}: {}", connection, ex.toString());
                connection.close(DisconnectReason.INTERNAL_ERROR);
            }
        }
        awaitingSync.clear();
        syncFailed = false;
    }

    /**
     * Gives a connection that stopped at its turn's bound with input left another turn, after the connections the
     * next select reports. Only this loop's thread; at most once per stop.
     */
    void resumeLater(final Connection connection)
    {
        inputPending.add(connection);
    }

    /**
     * @return the connections that asked for another turn so far; those that ask from now on go to the other list.
     */
    private ArrayList<Connection> takeInputPending()
    {
        final ArrayList<Connection> taken = inputPending;
        inputPending = resuming;
        resuming = taken;
        return taken;
    }

    private void resume(final ArrayList<Connection> taken)
    {
        for (int i = 0, size = taken.size(); i < size; i++)
        {
            final Connection connection = taken.get(i);
            if (!connection.isClosed())
            {
                serve(connection, 0);
            }
        }
        taken.clear();
    }

    /**
     * One turn of a connection: what the selector reported ready, or, with no ready operations, the input it left
     * in its query buffer.
     */
    private void serve(final Connection connection, final int ready)
    {
        final long nowMs = nowMs();
        try
        {
            if (ready == 0)
            {
                connection.onInputPending(nowMs);
                return;
            }
            if ((ready & SelectionKey.OP_WRITE) != 0)
            {
                connection.onWritable(nowMs);
            }
            if ((ready & SelectionKey.OP_READ) != 0 && !connection.isClosed())
            {
                connection.onReadable(nowMs);
            }
        }
        catch (final IOException | CancelledKeyException ex)
        {
            LOG.debug("{}: {}", connection, ex.toString());
            connection.close(DisconnectReason.IO_ERROR);
        }
        catch (final RuntimeException | OutOfMemoryError ex)
        {
            // OutOfMemoryError here is almost always direct memory for this connection's buffers: drop the client,
            // keep serving the others.
            server.warnings.internalErrors.warn("unexpected failure serving {}: {}", connection, ex.toString());
            connection.close(DisconnectReason.INTERNAL_ERROR);
        }
    }

    /**
     * Called by a connection as it closes.
     */
    void removed(final Connection connection)
    {
        final int index = connection.index;
        final int last = connections.size() - 1;
        if (index < 0 || index > last || connections.get(index) != connection)
        {
            return;
        }
        final Connection moved = connections.remove(last);
        if (index != last)
        {
            connections.set(index, moved);
            moved.index = index;
        }
        connection.index = -1;
    }

    private void closeEvicted()
    {
        Connection connection;
        while ((connection = evictions.poll()) != null)
        {
            connection.closeEvicted();
        }
    }

    private void registerHandedOff(final long nowMs)
    {
        SocketChannel channel;
        while ((channel = handoff.poll()) != null)
        {
            if (draining)
            {
                closeHandedOff(channel);
                continue;
            }
            register(channel, nowMs);
        }
    }

    private void register(final SocketChannel channel, final long nowMs)
    {
        Connection connection = null;
        try
        {
            final InetSocketAddress remote = (InetSocketAddress)channel.getRemoteAddress();
            final Session session = new Session(
                server.nextClientId(), format(remote), format(channel.getLocalAddress()), config.clock.time());
            connection = new Connection(this, config, server, processor, channel, session, nowMs);
            connection.index = connections.size();
            connections.add(connection);
            server.add(session);
            final boolean denied = config.deniedByProtectedMode(remote.getAddress());
            if (denied)
            {
                server.protectedModeDenials.incrementAndGet();
                server.warnings.protectedModeRefused.warn(
                    "protected mode refused client {} (no password set, server bound to {})",
                    session.remoteAddress(), config.bindAddress.getHostAddress());
            }
            LOG.debug("client id={} addr={} connected", session.id(), session.remoteAddress());
            connection.start(selector, denied, nowMs);
        }
        catch (final IOException | RuntimeException | OutOfMemoryError ex)
        {
            server.warnings.acceptFailures.warn("registering a new connection failed: {}", ex.toString());
            if (connection != null)
            {
                connection.close(DisconnectReason.IO_ERROR);
            }
            else
            {
                closeHandedOff(channel);
            }
        }
    }

    private void tick(final long nowMs)
    {
        server.statistics().tick(System.nanoTime() / 1_000_000, config.store);
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            if (i < connections.size())
            {
                connections.get(i).onTick(nowMs);
            }
        }
    }

    private void shutdownConnections(final long nowMs)
    {
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            if (i < connections.size())
            {
                connections.get(i).shutdown(nowMs);
            }
        }
    }

    private void closeEverything()
    {
        stopped = true;
        for (int i = connections.size() - 1; i >= 0; i--)
        {
            if (i < connections.size())
            {
                connections.get(i).close(DisconnectReason.SERVER_SHUTDOWN);
            }
        }
        closeHandedOffConnections();
        evictions.clear();
        processor.free();
        closeSelector();
    }

    private void closeHandedOffConnections()
    {
        SocketChannel channel;
        while ((channel = handoff.poll()) != null)
        {
            closeHandedOff(channel);
        }
    }

    private void closeHandedOff(final SocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            LOG.debug("closing a connection failed: {}", ex.toString());
        }
        server.releaseClient();
    }

    private void closeSelector()
    {
        try
        {
            selector.close();
        }
        catch (final IOException ex)
        {
            LOG.warn("closing the selector of {} failed", thread.getName(), ex);
        }
    }

    private static long nowMs()
    {
        return System.nanoTime() / 1_000_000;
    }

    /**
     * {@code ip:port}, or {@code [ip]:port} for IPv6, as Redis's {@code anetFormatAddr}.
     */
    static String format(final SocketAddress address)
    {
        if (!(address instanceof InetSocketAddress))
        {
            return String.valueOf(address);
        }
        final InetSocketAddress socketAddress = (InetSocketAddress)address;
        final InetAddress ip = socketAddress.getAddress();
        final String host = ip == null ? socketAddress.getHostString() : ip.getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + socketAddress.getPort();
    }
}
