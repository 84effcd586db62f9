package io.agni.net;

import io.agni.api.StoreClosedException;
import io.agni.api.StoreConnectionException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A small pool of blocking connections, lent to one thread at a time.
 *
 * <h2>Why a pool of blocking connections</h2>
 * Each {@link AgniClient} call is one request and one reply (multi-key operations are one command), so a
 * connection lent for the length of a call needs no request ids, no reply routing and no I/O thread: the calling
 * thread writes and reads itself, and a connection is never shared mid-reply. The price is one connection per
 * concurrent call, which is why the pool is bounded: past {@code maxConnections} callers wait for a connection to
 * come back.
 *
 * <h2>Concurrency</h2>
 * One lock guards the idle stack and the counts. Connections are opened and closed outside it, so a slow connect
 * does not hold up threads returning connections. Idle connections are reused last-in first-out, keeping the
 * fewest sockets warm. A connection returned {@link ClientConnection#isBroken() broken} is dropped and its slot
 * freed for a new one, opened on demand; the idle connections are dropped with it, since what broke one (most
 * often a server restart) has most likely broken them too, and each would otherwise fail one more call.
 *
 * <h2>Closing</h2>
 * {@link #close()} refuses new loans at once (waiting callers wake and get {@link StoreClosedException}), waits
 * for the connections on loan to come back, each call bounded by the read timeout, then closes them all.
 */
final class ClientConnectionPool implements AutoCloseable
{
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition available = lock.newCondition();
    private final Condition returned = lock.newCondition();
    private final ArrayDeque<ClientConnection> idle;
    private final Supplier<ClientConnection> opener;
    private final int maxConnections;
    private final String name;
    private int open;
    private int onLoan;
    private boolean closed;

    /**
     * @param opener         opens a new connection, or throws {@link StoreConnectionException}.
     * @param maxConnections the most connections open at once, at least 1.
     * @param name           names the client in {@link StoreClosedException}'s message.
     */
    ClientConnectionPool(final Supplier<ClientConnection> opener, final int maxConnections, final String name)
    {
        if (maxConnections < 1)
        {
            throw new IllegalArgumentException("maxConnections must be at least 1: " + maxConnections);
        }
        this.opener = opener;
        this.maxConnections = maxConnections;
        this.name = name;
        this.idle = new ArrayDeque<>(maxConnections);
    }

    /**
     * Lends a connection: an idle one, a new one if fewer than the maximum are open, else the next one returned.
     * Any thread.
     *
     * @return a connection for the caller alone, until it gives it back with {@link #release} (which
     * {@link ClientConnection#close()} does).
     * @throws StoreClosedException      if the pool is closed, also while waiting.
     * @throws StoreConnectionException if a new connection cannot be opened, or the thread is interrupted while
     *                                   it waits.
     */
    ClientConnection acquire()
    {
        lock.lock();
        try
        {
            while (true)
            {
                if (closed)
                {
                    throw closedException();
                }
                final ClientConnection connection = idle.pollLast();
                if (connection != null)
                {
                    onLoan++;
                    return connection;
                }
                if (open < maxConnections)
                {
                    open++;
                    onLoan++;
                    break;
                }
                available.await();
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new StoreConnectionException("interrupted while waiting for a connection to " + name, ex);
        }
        finally
        {
            lock.unlock();
        }
        return openOnLoan();
    }

    /**
     * Gives a connection back: kept for reuse if it is healthy and the pool open, else closed, and if it broke, the
     * idle connections are closed too. Any thread.
     *
     * @param connection a connection from {@link #acquire()}, given back once.
     */
    void release(final ClientConnection connection)
    {
        final boolean keep;
        List<ClientConnection> stale = null;
        lock.lock();
        try
        {
            onLoan--;
            keep = !closed && !connection.isBroken();
            if (keep)
            {
                idle.addLast(connection);
            }
            else
            {
                open--;
                if (connection.isBroken() && !idle.isEmpty())
                {
                    stale = new ArrayList<>(idle);
                    open -= idle.size();
                    idle.clear();
                }
            }
            available.signalAll();
            if (onLoan == 0)
            {
                returned.signalAll();
            }
        }
        finally
        {
            lock.unlock();
        }
        if (!keep)
        {
            connection.disconnect();
        }
        if (stale != null)
        {
            stale.forEach(ClientConnection::disconnect);
        }
    }

    /**
     * @return whether {@link #close()} has begun.
     */
    boolean isClosed()
    {
        lock.lock();
        try
        {
            return closed;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @return the number of connections open now, idle or on loan.
     */
    int openConnections()
    {
        lock.lock();
        try
        {
            return open;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Refuses new loans, waits for the connections on loan to come back, and closes every connection. Idempotent;
     * any thread, but not one that holds a connection on loan.
     */
    @Override
    public void close()
    {
        final List<ClientConnection> toClose;
        lock.lock();
        try
        {
            closed = true;
            available.signalAll();
            while (onLoan > 0)
            {
                returned.awaitUninterruptibly();
            }
            toClose = new ArrayList<>(idle);
            open -= idle.size();
            idle.clear();
        }
        finally
        {
            lock.unlock();
        }
        for (final ClientConnection connection : toClose)
        {
            connection.disconnect();
        }
    }

    /**
     * @return the exception for a call on a closed pool.
     */
    StoreClosedException closedException()
    {
        return new StoreClosedException(name + " is closed");
    }

    private ClientConnection openOnLoan()
    {
        try
        {
            final ClientConnection connection = opener.get();
            connection.lentBy(this);
            return connection;
        }
        catch (final RuntimeException | Error ex)
        {
            lock.lock();
            try
            {
                open--;
                onLoan--;
                available.signal();
                if (onLoan == 0)
                {
                    returned.signalAll();
                }
            }
            finally
            {
                lock.unlock();
            }
            throw ex;
        }
    }
}
