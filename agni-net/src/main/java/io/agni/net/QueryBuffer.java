package io.agni.net;

import io.agni.protocol.BufferMemory;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One connection's input: the bytes read and not yet consumed by the decoder, in a direct buffer that the socket
 * reads into without a copy. They start at offset 0, except while a connection that reached its turn's bound
 * ({@link Connection#MAX_COMMANDS_PER_TURN}) has complete commands left: {@link #skip} then moves the start past
 * what was executed without moving the rest, so working through a large backlog in bounded turns copies nothing;
 * the next {@link #consume} or read moves what is left back to offset 0.
 *
 * <h2>Memory</h2>
 * The buffer starts at {@link #INITIAL_CAPACITY} (Redis's {@code PROTO_IOBUF_LEN}) and grows only when it is full
 * of one partial command, to at most twice its size, or to exactly what the decoder says the command still lacks
 * if that is less: what is reserved is never more than twice what the client has actually sent, whatever length
 * it declared. It never grows past the connection's query limit, and shrinks back ({@link #shrink()}) once empty
 * after the command that needed it, or once idle. Every allocation is reserved in the connection's {@link BufferMemory}
 * first (a growth may be refused: the server's client memory is full), and replaced buffers are freed at once
 * rather than left to the garbage collector.
 * <p>
 * Not thread-safe: used only by the event loop that owns the connection.
 */
final class QueryBuffer
{
    /**
     * The capacity a connection starts with, 16 KiB, as Redis's read size.
     */
    static final int INITIAL_CAPACITY = 16 * 1024;

    /**
     * A buffer larger than this returns to {@link #INITIAL_CAPACITY} as soon as a turn leaves it empty; one between
     * the two does when the connection is idle. Commands up to this size do not cost an allocation each.
     */
    static final int RETAINED_CAPACITY = 64 * 1024;

    /**
     * What {@link #grow} returns when the buffer grew.
     */
    static final int GROWN = 0;

    /**
     * What {@link #grow} returns when the buffer is already at the connection's query limit.
     */
    static final int AT_LIMIT = 1;

    /**
     * What {@link #grow} returns when the {@link BufferMemory} refused the growth.
     */
    static final int REFUSED = 2;

    private final int initialCapacity;
    private final int limit;
    private final BufferMemory memory;
    private final UnsafeBuffer view = new UnsafeBuffer();
    private ByteBuffer byteBuffer;
    private int start;
    private int end;

    QueryBuffer(final int limit, final BufferMemory memory)
    {
        this.limit = limit;
        this.memory = memory;
        this.initialCapacity = Math.min(INITIAL_CAPACITY, limit);
        reserveAndAllocate(initialCapacity);
    }

    DirectBuffer buffer()
    {
        return view;
    }

    /**
     * @return where the unconsumed bytes start: 0 unless {@link #skip} moved it.
     */
    int start()
    {
        return start;
    }

    /**
     * @return the number of unconsumed bytes, from {@link #start()}.
     */
    int length()
    {
        return end - start;
    }

    int capacity()
    {
        return byteBuffer.capacity();
    }

    boolean isFull()
    {
        return end - start == byteBuffer.capacity();
    }

    /**
     * One read from the channel into the free space after the unconsumed bytes, moved to offset 0 first if
     * {@link #skip} left them further on.
     *
     * @return the bytes read, 0 if none were ready, -1 at the end of the stream.
     */
    int readFrom(final SocketChannel channel) throws IOException
    {
        if (start > 0)
        {
            consume(0);
        }
        final ByteBuffer byteBuffer = this.byteBuffer;
        byteBuffer.limit(byteBuffer.capacity()).position(end);
        final int read = channel.read(byteBuffer);
        if (read > 0)
        {
            end += read;
        }
        return read;
    }

    /**
     * Drops the first {@code count} unconsumed bytes and moves the rest to offset 0.
     */
    void consume(final int count)
    {
        final int from = start + count;
        final int remaining = end - from;
        if (remaining > 0 && from > 0)
        {
            view.putBytes(0, view, from, remaining);
        }
        start = 0;
        end = remaining;
    }

    /**
     * Drops the first {@code count} unconsumed bytes without moving the rest: {@link #start()} moves on.
     */
    void skip(final int count)
    {
        start += count;
        if (start == end)
        {
            start = 0;
            end = 0;
        }
    }

    void clear()
    {
        start = 0;
        end = 0;
    }

    /**
     * Makes room for more of a partial command that fills the buffer.
     *
     * @param pendingBytesHint the bytes the decoder knows the command still lacks, 0 if it does not know.
     * @return {@link #GROWN}, {@link #AT_LIMIT} if the buffer is already at the limit, or {@link #REFUSED} if the
     * memory account refused; in the last two cases nothing was allocated.
     */
    int grow(final long pendingBytesHint)
    {
        final int capacity = byteBuffer.capacity();
        if (capacity >= limit)
        {
            return AT_LIMIT;
        }
        final long doubled = 2L * capacity;
        final long wanted = pendingBytesHint > 0 ? Math.min(doubled, length() + pendingBytesHint) : doubled;
        final int newCapacity = (int)Math.min(limit, Math.max(wanted, capacity + 1L));
        if (!memory.tryReserve(newCapacity))
        {
            return REFUSED;
        }
        reallocate(newCapacity);
        return GROWN;
    }

    /**
     * Returns to the initial capacity after a large command: if the buffer grew past {@link #RETAINED_CAPACITY} and
     * is empty.
     */
    void shrinkIfLarge()
    {
        if (byteBuffer.capacity() > RETAINED_CAPACITY)
        {
            shrink();
        }
    }

    /**
     * Returns to the initial capacity if the buffer grew and is empty (a partial command waits for the next turn
     * that ends with none).
     */
    void shrink()
    {
        if (byteBuffer.capacity() > initialCapacity && length() == 0)
        {
            // Nothing to keep: free first, so that the account never holds both buffers for a shrink.
            free();
            reserveAndAllocate(initialCapacity);
        }
    }

    private void reserveAndAllocate(final int capacity)
    {
        memory.reserve(capacity);
        try
        {
            allocate(capacity);
        }
        catch (final OutOfMemoryError ex)
        {
            memory.release(capacity);
            throw ex;
        }
    }

    void free()
    {
        if (byteBuffer != null)
        {
            final int capacity = byteBuffer.capacity();
            view.wrap(BufferUtil.NULL_BYTES);
            BufferUtil.free(byteBuffer);
            byteBuffer = null;
            start = 0;
            end = 0;
            memory.release(capacity);
        }
    }

    /**
     * Moves to a buffer of {@code capacity} bytes, already reserved, and gives the old one back.
     */
    private void reallocate(final int capacity)
    {
        final ByteBuffer old = byteBuffer;
        final int length = length();
        try
        {
            allocate(capacity);
        }
        catch (final OutOfMemoryError ex)
        {
            memory.release(capacity);
            throw ex;
        }
        if (length > 0)
        {
            view.putBytes(0, old, start, length);
        }
        start = 0;
        end = length;
        BufferUtil.free(old);
        memory.release(old.capacity());
    }

    private void allocate(final int capacity)
    {
        byteBuffer = ByteBuffer.allocateDirect(capacity);
        view.wrap(byteBuffer);
    }
}
