package io.agni.net;

import io.agni.protocol.BufferMemory;
import io.agni.protocol.command.Session;

/**
 * One connection's share of the {@link ClientMemory}: what its query buffer, reply buffer and transaction queue hold,
 * whether it has been chosen for eviction, and the {@link BufferMemory} views its buffers reserve through. Each
 * change is published to the connection's {@link Session} for {@code CLIENT LIST} (the queue publishes its own
 * size).
 * <p>
 * The byte counts and the index are guarded by the {@link ClientMemory}'s lock. {@link #evicted} is written under
 * it too and is volatile, so that the connection's loop can check it without the lock.
 */
final class ConnectionMemory
{
    /**
     * The query buffer's part.
     */
    static final int QUERY = 0;

    /**
     * The reply buffer's part.
     */
    static final int REPLY = 1;

    /**
     * The transaction queue's part.
     */
    static final int TRANSACTION = 2;

    final ClientMemory clients;
    final Connection connection;
    final EventLoop loop;
    private final Session session;
    private final BufferMemory query = new Part(QUERY);
    private final BufferMemory reply = new Part(REPLY);
    private final BufferMemory transaction = new Part(TRANSACTION);
    private final long[] partBytes = new long[3];
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
     * @return the account the transaction queue reserves through.
     */
    BufferMemory transaction()
    {
        return transaction;
    }

    /**
     * @return what the buffers hold. Under the {@link ClientMemory}'s lock.
     */
    long bytes()
    {
        return partBytes[QUERY] + partBytes[REPLY] + partBytes[TRANSACTION];
    }

    /**
     * @return what the buffers will hold once one of them is replaced by a buffer of {@code bytes}. Under the
     * {@link ClientMemory}'s lock.
     */
    long bytesAfter(final int part, final long bytes)
    {
        return bytes() - partBytes[part] + bytes;
    }

    /**
     * Adds to one buffer's count and publishes the query and reply buffers'. Under the {@link ClientMemory}'s lock,
     * on the connection's loop.
     */
    void add(final int part, final long bytes)
    {
        partBytes[part] += bytes;
        if (part != TRANSACTION)
        {
            session.bufferMemory(partBytes[QUERY], partBytes[REPLY]);
        }
    }

    private final class Part implements BufferMemory
    {
        private final int part;

        Part(final int part)
        {
            this.part = part;
        }

        @Override
        public boolean tryReserve(final long bytes)
        {
            return clients.tryReserve(ConnectionMemory.this, part, bytes);
        }

        @Override
        public void reserve(final long bytes)
        {
            clients.reserve(ConnectionMemory.this, part, bytes);
        }

        @Override
        public void release(final long bytes)
        {
            clients.release(ConnectionMemory.this, part, bytes);
        }
    }
}
