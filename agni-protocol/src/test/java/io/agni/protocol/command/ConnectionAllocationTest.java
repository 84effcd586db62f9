package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commands that pools and benchmarks send per request (PING, which pools use to test connections and
 * redis-benchmark measures, ECHO, SELECT 0, QUIT, TIME) allocate nothing on the heap once warm: measured
 * with the JVM's per-thread allocation counter around many executions.
 */
class ConnectionAllocationTest
{
    private static final int WARM_UP = 30_000;
    private static final int MEASURED = 10_000;
    private static final long ALLOWED_BYTES = 1024;

    private final CommandHarness harness = new CommandHarness();
    private final RespWriter out = new RespWriter(256);

    @AfterEach
    void close()
    {
        harness.close();
    }

    @ParameterizedTest
    @ValueSource(strings = { "PING", "ping", "PING hello", "ECHO hello", "SELECT 0", "QUIT", "TIME" })
    void cheapCommandsAllocateNothing(final String command)
    {
        final RespArgs args = RespArgs.of(command.split(" "));
        final MethodHandle allocatedBytes = allocatedBytesCounter();
        for (int i = 0; i < WARM_UP; i++)
        {
            execute(args);
        }
        final long before = read(allocatedBytes);
        for (int i = 0; i < MEASURED; i++)
        {
            execute(args);
        }
        final long allocated = read(allocatedBytes) - before;
        assertTrue(allocated < ALLOWED_BYTES, command + " allocated " + allocated + " bytes in " + MEASURED + " runs");
    }

    private void execute(final RespArgs args)
    {
        out.reset();
        harness.processor.execute(harness.session, args, out);
        if (out.buffer().getByte(0) == '-')
        {
            throw new AssertionError("error reply to " + args);
        }
    }

    private static long read(final MethodHandle counter)
    {
        try
        {
            return (long)counter.invokeExact();
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("cannot read the allocation counter", ex);
        }
    }

    /**
     * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes} as a method handle: the module under
     * test does not read {@code java.management}, but the tests run on the class path, where it is reachable.
     */
    private static MethodHandle allocatedBytesCounter()
    {
        try
        {
            final Object bean = Class.forName("java.lang.management.ManagementFactory")
                .getMethod("getThreadMXBean").invoke(null);
            final Class<?> type = Class.forName("com.sun.management.ThreadMXBean");
            Assumptions.assumeTrue(type.isInstance(bean), "no allocation counter on this JVM");
            Assumptions.assumeTrue(
                (Boolean)type.getMethod("isThreadAllocatedMemorySupported").invoke(bean), "no allocation counter");
            type.getMethod("setThreadAllocatedMemoryEnabled", boolean.class).invoke(bean, true);
            return MethodHandles.publicLookup()
                .findVirtual(type, "getCurrentThreadAllocatedBytes", MethodType.methodType(long.class))
                .bindTo(bean);
        }
        catch (final ReflectiveOperationException ex)
        {
            Assumptions.abort("no allocation counter on this JVM: " + ex);
            return null;
        }
    }
}
