package io.agni.net;

import io.agni.protocol.BufferMemory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The query buffer's bookkeeping when a connection stops at its turn's bound: skipping what ran without moving the
 * rest, and a later read, consume or growth that brings what is left back to offset 0 intact. Bytes arrive through
 * a real loopback socket, since the buffer reads only from a channel.
 */
@Tag("socket")
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class QueryBufferTest
{
    private ServerSocketChannel server;
    private SocketChannel writer;
    private SocketChannel reader;

    @BeforeEach
    void connect() throws IOException
    {
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        writer = SocketChannel.open(server.getLocalAddress());
        reader = server.accept();
        reader.configureBlocking(false);
    }

    @AfterEach
    void close() throws IOException
    {
        reader.close();
        writer.close();
        server.close();
    }

    @Test
    void skipMovesTheStartAndKeepsTheRestWhereItIs() throws IOException
    {
        final QueryBuffer in = new QueryBuffer(1 << 20, BufferMemory.UNCOUNTED);
        readAll(in, "PING1PING2PING3");

        in.skip(5);

        assertEquals(5, in.start());
        assertEquals(10, in.length());
        assertEquals("PING2PING3", text(in));
        in.skip(10);
        assertEquals(0, in.start(), "all skipped: empty, back at offset 0");
        assertEquals(0, in.length());
    }

    @Test
    void consumeAfterASkipBringsWhatIsLeftToOffsetZero() throws IOException
    {
        final QueryBuffer in = new QueryBuffer(1 << 20, BufferMemory.UNCOUNTED);
        readAll(in, "aaaabbbbcccc");
        in.skip(4);

        in.consume(4);

        assertEquals(0, in.start());
        assertEquals("cccc", text(in));
    }

    @Test
    void aReadAfterASkipAppendsBehindWhatIsLeft() throws IOException
    {
        final QueryBuffer in = new QueryBuffer(1 << 20, BufferMemory.UNCOUNTED);
        readAll(in, "done|left");
        in.skip(5);

        readAll(in, "|new");

        assertEquals(0, in.start());
        assertEquals("left|new", text(in));
    }

    @Test
    void growingAfterASkipKeepsTheUnconsumedBytes() throws IOException
    {
        final QueryBuffer in = new QueryBuffer(1 << 20, BufferMemory.UNCOUNTED);
        final String fill = "x".repeat(QueryBuffer.INITIAL_CAPACITY - 3) + "end";
        readAll(in, fill);
        assertTrue(in.isFull());
        in.skip(QueryBuffer.INITIAL_CAPACITY - 10);

        assertEquals(QueryBuffer.GROWN, in.grow(0));

        assertEquals(0, in.start());
        assertEquals("xxxxxxxend", text(in));
        assertTrue(in.capacity() > QueryBuffer.INITIAL_CAPACITY);
        in.free();
    }

    @Test
    void aGrowthTheAccountRefusesAllocatesNothing() throws IOException
    {
        final CountingMemory memory = new CountingMemory();
        final QueryBuffer in = new QueryBuffer(1 << 20, memory);
        readAll(in, "y".repeat(QueryBuffer.INITIAL_CAPACITY));
        memory.refuse = true;

        assertEquals(QueryBuffer.REFUSED, in.grow(1000));

        assertEquals(QueryBuffer.INITIAL_CAPACITY, in.capacity());
        assertEquals(QueryBuffer.INITIAL_CAPACITY, memory.held);
        assertEquals("y".repeat(QueryBuffer.INITIAL_CAPACITY), text(in));
        in.free();
        assertEquals(0, memory.held);
    }

    @Test
    void aGrowthIsReservedWithTheOldBufferAndAShrinkFreesFirst() throws IOException
    {
        final CountingMemory memory = new CountingMemory();
        final QueryBuffer in = new QueryBuffer(1 << 20, memory);
        for (int i = 0; i < 4; i++)
        {
            readAll(in, "z".repeat(in.capacity() - in.length()));
            assertEquals(QueryBuffer.GROWN, in.grow(0));
        }
        final int grown = in.capacity();
        assertEquals(16 * QueryBuffer.INITIAL_CAPACITY, grown);
        assertEquals(grown, memory.held);
        assertEquals(grown + grown / 2, memory.peak, "the last growth held the old buffer and the new one");
        in.consume(in.length());

        in.shrinkIfLarge();

        assertEquals(QueryBuffer.INITIAL_CAPACITY, in.capacity());
        assertEquals(QueryBuffer.INITIAL_CAPACITY, memory.held);
        assertEquals(grown + grown / 2, memory.peak, "the shrink never held both buffers");
        in.free();
        assertEquals(0, memory.held);
    }

    @Test
    void aBufferThatGrewOnlyALittleIsKeptAfterACommandAndHoldingAPartialOneIsKeptToo() throws IOException
    {
        final QueryBuffer in = new QueryBuffer(1 << 20, BufferMemory.UNCOUNTED);
        readAll(in, "a".repeat(QueryBuffer.INITIAL_CAPACITY));
        in.grow(0);
        in.consume(in.length());

        in.shrinkIfLarge();

        assertEquals(2 * QueryBuffer.INITIAL_CAPACITY, in.capacity(), "up to 64 KiB is kept between commands");
        readAll(in, "b".repeat(in.capacity()));
        in.grow(0);
        readAll(in, "c".repeat(in.capacity() - in.length()));
        in.grow(0);
        in.consume(in.length() - 10);
        in.shrinkIfLarge();
        assertEquals(8 * QueryBuffer.INITIAL_CAPACITY, in.capacity(), "a partial command keeps its buffer");
        in.free();
    }

    private void readAll(final QueryBuffer in, final String text) throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
        while (bytes.hasRemaining())
        {
            writer.write(bytes);
        }
        final int want = in.length() + text.length();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (in.length() < want)
        {
            assertTrue(System.nanoTime() < deadline, "the bytes did not arrive within 10 s");
            if (in.readFrom(reader) == 0)
            {
                Thread.onSpinWait();
            }
        }
    }

    private static String text(final QueryBuffer in)
    {
        final byte[] bytes = new byte[in.length()];
        in.buffer().getBytes(in.start(), bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static final class CountingMemory implements BufferMemory
    {
        long held;
        long peak;
        boolean refuse;

        @Override
        public boolean tryReserve(final long bytes)
        {
            if (refuse)
            {
                return false;
            }
            reserve(bytes);
            return true;
        }

        @Override
        public void reserve(final long bytes)
        {
            held += bytes;
            peak = Math.max(peak, held);
        }

        @Override
        public void release(final long bytes)
        {
            held -= bytes;
        }
    }
}
