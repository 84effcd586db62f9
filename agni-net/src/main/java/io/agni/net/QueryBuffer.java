package io.agni.net;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One connection's input: the bytes read and not yet consumed by the decoder, always from offset 0, in a direct
 * buffer that the socket reads into without a copy.
 *
 * <h2>Memory</h2>
 * The buffer starts at {@link #INITIAL_CAPACITY} (Redis's {@code PROTO_IOBUF_LEN}) and grows only when it is full
 * of one partial command, to at most twice its size, or to exactly what the decoder says the command still lacks
 * if that is less: what is reserved is never more than twice what the client has actually sent, whatever length
 * it declared. It never grows past the connection's query limit, and shrinks back once it is empty and idle.
 * Replaced buffers are freed at once rather than left to the garbage collector.
 * <p>
 * Not thread-safe: used only by the event loop that owns the connection.
 */
final class QueryBuffer
{
    /**
     * The capacity a connection starts with, 16 KiB, as Redis's read size.
     */
    static final int INITIAL_CAPACITY = 16 * 1024;

    private final int initialCapacity;
    private final int limit;
    private final UnsafeBuffer view = new UnsafeBuffer();
    private ByteBuffer byteBuffer;
    private int length;

    QueryBuffer(final int limit)
    {
        this.limit = limit;
        this.initialCapacity = Math.min(INITIAL_CAPACITY, limit);
        allocate(initialCapacity);
    }

    DirectBuffer buffer()
    {
        return view;
    }

    int length()
    {
        return length;
    }

    int capacity()
    {
        return byteBuffer.capacity();
    }

    boolean isFull()
    {
        return length == byteBuffer.capacity();
    }

    /**
     * One read from the channel into the free space after the unconsumed bytes.
     *
     * @return the bytes read, 0 if none were ready, -1 at the end of the stream.
     */
    int readFrom(final SocketChannel channel) throws IOException
    {
        final ByteBuffer byteBuffer = this.byteBuffer;
        byteBuffer.limit(byteBuffer.capacity()).position(length);
        final int read = channel.read(byteBuffer);
        if (read > 0)
        {
            length += read;
        }
        return read;
    }

    /**
     * Drops the first {@code count} bytes and moves the rest to offset 0.
     */
    void consume(final int count)
    {
        final int remaining = length - count;
        if (remaining > 0 && count > 0)
        {
            view.putBytes(0, view, count, remaining);
        }
        length = remaining;
    }

    void clear()
    {
        length = 0;
    }

    /**
     * Makes room for more of a partial command that fills the buffer.
     *
     * @param pendingBytesHint the bytes the decoder knows the command still lacks, 0 if it does not know.
     * @return false if the buffer is already at the limit.
     */
    boolean grow(final long pendingBytesHint)
    {
        final int capacity = byteBuffer.capacity();
        if (capacity >= limit)
        {
            return false;
        }
        final long doubled = 2L * capacity;
        final long wanted = pendingBytesHint > 0 ? Math.min(doubled, length + pendingBytesHint) : doubled;
        reallocate((int)Math.min(limit, Math.max(wanted, capacity + 1L)));
        return true;
    }

    /**
     * Returns to the initial capacity if the buffer grew and what it holds fits there.
     */
    void shrink()
    {
        if (byteBuffer.capacity() > initialCapacity && length <= initialCapacity)
        {
            reallocate(initialCapacity);
        }
    }

    void free()
    {
        if (byteBuffer != null)
        {
            view.wrap(BufferUtil.NULL_BYTES);
            BufferUtil.free(byteBuffer);
            byteBuffer = null;
            length = 0;
        }
    }

    private void reallocate(final int capacity)
    {
        final ByteBuffer old = byteBuffer;
        allocate(capacity);
        if (length > 0)
        {
            view.putBytes(0, old, 0, length);
        }
        BufferUtil.free(old);
    }

    private void allocate(final int capacity)
    {
        byteBuffer = ByteBuffer.allocateDirect(capacity);
        view.wrap(byteBuffer);
    }
}
