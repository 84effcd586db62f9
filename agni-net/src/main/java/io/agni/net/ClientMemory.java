package io.agni.net;

import io.agni.protocol.BufferMemory;

import java.util.ArrayList;

/**
 * The direct memory that serving clients takes, counted in one place: every connection's query and reply buffers
 * and transaction queue, and the event loops' scratch buffers. It is reported beside the store's memory
 * ({@code INFO}'s {@code mem_clients_normal}, outside {@code used_memory}, which the store's budget bounds) and bounded
 * by {@code maxClientMemory}, Redis 7's {@code maxmemory-clients}.
 *
 * <h2>Accounting</h2>
 * A buffer reserves bytes here before it allocates them and releases them once freed ({@link BufferMemory}), so the
 * count is never below what is allocated; a growth counts the old and the new buffer while both exist. Only
 * allocations change it: a connection's first buffers, a growth, a shrink, a close. Nothing is counted per command.
 *
 * <h2>Eviction</h2>
 * A growth ({@link #tryReserve}) that would take the count past the limit first disconnects clients, largest first,
 * as Redis's {@code evictClients} does, until the count without the clients being disconnected, plus the growth,
 * is within the limit. A client's size is what its buffers hold; for the client asking, what they will hold once
 * the growth has replaced its buffer (the count itself holds both while the bytes are copied).
 * If the client asking is the largest, it is the one disconnected and its growth is refused: nothing is allocated.
 * <ol>
 *   <li>Under the lock: pick the largest client not already chosen; mark it evicted, count its bytes as being
 *   freed ({@code evicting}); repeat while the count minus {@code evicting} plus the growth passes the limit.</li>
 *   <li>A client of another event loop is handed to that loop ({@link EventLoop#evict}), which closes it on its
 *   next iteration: only its own loop may touch its buffers.</li>
 *   <li>Outside the lock, the clients of the asking connection's own loop (chosen now or before) are closed at once,
 *   on this thread, which is theirs: their memory is freed before the growth is allocated.</li>
 *   <li>The growth is counted and allowed.</li>
 * </ol>
 * So the memory of clients not being disconnected never passes the limit; the count itself passes it only by what
 * clients chosen on other loops hold until those loops close them, one iteration later. With one event loop the
 * limit holds exactly.
 * <p>
 * A new connection's first buffers evict the same way to make room, but the new client is never the one refused: it
 * holds nothing yet. A shrink frees the large buffer before it allocates the small one, so it never adds to the
 * count. The event loops' scratch buffers (4 KiB each, more only during a command whose handler asks) are counted
 * but evict nobody. So the limit can only be passed for good when it is smaller than the clients' first buffers
 * together (32 KiB per connection): size it for {@code maxClients}.
 *
 * <h2>Concurrency</h2>
 * One lock, this object's monitor, taken only when a buffer is allocated or freed; every count is guarded by it. The
 * evicted flag of a connection is also volatile, so that its loop can check it without the lock.
 */
final class ClientMemory
{
    private final long limit;
    private final ArrayList<ConnectionMemory> accounts = new ArrayList<>();
    private final BufferMemory shared = new BufferMemory()
    {
        @Override
        public boolean tryReserve(final long bytes)
        {
            reserve(bytes);
            return true;
        }

        @Override
        public void reserve(final long bytes)
        {
            synchronized (ClientMemory.this)
            {
                add(bytes);
            }
        }

        @Override
        public void release(final long bytes)
        {
            synchronized (ClientMemory.this)
            {
                used -= bytes;
            }
        }
    };
    private long used;
    private long evicting;
    private long peak;
    private long evictedClients;

    /**
     * @param limit the most bytes the clients' buffers may hold together, 0 for no limit.
     */
    ClientMemory(final long limit)
    {
        this.limit = limit;
    }

    /**
     * @return the account for memory no client owns (an event loop's scratch buffer): counted, never refused, never
     * evicted.
     */
    BufferMemory shared()
    {
        return shared;
    }

    /**
     * Opens the account of a new connection, first evicting the largest clients if its first buffers would take the
     * count past the limit (a new client itself is never refused here: it holds nothing yet). Its buffers then
     * reserve through {@link ConnectionMemory#query()} and {@link ConnectionMemory#reply()}. Only the connection's
     * event loop, before the connection is in the loop's lists.
     *
     * @param account      the new connection's account.
     * @param initialBytes what its first buffers will reserve.
     */
    void open(final ConnectionMemory account, final long initialBytes)
    {
        final ArrayList<ConnectionMemory> closeNow;
        synchronized (this)
        {
            closeNow = makeRoom(account, ConnectionMemory.REPLY, initialBytes);
            account.index = accounts.size();
            accounts.add(account);
        }
        closeAll(closeNow);
    }

    /**
     * Closes an account once its connection has freed its buffers. Only the connection's event loop.
     */
    synchronized void close(final ConnectionMemory account)
    {
        final int index = account.index;
        if (index < 0)
        {
            return;
        }
        final ConnectionMemory last = accounts.remove(accounts.size() - 1);
        if (last != account)
        {
            accounts.set(index, last);
            last.index = index;
        }
        account.index = -1;
        final long left = account.bytes();
        used -= left;
        if (account.evicted)
        {
            evicting -= left;
        }
    }

    /**
     * Counts a growth of one connection's buffer if it fits under the limit, after evicting the largest clients if
     * it does not (see the class comment). Only the connection's event loop.
     *
     * @param account   the connection's account.
     * @param part      which of the connection's buffers grows ({@link ConnectionMemory#QUERY}, ...).
     * @param bytes     the bytes about to be allocated.
     * @return whether they may be; false when this connection is evicted (now or before): it must close.
     */
    boolean tryReserve(final ConnectionMemory account, final int part, final long bytes)
    {
        final ArrayList<ConnectionMemory> closeNow;
        synchronized (this)
        {
            if (account.evicted)
            {
                return false;
            }
            if (limit == 0 || used + bytes <= limit)
            {
                account.add(part, bytes);
                add(bytes);
                return true;
            }
            closeNow = makeRoom(account, part, bytes);
        }
        closeAll(closeNow);
        synchronized (this)
        {
            if (account.evicted)
            {
                return false;
            }
            account.add(part, bytes);
            add(bytes);
            return true;
        }
    }

    /**
     * Counts bytes a connection's buffer allocates whatever the limit says: its first allocation, or a shrink.
     */
    synchronized void reserve(final ConnectionMemory account, final int part, final long bytes)
    {
        account.add(part, bytes);
        add(bytes);
        if (account.evicted)
        {
            evicting += bytes;
        }
    }

    /**
     * Gives back bytes a connection's buffer freed.
     */
    synchronized void release(final ConnectionMemory account, final int part, final long bytes)
    {
        account.add(part, -bytes);
        used -= bytes;
        if (account.evicted)
        {
            evicting -= bytes;
        }
    }

    /**
     * @return the bytes the clients' buffers hold now.
     */
    synchronized long usedBytes()
    {
        return used;
    }

    /**
     * @return the most bytes they have held at once since the server started.
     */
    synchronized long peakBytes()
    {
        return peak;
    }

    /**
     * @return the clients chosen for eviction since the server started.
     */
    synchronized long evictedClients()
    {
        return evictedClients;
    }

    /**
     * @return the limit, 0 for none.
     */
    long limit()
    {
        return limit;
    }

    /**
     * Under the lock: evicts the largest clients until {@code bytes} more fit beside the clients not being evicted,
     * then lists the evicted clients of the asking connection's loop, which the caller closes once it has left the
     * lock.
     *
     * @return those clients, or null if there are none.
     */
    private ArrayList<ConnectionMemory> makeRoom(
        final ConnectionMemory asking, final int part, final long bytes)
    {
        if (limit == 0)
        {
            return null;
        }
        if (used - evicting + bytes > limit)
        {
            evictLargest(asking, part, bytes);
        }
        ArrayList<ConnectionMemory> closeNow = null;
        for (int i = 0, count = accounts.size(); i < count; i++)
        {
            final ConnectionMemory other = accounts.get(i);
            if (other.evicted && other != asking && other.loop == asking.loop)
            {
                if (closeNow == null)
                {
                    closeNow = new ArrayList<>();
                }
                closeNow.add(other);
            }
        }
        return closeNow;
    }

    /**
     * Closes clients of the calling thread's own loop that were chosen for eviction: their buffers are freed now.
     */
    private static void closeAll(final ArrayList<ConnectionMemory> closeNow)
    {
        if (closeNow != null)
        {
            for (int i = 0, count = closeNow.size(); i < count; i++)
            {
                closeNow.get(i).connection.closeEvicted();
            }
        }
    }

    private void add(final long bytes)
    {
        used += bytes;
        if (used > peak)
        {
            peak = used;
        }
    }

    /**
     * Marks clients evicted, largest first, until the memory of the others plus {@code bytes} fits the limit or the
     * asking client is chosen. Clients of other loops are handed to their loop; the caller closes those of its own.
     */
    private void evictLargest(final ConnectionMemory asking, final int part, final long bytes)
    {
        while (used - evicting + bytes > limit)
        {
            ConnectionMemory largest = null;
            long largestBytes = -1;
            for (int i = 0, count = accounts.size(); i < count; i++)
            {
                final ConnectionMemory candidate = accounts.get(i);
                final long size = candidate == asking ? asking.bytesAfter(part, bytes) : candidate.bytes();
                if (!candidate.evicted && size > largestBytes)
                {
                    largest = candidate;
                    largestBytes = size;
                }
            }
            if (largest == null)
            {
                return;
            }
            largest.evicted = true;
            evicting += largest.bytes();
            evictedClients++;
            if (largest == asking)
            {
                return;
            }
            if (largest.loop != asking.loop)
            {
                largest.loop.evict(largest.connection);
            }
        }
    }
}
