package io.agni.net;

import io.agni.protocol.BufferMemory;
import io.agni.protocol.command.Session;

/**
 * One connection's share of the {@link ClientMemory}: what its query and reply buffers hold, whether it has been
 * chosen for eviction, and the two {@link BufferMemory} views its buffers reserve through. Each change is published
 * to the connection's {@link Session} for {@code CLIENT LIST}.
 * <p>
 * The byte counts and the index are guarded by the {@link ClientMemory}'s lock. {@link #evicted} is written under
 * it too and is volatile, so that the connection's loop can check it without the lock.
 */
final class ConnectionMemory
{
    final ClientMemory clients;
    final Connection connection;
    final EventLoop loop;
    private final Session session;
    private final BufferMemory query = new Part(true);
    private final BufferMemory reply = new Part(false);
    private long queryBytes;
    private long replyBytes;
    volatile boolean evicted;
    int index = -1;

    ConnectionMemory(final ClientMemory clients, final Connection connection, final EventLoop loop,
        final Session session)
    {
        this.clients = clients;
        this.connection = connection;
        this.loop = loop;
        this.session = session;
    }

    /**
     * @return the account the query buffer reserves through.
     */
    BufferMemory query()
    {
        return query;
    }

    /**
     * @return the account the reply buffer reserves through.
     */
    BufferMemory reply()
    {
        return reply;
    }

    /**
     * @return what both buffers hold. Under the {@link ClientMemory}'s lock.
     */
    long bytes()
    {
        return queryBytes + replyBytes;
    }

    /**
     * @return what both buffers will hold once one of them is replaced by a buffer of {@code bytes}. Under the
     * {@link ClientMemory}'s lock.
     */
    long bytesAfter(final boolean queryPart, final long bytes)
    {
        return (queryPart ? replyBytes : queryBytes) + bytes;
    }

    /**
     * Adds to one buffer's count and publishes both. Under the {@link ClientMemory}'s lock, on the connection's loop.
     */
    void add(final boolean queryPart, final long bytes)
    {
        if (queryPart)
        {
            queryBytes += bytes;
        }
        else
        {
            replyBytes += bytes;
        }
        session.bufferMemory(queryBytes, replyBytes);
    }

    private final class Part implements BufferMemory
    {
        private final boolean queryPart;

        Part(final boolean queryPart)
        {
            this.queryPart = queryPart;
        }

        @Override
        public boolean tryReserve(final long bytes)
        {
            return clients.tryReserve(ConnectionMemory.this, queryPart, bytes);
        }

        @Override
        public void reserve(final long bytes)
        {
            clients.reserve(ConnectionMemory.this, queryPart, bytes);
        }

        @Override
        public void release(final long bytes)
        {
            clients.release(ConnectionMemory.this, queryPart, bytes);
        }
    }
}
