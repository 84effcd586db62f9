package io.agni.net;

import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The zero-copy forms of AgniClient allocate nothing on the heap per call once warm: the key and value go from the
 * caller's buffers into the connection's request buffer, and the reply from the connection's buffer into the
 * caller's. Measured with the JVM's per-thread allocation counter over many calls against a real redis-server.
 */
@Tag("socket")
class AgniClientAllocationTest
{
    private static final int WARM_UP_CALLS = 10_000;
    private static final int MEASURED_CALLS = 5_000;
    private static final long ALLOWED_BYTES = 1024;
    private static final MethodHandle ALLOCATED_BYTES = allocationCounter();

    private static RedisServerProcess redis;
    private static AgniClient client;

    @BeforeAll
    static void start()
    {
        redis = RedisServerProcess.start();
        client = AgniClient.builder().host("127.0.0.1").port(redis.port()).connections(1).build();
    }

    @AfterAll
    static void stop()
    {
        ClientContractTests.closeAll(client, redis);
    }

    @Test
    void zeroCopyCallsAllocateNothingPerCallOnceWarm()
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[32]);
        final int keyLength = key.putStringWithoutLengthAscii(0, "user:42");
        final UnsafeBuffer counter = new UnsafeBuffer(new byte[32]);
        final int counterLength = counter.putStringWithoutLengthAscii(0, "hits");
        final UnsafeBuffer value = new UnsafeBuffer(new byte[100]);
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(256);
        final long expireAt = System.currentTimeMillis() + 3_600_000;

        calls(WARM_UP_CALLS, key, keyLength, counter, counterLength, value, dst, expireAt);
        allocatedBytes();
        final long before = allocatedBytes();
        final long checksum = calls(MEASURED_CALLS, key, keyLength, counter, counterLength, value, dst, expireAt);
        final long allocated = allocatedBytes() - before;

        assertTrue(checksum > 0);
        assertTrue(allocated <= ALLOWED_BYTES, "allocated " + allocated + " bytes over " + MEASURED_CALLS +
            " rounds of 6 zero-copy calls (" + (double)allocated / (6.0 * MEASURED_CALLS) + " B/call)");
        assertEquals(100, client.get(key, 0, keyLength, dst, 0));
    }

    private static long calls(
        final int rounds, final UnsafeBuffer key, final int keyLength, final UnsafeBuffer counter,
        final int counterLength, final UnsafeBuffer value, final ExpandableArrayBuffer dst, final long expireAt)
    {
        long checksum = 0;
        for (int i = 0; i < rounds; i++)
        {
            value.putInt(0, i);
            client.set(key, 0, keyLength, value, 0, value.capacity());
            checksum += client.get(key, 0, keyLength, dst, 0);
            checksum += client.incrementBy(counter, 0, counterLength, 1);
            checksum += client.exists(key, 0, keyLength) ? 1 : 0;
            checksum += client.set(key, 0, keyLength, value, 0, 10, SetCondition.IF_PRESENT, ExpiryMode.AT, expireAt) ?
                1 : 0;
            checksum += client.getAndSet(key, 0, keyLength, value, 0, value.capacity(), SetCondition.ALWAYS,
                ExpiryMode.KEEP, 0, dst, 0);
        }
        return checksum;
    }

    /**
     * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}, reached reflectively because the
     * module under test does not read {@code jdk.management} (the tests run on the class path, where it is visible).
     */
    private static MethodHandle allocationCounter()
    {
        try
        {
            final Object bean = Class.forName("java.lang.management.ManagementFactory")
                .getMethod("getThreadMXBean")
                .invoke(null);
            return MethodHandles.publicLookup()
                .findVirtual(Class.forName("com.sun.management.ThreadMXBean"), "getCurrentThreadAllocatedBytes",
                    MethodType.methodType(long.class))
                .bindTo(bean);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException("no per-thread allocation counter in this JVM", ex);
        }
    }

    private static long allocatedBytes()
    {
        try
        {
            return (long)ALLOCATED_BYTES.invokeExact();
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
