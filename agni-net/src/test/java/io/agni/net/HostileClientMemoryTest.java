package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.store.OffHeapStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.agni.net.ServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The acceptance test of the server's memory bounds: 100 clients send large values, or pipeline GETs of a large
 * value, and never read a reply; each one the server disconnects comes back. Meanwhile a well-behaved client keeps
 * writing and reading. The server's client memory never passes its limit, the JVM's direct memory grows by no more
 * than the store's budget plus that limit, the well-behaved client is served throughout, and every write it was
 * acknowledged is there afterwards.
 * <p>
 * The server runs one event loop, on which every eviction is synchronous, so the limit holds exactly (with several
 * loops a client chosen on another loop is freed by that loop an iteration later; {@link ClientMemoryTest} covers
 * that hand-over). The hostile clients are driven from one thread through non-blocking channels over shared direct
 * buffers, so the test itself allocates no direct memory while it measures.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("socket")
class HostileClientMemoryTest
{
    private static final int HOSTILE_CLIENTS = 100;
    private static final long MAX_CLIENT_MEMORY = 24L << 20;
    private static final long MAX_QUERY_BUFFER = 8L << 20;
    private static final long MAX_OUTPUT_BUFFER = 4L << 20;
    private static final long STORE_BUDGET = 64L << 20;
    private static final int VALUE_LENGTH = 4 << 20;
    private static final int BIG_VALUE_LENGTH = 1 << 20;
    private static final int HOSTILE_KEYS = 4;
    private static final int GETS_PER_PIPELINE = 1000;
    private static final long DISCONNECTIONS_WANTED = 150;
    private static final int ROUND_TRIPS_WANTED = 50;
    private static final long ATTACK_DEADLINE_MS = 30_000;
    private static final long ROUND_TRIP_LIMIT_MS = 5_000;
    private static final long SLACK = 4L << 20;

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> wellBehavedFailure = new AtomicReference<>();
    private final AtomicInteger roundTrips = new AtomicInteger();
    private final AtomicLong slowestRoundTripNs = new AtomicLong();
    private volatile boolean attacking = true;

    @AfterEach
    void closeEverything()
    {
        attacking = false;
        for (int i = resources.size() - 1; i >= 0; i--)
        {
            ServerFixture.closeQuietly(resources.get(i));
        }
    }

    @Test
    void clientsThatSendLargeValuesAndNeverReadStayWithinTheLimitsWhileOthersAreServed() throws Exception
    {
        final AgniStore store = OffHeapStore.builder().shards(4).maxMemory(STORE_BUDGET).build();
        resources.add(store);
        final AgniServer server = AgniServer.builder(store).port(0).eventLoopThreads(1)
            .maxClientMemory(MAX_CLIENT_MEMORY)
            .maxQueryBuffer(MAX_QUERY_BUFFER)
            .maxOutputBuffer(MAX_OUTPUT_BUFFER)
            .build().start();
        resources.add(server);
        final RawRespConnection wellBehaved = RawRespConnection.connect(server);
        resources.add(wellBehaved);
        assertEquals("+OK", wellBehaved.call("SET", "big", "b".repeat(BIG_VALUE_LENGTH)));
        acknowledged.put("big", "b".repeat(BIG_VALUE_LENGTH));

        final InetSocketAddress address = server.localAddress();
        final ByteBuffer[] sets = new ByteBuffer[HOSTILE_KEYS];
        for (int k = 0; k < HOSTILE_KEYS; k++)
        {
            sets[k] = largeSet("hostile:" + k);
        }
        final ByteBuffer gets = pipelinedGets();
        final BufferPoolMXBean direct = directPool();
        final long directBefore = direct.getMemoryUsed();

        final Thread served = new Thread(() -> serveWellBehaved(wellBehaved), "well-behaved-client");
        served.setDaemon(true);
        served.start();
        long directPeak = directBefore;
        long clientMemoryPeakSeen = 0;
        try (Selector selector = Selector.open())
        {
            final Hostile[] hostile = new Hostile[HOSTILE_CLIENTS];
            for (int i = 0; i < HOSTILE_CLIENTS; i++)
            {
                hostile[i] = new Hostile(i % 2 == 0 ? sets[i / 2 % HOSTILE_KEYS] : gets);
                hostile[i].connect(address, selector);
            }
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTACK_DEADLINE_MS);
            while (disconnections(server) < DISCONNECTIONS_WANTED || roundTrips.get() < ROUND_TRIPS_WANTED)
            {
                if (System.nanoTime() - deadline > 0)
                {
                    fail("the attack did not reach " + DISCONNECTIONS_WANTED + " disconnections and " +
                        ROUND_TRIPS_WANTED + " well-behaved round trips within " + ATTACK_DEADLINE_MS +
                        " ms: disconnections=" + disconnections(server) + ", roundTrips=" + roundTrips.get());
                }
                if (wellBehavedFailure.get() != null)
                {
                    break;
                }
                selector.select(100);
                for (final SelectionKey key : selector.selectedKeys())
                {
                    ((Hostile)key.attachment()).write(address, selector);
                }
                selector.selectedKeys().clear();
                directPeak = Math.max(directPeak, direct.getMemoryUsed());
                clientMemoryPeakSeen = Math.max(clientMemoryPeakSeen, server.stats().clientMemoryBytes());
            }
            attacking = false;
            for (final Hostile client : hostile)
            {
                client.close();
            }
        }
        served.join(TimeUnit.SECONDS.toMillis(RawRespConnection.READ_TIMEOUT_MS / 1000 + 5));

        if (wellBehavedFailure.get() != null)
        {
            throw new AssertionError("the well-behaved client was not served", wellBehavedFailure.get());
        }
        assertTrue(slowestRoundTripNs.get() <= TimeUnit.MILLISECONDS.toNanos(ROUND_TRIP_LIMIT_MS),
            "every round trip of the well-behaved client took less than " + ROUND_TRIP_LIMIT_MS + " ms: slowest=" +
            TimeUnit.NANOSECONDS.toMillis(slowestRoundTripNs.get()) + " ms");
        await("the hostile clients to be released", () -> server.connectedClients() == 1);

        final AgniServerStats stats = server.stats();
        assertTrue(stats.evictedClients() > 0, "clients were evicted for client memory: " + stats);
        assertTrue(stats.peakClientMemoryBytes() <= MAX_CLIENT_MEMORY,
            "the clients' buffers never held more than maxClientMemory: peak=" + stats.peakClientMemoryBytes());
        assertTrue(clientMemoryPeakSeen <= MAX_CLIENT_MEMORY, "seen=" + clientMemoryPeakSeen);
        assertTrue(directPeak - directBefore <= STORE_BUDGET + MAX_CLIENT_MEMORY + SLACK,
            "direct memory grew by at most the store's budget and the clients' limit: grew by " +
            (directPeak - directBefore));
        assertTrue(stats.clientMemoryBytes() <= 2 * (ReplyBuffer.INITIAL_CAPACITY + QueryBuffer.INITIAL_CAPACITY),
            "the buffers of the clients that left are freed: " + stats.clientMemoryBytes());

        try (RawRespConnection checker = RawRespConnection.connect(server))
        {
            assertEquals("+PONG", wellBehaved.call("PING"), "the well-behaved client's connection survived");
            for (final Map.Entry<String, String> write : acknowledged.entrySet())
            {
                assertEquals(write.getValue(), checker.call("GET", write.getKey()), write.getKey());
            }
        }
        assertTrue(acknowledged.size() > ROUND_TRIPS_WANTED, "writes acknowledged: " + acknowledged.size());
    }

    /**
     * SET and GET small values until the attack ends, recording each acknowledged write and the slowest round trip.
     */
    private void serveWellBehaved(final RawRespConnection client)
    {
        try
        {
            for (int n = 0; attacking; n++)
            {
                final String key = "ok:" + n;
                final String value = "value:" + n + ":" + "v".repeat(n % 200);
                final long start = System.nanoTime();
                final Object reply = client.call("SET", key, value);
                final Object read = client.call("GET", key);
                slowestRoundTripNs.accumulateAndGet(System.nanoTime() - start, Math::max);
                assertEquals("+OK", reply, key);
                acknowledged.put(key, value);
                assertEquals(value, read, key);
                roundTrips.incrementAndGet();
            }
        }
        catch (final Throwable ex)
        {
            wellBehavedFailure.set(ex);
        }
    }

    private static long disconnections(final AgniServer server)
    {
        final AgniServerStats stats = server.stats();
        return stats.evictedClients() + stats.outputBufferLimitDisconnections() +
            stats.queryBufferLimitDisconnections();
    }

    /**
     * One SET of a {@value #VALUE_LENGTH}-byte value, encoded once in a direct buffer that every hostile writer of
     * the key sends from its own view.
     */
    private static ByteBuffer largeSet(final String key)
    {
        final byte[] header = ("*3\r\n$3\r\nSET\r\n$" + key.length() + "\r\n" + key + "\r\n$" + VALUE_LENGTH + "\r\n")
            .getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer command = ByteBuffer.allocateDirect(header.length + VALUE_LENGTH + 2);
        command.put(header);
        while (command.remaining() > 2)
        {
            command.put((byte)'h');
        }
        command.put((byte)'\r').put((byte)'\n').flip();
        return command;
    }

    private static ByteBuffer pipelinedGets()
    {
        final byte[] get = "GET big\r\n".getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer pipeline = ByteBuffer.allocateDirect(get.length * GETS_PER_PIPELINE);
        for (int i = 0; i < GETS_PER_PIPELINE; i++)
        {
            pipeline.put(get);
        }
        return pipeline.flip();
    }

    private static BufferPoolMXBean directPool()
    {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> "direct".equals(pool.getName()))
            .findFirst()
            .orElseThrow();
    }

    /**
     * One hostile client: sends its commands over and over and never reads; reconnects when the server closes it.
     */
    private final class Hostile
    {
        private final ByteBuffer commands;
        private SocketChannel channel;

        Hostile(final ByteBuffer commands)
        {
            this.commands = commands.duplicate();
        }

        void connect(final InetSocketAddress address, final Selector selector) throws IOException
        {
            channel = SocketChannel.open(address);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_WRITE, this);
            commands.rewind();
        }

        void write(final InetSocketAddress address, final Selector selector) throws IOException
        {
            try
            {
                while (channel.write(commands) > 0)
                {
                    if (!commands.hasRemaining())
                    {
                        commands.rewind();
                    }
                }
            }
            catch (final IOException ex)
            {
                // The server disconnected this client: come back, as a hostile client would, while the attack lasts.
                close();
                if (attacking)
                {
                    connect(address, selector);
                }
            }
        }

        void close() throws IOException
        {
            channel.close();
        }
    }
}
