package io.agni.net;

import io.agni.api.AgniStore;
import org.agrona.concurrent.EpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.agni.net.ServerFixture.AWAIT_MS;
import static io.agni.net.ServerFixture.await;
import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One event loop shared by a client with megabytes of pipelined commands already read and a client with one
 * request: the request is answered after at most one bounded turn of the other's commands, and every one of those
 * commands still runs exactly once, in order.
 * <p>
 * To know what the loop has in hand, the test stops the loop inside a turn (the server's clock blocks while the
 * gate is closed), lets both clients write, then opens the gate: the loop's next select reports both, and the
 * single request is answered in that iteration whatever order they are served in.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("socket")
class EventLoopFairnessTest
{
    private static final int PIPELINED_INCRS = 200_000;
    /**
     * A value that grows the pipeliner's query buffer to just under 64 KiB, the most a buffer keeps between commands
     * (a larger one returns to 16 KiB once the command is done): one read can then take 2,400 INCRs, more than one
     * turn's {@link Connection#MAX_COMMANDS_PER_TURN}.
     */
    private static final int BIG_VALUE_LENGTH = QueryBuffer.RETAINED_CAPACITY - 512;
    private static final int WRITE_CHUNK = 256 * 1024;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final GatedClock clock = new GatedClock();
    private AgniStore store;

    @BeforeEach
    void openStore()
    {
        store = newStore();
    }

    @AfterEach
    void closeEverything()
    {
        clock.open();
        for (int i = resources.size() - 1; i >= 0; i--)
        {
            closeQuietly(resources.get(i));
        }
        store.close();
    }

    @Test
    void aClientIsAnsweredWithinOneBoundedTurnOfAnotherClientsHugePipelineOnTheSameLoop() throws Exception
    {
        final AgniServer server = start(serverOn(store).eventLoopThreads(1).clock(clock));
        final RawRespConnection pipeliner = connect(server);
        final RawRespConnection other = connect(server);
        final RawRespConnection gateKeeper = connect(server);
        assertEquals("+PONG", other.call("PING"));
        assertEquals("+PONG", gateKeeper.call("PING"));
        // A large bulk grows the pipeliner's query buffer, so one read can then take more than a turn's commands.
        final char[] big = new char[BIG_VALUE_LENGTH];
        Arrays.fill(big, 'v');
        assertEquals("+OK", pipeliner.call("SET", "big", new String(big)));

        // A thread each: the reader blocks until the writer has written, so the two must not queue on one pool
        // thread (the common pool has one worker on 2 CPUs, and CompletableFuture uses it on recent JDKs).
        final ExecutorService threads = Executors.newFixedThreadPool(2);
        resources.add(threads::shutdownNow);
        final CompletableFuture<Void> replies =
            CompletableFuture.runAsync(() -> readCountingReplies(pipeliner), threads);
        clock.close();
        gateKeeper.send("PING");
        await("the event loop to stop in the gated clock", clock::hasWaiter);
        final AtomicLong written = new AtomicLong();
        final CompletableFuture<Void> writes = CompletableFuture.runAsync(
            () -> writeInChunks(pipeliner, incrPipeline(), written), threads);
        await("the pipeliner's first chunk to be written", () -> written.get() >= WRITE_CHUNK);
        other.sendRaw(concat(RawRespConnection.encode("PING"), RawRespConnection.encode("GET", "counter")));
        clock.open();

        assertEquals("+PONG", other.read());
        final Object counterSeen = other.read();
        final long executedBeforeOther = counterSeen == null ? 0 : Long.parseLong((String)counterSeen);
        assertTrue(executedBeforeOther <= Connection.MAX_COMMANDS_PER_TURN,
            "the other client waited for " + executedBeforeOther + " of the pipeliner's commands, more than " +
            "one turn's " + Connection.MAX_COMMANDS_PER_TURN);
        assertEquals("+PONG", gateKeeper.read());

        writes.get(AWAIT_MS, TimeUnit.MILLISECONDS);
        replies.get(AWAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals(String.valueOf(PIPELINED_INCRS), other.call("GET", "counter"));
    }

    private AgniServer start(final AgniServerBuilder builder)
    {
        final AgniServer server = builder.build().start();
        resources.add(server);
        return server;
    }

    private RawRespConnection connect(final AgniServer server) throws IOException
    {
        final RawRespConnection connection = RawRespConnection.connect(server);
        resources.add(connection);
        return connection;
    }

    private static byte[] incrPipeline()
    {
        final byte[] incr = RawRespConnection.encode("INCR", "counter");
        final byte[] pipeline = new byte[incr.length * PIPELINED_INCRS];
        for (int i = 0; i < PIPELINED_INCRS; i++)
        {
            System.arraycopy(incr, 0, pipeline, i * incr.length, incr.length);
        }
        return pipeline;
    }

    private static byte[] concat(final byte[] first, final byte[] second)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(first);
        bytes.writeBytes(second);
        return bytes.toByteArray();
    }

    private static void writeInChunks(final RawRespConnection connection, final byte[] bytes, final AtomicLong written)
    {
        try
        {
            for (int offset = 0; offset < bytes.length; offset += WRITE_CHUNK)
            {
                final int length = Math.min(WRITE_CHUNK, bytes.length - offset);
                connection.sendRaw(Arrays.copyOfRange(bytes, offset, offset + length));
                written.addAndGet(length);
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("writing the pipeline failed after " + written.get() + " bytes", ex);
        }
    }

    /**
     * Checks that the replies to the pipelined INCRs are 1, 2, ... in order: each command ran once, in order.
     */
    private static void readCountingReplies(final RawRespConnection connection)
    {
        for (int i = 1; i <= PIPELINED_INCRS; i++)
        {
            final Object reply;
            try
            {
                reply = connection.read();
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("reading reply " + i + " failed", ex);
            }
            if (!(":" + i).equals(reply))
            {
                throw new IllegalStateException("reply " + i + " was " + reply);
            }
        }
    }

    /**
     * The system clock, except that while the gate is closed a call blocks until it opens: the event loop reads
     * the server's clock once per turn, so closing the gate and sending a request holds the loop still.
     */
    private static final class GatedClock implements EpochClock
    {
        private volatile CountDownLatch gate = new CountDownLatch(0);
        private volatile boolean waiter;

        void close()
        {
            gate = new CountDownLatch(1);
        }

        void open()
        {
            gate.countDown();
        }

        boolean hasWaiter()
        {
            return waiter;
        }

        @Override
        public long time()
        {
            final CountDownLatch current = gate;
            if (current.getCount() > 0)
            {
                waiter = true;
                try
                {
                    if (!current.await(AWAIT_MS, TimeUnit.MILLISECONDS))
                    {
                        throw new IllegalStateException("the test never opened the gate");
                    }
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
            return System.currentTimeMillis();
        }
    }
}
