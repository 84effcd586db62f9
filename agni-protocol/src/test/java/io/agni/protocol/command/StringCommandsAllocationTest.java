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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The string commands on the hot path allocate nothing on the heap once warm: executed many times through the
 * {@link CommandProcessor}, the executing thread's allocated-bytes counter does not move.
 * <p>
 * The counter ({@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}) is reached through a method
 * handle, because the module under test does not read {@code java.management}; the tests run on the class path,
 * where it is visible. The handle returns a primitive {@code long}, so reading it allocates nothing.
 */
class StringCommandsAllocationTest
{
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 20_000;

    private static final int ROUNDS = 3;

    /**
     * Slack for one-off runtime events (a deoptimisation, a class initialised late), which is why the best of
     * {@link #ROUNDS} rounds counts; an allocation per command would cost at least {@code MEASURED * 16} bytes in
     * every round.
     */
    private static final long ALLOWED_BYTES = 1_024;

    private final CommandHarness harness = new CommandHarness();
    private final RespWriter out = new RespWriter(64 * 1024);

    @AfterEach
    void close()
    {
        harness.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "GET|hit", "GET|missing", "SET|k|value", "SET|k|value|EX|100", "SET|k|value|px|100|XX",
        "SET|k|value|GET", "SET|hit|value|NX", "SET|k|value|KEEPTTL", "SETNX|hit|v", "SETEX|k|100|v",
        "INCR|counter", "DECR|counter", "INCRBY|counter|5", "DECRBY|counter|5", "MGET|hit|missing|hit",
        "GETSET|k|value", "GETEX|hit", "GETEX|hit|EX|100", "GETEX|hit|PERSIST", "STRLEN|hit",
        "GETRANGE|hit|2|-3", "SETRANGE|hit|4|xyz"})
    void commandAllocatesNothingOnceWarm(final String command)
    {
        final MethodHandle allocatedBytes = allocatedBytesCounter();
        harness.reply("SET", "hit", "a value of some length, long enough to need a copy");
        harness.reply("SET", "counter", "0");
        final RespArgs args = RespArgs.of(command.split("\\|"));

        run(args, WARM_UP);
        long allocated = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS && allocated > ALLOWED_BYTES; round++)
        {
            final long before = read(allocatedBytes);
            run(args, MEASURED);
            allocated = Math.min(allocated, read(allocatedBytes) - before);
        }

        assertTrue(allocated <= ALLOWED_BYTES, command + " allocated " + allocated + " bytes in " + MEASURED + " runs");
    }

    private void run(final RespArgs args, final int times)
    {
        final CommandProcessor processor = harness.processor;
        final Session session = harness.session;
        final RespWriter out = this.out;
        for (int i = 0; i < times; i++)
        {
            out.reset();
            assertEquals(Outcome.CONTINUE, processor.execute(session, args, out));
            if (out.buffer().getByte(0) == '-')
            {
                throw new AssertionError(
                    args + " failed: " + out.buffer().getStringWithoutLengthAscii(0, out.position()));
            }
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
