package io.agni.bench.net.load;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.SplittableRandom;

/**
 * One client connection of a run and its place in the request stream: the bytes waiting to be written, the
 * reply counter, and the send (or intended send) time of every request in flight, oldest first. RESP answers in
 * order, so the n-th reply answers the n-th request and a ring of times is all the matching needed.
 *
 * <h2>Buffers</h2>
 * Both buffers are direct, so the socket reads and writes them without the JDK's copy through a temporary direct
 * buffer. {@code out} is always in fill mode (position = bytes waiting); it holds at least {@code pipeline}
 * requests, the most that can ever wait, because a request is only encoded while fewer than {@code pipeline} are in
 * flight.
 *
 * <h2>Threads</h2>
 * Only the worker thread that owns the connection touches it, after the run's main thread hands it over.
 */
final class LoadConnection
{
    private static final int READ_BUFFER_BYTES = 64 * 1024;

    final SocketChannel channel;
    final ReplyCounter counter = new ReplyCounter();
    final SplittableRandom random;
    final OpenLoopSchedule schedule;
    final long quota;
    long measuredSent;
    long sent;
    long received;
    SelectionKey key;

    private final ByteBuffer out;
    private final ByteBuffer in = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    private final long[] sentAt;
    private final int mask;
    private boolean writePending;

    LoadConnection(
        final SocketChannel channel,
        final int pipeline,
        final int maxRequestLength,
        final long seed,
        final OpenLoopSchedule schedule,
        final long quota)
    {
        this.channel = channel;
        this.random = new SplittableRandom(seed);
        this.schedule = schedule;
        this.quota = quota;
        this.out = ByteBuffer.allocateDirect(Math.max(4096, pipeline * maxRequestLength));
        final int ring = Integer.highestOneBit(Math.max(1, pipeline - 1)) << 1;
        this.sentAt = new long[ring];
        this.mask = ring - 1;
    }

    int inFlight()
    {
        return (int)(sent - received);
    }

    /**
     * Encodes the next request of the workload and remembers its time.
     */
    void encodeNext(final RequestEncoder encoder, final Workload workload, final long keys, final long time)
    {
        final long index = random.nextLong(keys);
        final int getPercent = workload.getPercent();
        if (getPercent == 100 || (getPercent > 0 && random.nextInt(100) < getPercent))
        {
            encoder.encodeGet(out, index, workload.miss());
        }
        else
        {
            encoder.encodeSet(out, index);
        }
        sentAt[(int)(sent++ & mask)] = time;
    }

    /**
     * @return the time of the oldest request in flight, and forgets it.
     */
    long takeOldest()
    {
        return sentAt[(int)(received++ & mask)];
    }

    /**
     * Writes what is waiting, as far as the socket takes it, and asks for a write event if something is left.
     */
    void flush() throws IOException
    {
        if (out.position() == 0)
        {
            return;
        }
        out.flip();
        channel.write(out);
        final boolean left = out.hasRemaining();
        out.compact();
        if (left != writePending)
        {
            writePending = left;
            key.interestOps(left ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }
    }

    /**
     * Reads what the socket has and counts the replies in it.
     *
     * @return replies completed, 0 if none, or {@link ReplyCounter#PROTOCOL_ERROR}.
     * @throws IOException if the read fails or the server closed the connection.
     */
    int read() throws IOException
    {
        final int n = channel.read(in);
        if (n < 0)
        {
            throw new IOException("the server closed a connection: " + inFlight() + " requests unanswered");
        }
        if (n == 0)
        {
            return 0;
        }
        in.flip();
        final int replies = counter.consume(in);
        in.clear();
        return replies;
    }
}
