package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Once warm, serving pipelined commands allocates nothing on the event loop's thread: the select, the read, the
 * decode, the commands, the write. Measured with the JVM's per-thread allocation counter on the loop thread,
 * {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes(long)}, reached through a method handle because the
 * module under test does not read {@code jdk.management} (the tests run on the class path, where it is visible).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("socket")
class AgniServerAllocationTest
{
    private static final int COMMANDS_PER_BATCH = 100;
    private static final int WARM_UP_BATCHES = 300;
    private static final int MEASURED_BATCHES = 200;
    private static final int ROUNDS = 3;

    /**
     * Slack for one-off runtime events (a deoptimisation, a late class initialisation, a timer tick); one
     * allocation per command would cost at least {@code 16 * 100 * 200} = 320,000 bytes per round.
     */
    private static final long ALLOWED_BYTES = 16 * 1024;

    private final AgniStore store = ServerFixture.newStore();
    private AgniServer server;
    private RawRespConnection client;

    @AfterEach
    void close()
    {
        ServerFixture.closeQuietly(client);
        ServerFixture.closeQuietly(server);
        store.close();
    }

    @Test
    void servingPipelinedCommandsAllocatesNothingOnTheEventLoopOnceWarm() throws Throwable
    {
        server = ServerFixture.serverOn(store).eventLoopThreads(1).build().start();
        client = RawRespConnection.connect(server);
        assertEquals("+OK", client.call("SET", "hit", "a value of some length, long enough to need a copy"));
        final MethodHandle allocatedBytes = allocatedBytesCounter();
        final long loopThreadId = server.eventLoopThreads()[0].getId();
        final byte[] batch = batch();
        final int replyBytes = replyBytes();

        runBatches(batch, replyBytes, WARM_UP_BATCHES);
        long allocated = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS && allocated > ALLOWED_BYTES; round++)
        {
            final long before = (long)allocatedBytes.invokeExact(loopThreadId);
            runBatches(batch, replyBytes, MEASURED_BATCHES);
            allocated = Math.min(allocated, (long)allocatedBytes.invokeExact(loopThreadId) - before);
        }

        assertTrue(
            allocated <= ALLOWED_BYTES,
            "the event loop allocated " + allocated + " bytes serving " + MEASURED_BATCHES * COMMANDS_PER_BATCH +
            " commands");
    }

    private static MethodHandle allocatedBytesCounter() throws ReflectiveOperationException
    {
        final Object bean = Class.forName("java.lang.management.ManagementFactory")
            .getMethod("getThreadMXBean")
            .invoke(null);
        final Class<?> beanType = Class.forName("com.sun.management.ThreadMXBean");
        return MethodHandles.publicLookup()
            .findVirtual(beanType, "getThreadAllocatedBytes", MethodType.methodType(long.class, long.class))
            .bindTo(bean);
    }

    private void runBatches(final byte[] batch, final int replyBytes, final int batches) throws IOException
    {
        for (int i = 0; i < batches; i++)
        {
            client.sendRaw(batch);
            client.skipBytes(replyBytes);
        }
        assertEquals("+PONG", client.call("PING"));
    }

    private static byte[] batch()
    {
        final ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int i = 0; i < COMMANDS_PER_BATCH / 4; i++)
        {
            batch.writeBytes(RawRespConnection.encode("GET", "hit"));
            batch.writeBytes(RawRespConnection.encode("SET", "key", "value"));
            batch.writeBytes(RawRespConnection.encode("GET", "missing"));
            batch.writeBytes("PING\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return batch.toByteArray();
    }

    private static int replyBytes()
    {
        final int hit = ("$50\r\n" + "a value of some length, long enough to need a copy" + "\r\n").length();
        final int perFour = hit + "+OK\r\n".length() + "$-1\r\n".length() + "+PONG\r\n".length();
        return perFour * COMMANDS_PER_BATCH / 4;
    }
}
