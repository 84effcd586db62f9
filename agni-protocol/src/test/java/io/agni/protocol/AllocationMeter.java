package io.agni.protocol;

import org.junit.jupiter.api.Assumptions;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Measures heap allocation of an operation with the JVM's per-thread allocation counter, for the tests that prove a
 * hot path allocates nothing once warm.
 *
 * <h2>Why the best of several attempts</h2>
 * A warm path can still see a one-off allocation during a measured round (a late class initialisation, a
 * deoptimisation and recompilation on a loaded machine). Such an event happens once; an allocation per operation
 * happens in every round. So the operation is warmed, then measured in up to {@link #ATTEMPTS} rounds, and the
 * least a round allocated must be under the allowance, which is far below one allocation per operation
 * ({@code operations * 16} bytes).
 */
public final class AllocationMeter
{
    /**
     * Measured rounds at most.
     */
    public static final int ATTEMPTS = 3;

    private static final MethodHandle COUNTER = counter();

    private AllocationMeter()
    {
    }

    /**
     * Asserts that {@code operation}, once warm, allocates less than {@code allowedBytes} in {@code measured} runs.
     * Skips (as an assumption) on a JVM without a per-thread allocation counter.
     *
     * @param what         names the operation in the failure message.
     * @param operation    the operation; made once by the caller, so running it allocates nothing by itself.
     * @param warmUp       runs before measuring.
     * @param measured     runs per measured round.
     * @param allowedBytes the allowance for one-off events per round.
     */
    public static void assertAllocatesNothing(
        final String what, final Runnable operation, final int warmUp, final int measured, final long allowedBytes)
    {
        Assumptions.assumeTrue(COUNTER != null, "no per-thread allocation counter on this JVM");
        for (int i = 0; i < warmUp; i++)
        {
            operation.run();
        }
        read();
        long least = Long.MAX_VALUE;
        for (int attempt = 0; attempt < ATTEMPTS && least >= allowedBytes; attempt++)
        {
            final long before = read();
            for (int i = 0; i < measured; i++)
            {
                operation.run();
            }
            least = Math.min(least, read() - before);
        }
        assertTrue(
            least < allowedBytes,
            what + " allocated " + least + " bytes in " + measured + " runs (least of " + ATTEMPTS + " rounds)");
    }

    /**
     * The bytes of heap the current thread allocates while it runs an operation once: an upper bound of what the
     * operation keeps, for the tests that pin how much heap a command needs. Skips (as an assumption) on a JVM
     * without a per-thread allocation counter.
     *
     * @param operation the operation.
     * @return the bytes allocated.
     */
    public static long allocatedBy(final Runnable operation)
    {
        Assumptions.assumeTrue(COUNTER != null, "no per-thread allocation counter on this JVM");
        final long before = read();
        operation.run();
        return read() - before;
    }

    private static long read()
    {
        try
        {
            return (long)COUNTER.invokeExact();
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("cannot read the allocation counter", ex);
        }
    }

    /**
     * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes} as a method handle, looked up
     * reflectively: the module under test does not read {@code java.management}, but the tests run on the class
     * path, where it is reachable. Null where the JVM has no such counter.
     */
    private static MethodHandle counter()
    {
        try
        {
            final Object bean = Class.forName("java.lang.management.ManagementFactory")
                .getMethod("getThreadMXBean").invoke(null);
            final Class<?> type = Class.forName("com.sun.management.ThreadMXBean");
            if (!type.isInstance(bean) || !(Boolean)type.getMethod("isThreadAllocatedMemorySupported").invoke(bean))
            {
                return null;
            }
            type.getMethod("setThreadAllocatedMemoryEnabled", boolean.class).invoke(bean, true);
            return MethodHandles.publicLookup()
                .findVirtual(type, "getCurrentThreadAllocatedBytes", MethodType.methodType(long.class))
                .bindTo(bean);
        }
        catch (final ReflectiveOperationException ex)
        {
            return null;
        }
    }
}
