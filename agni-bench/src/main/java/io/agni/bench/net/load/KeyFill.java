package io.agni.bench.net.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * Writes every key of the key space once before a run that reads, so that its GETs hit from the first request:
 * pipelined SETs in batches over one blocking connection, each batch's replies counted before the next is sent.
 * Also the readiness probe: {@link #ping}.
 *
 * <h2>Threads</h2>
 * Static methods; any thread.
 */
public final class KeyFill
{
    private static final int BATCH = 512;
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    private static final byte[] PING = RequestEncoder.command("PING".getBytes(StandardCharsets.US_ASCII));

    private KeyFill()
    {
    }

    /**
     * SETs keys {@code 0 .. keys-1} to values of {@code valueSize} bytes.
     *
     * @param address   the server.
     * @param keys      the key space.
     * @param valueSize bytes per value.
     * @throws IOException if the connection fails, or a reply is an error (its text in the message).
     */
    public static void fill(final InetSocketAddress address, final long keys, final int valueSize) throws IOException
    {
        final RequestEncoder encoder = new RequestEncoder(valueSize);
        final ByteBuffer out = ByteBuffer.allocateDirect(BATCH * encoder.maxRequestLength());
        final ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
        final ReplyCounter counter = new ReplyCounter();
        try (SocketChannel channel = open(address))
        {
            for (long next = 0; next < keys; )
            {
                final long batchEnd = Math.min(keys, next + BATCH);
                out.clear();
                for (long key = next; key < batchEnd; key++)
                {
                    encoder.encodeSet(out, key);
                }
                out.flip();
                while (out.hasRemaining())
                {
                    channel.write(out);
                }
                awaitReplies(channel, in, counter, batchEnd);
                next = batchEnd;
            }
        }
        if (counter.errors() > 0)
        {
            throw new IOException("filling the key space: " + counter.errors() + " error replies, the first: " +
                counter.firstError());
        }
    }

    /**
     * Sends one {@code PING} and reads one reply.
     *
     * @param address the server.
     * @return true if the reply was {@code +PONG}; false if the connection failed or the reply was anything else.
     */
    public static boolean ping(final InetSocketAddress address)
    {
        try (SocketChannel channel = open(address))
        {
            channel.socket().setSoTimeout(CONNECT_TIMEOUT_MILLIS);
            channel.write(ByteBuffer.wrap(PING));
            final ByteBuffer in = ByteBuffer.allocate(64);
            final ReplyCounter counter = new ReplyCounter();
            while (counter.replies() == 0)
            {
                final int n = channel.socket().getInputStream().read(in.array(), in.position(), in.remaining());
                if (n < 0)
                {
                    return false;
                }
                final ByteBuffer view = ByteBuffer.wrap(in.array(), in.position(), n);
                in.position(in.position() + n);
                if (counter.consume(view) < 0 || !in.hasRemaining())
                {
                    return false;
                }
            }
            return "+PONG\r\n".equals(new String(in.array(), 0, in.position(), StandardCharsets.US_ASCII));
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private static void awaitReplies(
        final SocketChannel channel, final ByteBuffer in, final ReplyCounter counter, final long expected)
        throws IOException
    {
        while (counter.replies() < expected)
        {
            in.clear();
            if (channel.read(in) < 0)
            {
                throw new IOException("the server closed the connection while the key space was being filled");
            }
            in.flip();
            if (counter.consume(in) < 0)
            {
                throw new IOException("the server sent bytes that are not RESP while the key space was being filled");
            }
        }
    }

    private static SocketChannel open(final InetSocketAddress address) throws IOException
    {
        final SocketChannel channel = SocketChannel.open();
        try
        {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.socket().connect(address, CONNECT_TIMEOUT_MILLIS);
            return channel;
        }
        catch (final IOException ex)
        {
            channel.close();
            throw ex;
        }
    }
}
