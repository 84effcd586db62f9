package io.agni.net;

import io.agni.protocol.RespWriter;
import org.agrona.BufferUtil;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One connection's output: the replies encoded by the command layer into a {@link RespWriter}, and how many of
 * them the socket has taken so far. {@code [sent, writer.position())} is what waits to be sent.
 *
 * <h2>Memory</h2>
 * The writer starts at {@link #INITIAL_CAPACITY} and grows with the replies; a connection's output limit bounds
 * what waits, and a writer that grew past {@link #SHRINK_THRESHOLD} is replaced by a small one once drained (and
 * its memory freed at once), so one large reply does not pin its buffer for the life of the connection.
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
     * A drained reply buffer larger than this is given back.
     */
    static final int SHRINK_THRESHOLD = 1024 * 1024;

    private RespWriter writer = new RespWriter(INITIAL_CAPACITY);
    private int sent;

    /**
     * @return the writer replies are encoded into: valid until the next {@link #shrink()}.
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
        return writer.buffer().capacity();
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

    void shrink()
    {
        if (writer.position() == 0 && capacity() > SHRINK_THRESHOLD)
        {
            final RespWriter old = writer;
            writer = new RespWriter(INITIAL_CAPACITY);
            BufferUtil.free(old.buffer().byteBuffer());
        }
    }

    void free()
    {
        BufferUtil.free(writer.buffer().byteBuffer());
    }
}
