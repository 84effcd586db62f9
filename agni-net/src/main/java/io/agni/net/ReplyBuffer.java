package io.agni.net;

import io.agni.protocol.BufferMemory;
import io.agni.protocol.RespWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One connection's output: the replies encoded by the command layer into a {@link RespWriter}, and how many of
 * them the socket has taken so far. {@code [sent, writer.position())} is what waits to be sent.
 *
 * <h2>Memory</h2>
 * The writer starts at {@link #INITIAL_CAPACITY} and grows with the replies, never past the connection's output
 * limit: a reply that would take it further is refused while it is being written, before the buffer grows (the
 * connection then disconnects the client). Every allocation is reserved in the connection's {@link BufferMemory}
 * first, and a replaced buffer is freed at once. Once drained, a buffer that grew past {@link #RETAINED_CAPACITY}
 * returns to the initial size ({@link #shrinkIfLarge()}), and any grown buffer does once the connection is idle
 * ({@link #shrink()}), so one large reply does not pin its memory for the life of the connection.
 * <p>
 * Nothing is appended while bytes already sent are still in front of what waits: a partial write is followed by
 * {@link #compact()} or by waiting for the socket to drain. So what waits never exceeds the buffer's capacity, and the
 * capacity limit is the output limit.
 * <p>
 * Not thread-safe: used only by the event loop that owns the connection.
 */
final class ReplyBuffer
{
    /**
     * The capacity a connection's reply buffer starts with, 16 KiB, as Redis's static reply buffer.
     */
    static final int INITIAL_CAPACITY = 16 * 1024;

    /**
     * A drained reply buffer larger than this returns to {@link #INITIAL_CAPACITY} at once; one between the two
     * does when the connection is idle. Replies up to this size do not cost an allocation each.
     */
    static final int RETAINED_CAPACITY = 64 * 1024;

    private final int initialCapacity;
    private final RespWriter writer;
    private int sent;

    /**
     * @param limit  the most bytes of replies that may wait: the buffer's largest capacity.
     * @param memory the account its allocations are reserved in.
     */
    ReplyBuffer(final int limit, final BufferMemory memory)
    {
        initialCapacity = Math.min(INITIAL_CAPACITY, limit);
        writer = new RespWriter(initialCapacity, limit, memory);
    }

    /**
     * @return the writer replies are encoded into.
     */
    RespWriter writer()
    {
        return writer;
    }

    /**
     * @return the bytes encoded and not yet sent.
     */
    int pending()
    {
        return writer.position() - sent;
    }

    int capacity()
    {
        return writer.capacity();
    }

    /**
     * One write of what waits.
     *
     * @return the bytes the socket took.
     */
    int writeTo(final SocketChannel channel) throws IOException
    {
        final int end = writer.position();
        if (sent == end)
        {
            return 0;
        }
        final ByteBuffer byteBuffer = writer.buffer().byteBuffer();
        byteBuffer.limit(end).position(sent);
        final int written = channel.write(byteBuffer);
        sent += written;
        if (sent == end)
        {
            writer.reset();
            sent = 0;
        }
        return written;
    }

    /**
     * Moves what waits to the start of the buffer, so that more replies do not grow it past what waits.
     */
    void compact()
    {
        if (sent > 0)
        {
            writer.compact(sent);
            sent = 0;
        }
    }

    /**
     * Returns a drained buffer that grew past {@link #RETAINED_CAPACITY} to the initial capacity.
     */
    void shrinkIfLarge()
    {
        if (writer.position() == 0 && writer.capacity() > RETAINED_CAPACITY)
        {
            writer.shrink(initialCapacity);
        }
    }

    /**
     * Returns a drained buffer that grew at all to the initial capacity.
     */
    void shrink()
    {
        if (writer.position() == 0)
        {
            writer.shrink(initialCapacity);
        }
    }

    void free()
    {
        writer.free();
    }
}
