package io.agni.protocol.command;

import io.agni.protocol.AllocationMeter;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

    /**
     * Slack for one-off runtime events (a deoptimisation, a class initialised late), which is why the least of
     * {@link AllocationMeter#ATTEMPTS} rounds counts; an allocation per command would cost at least {@code MEASURED * 16} bytes in
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
        "GETRANGE|hit|2|-3", "SETRANGE|hit|4|xyz", "MSET|a|1|b|2|c|3|d|4|e|5|f|6|g|7|h|8|i|9|j|10",
        "MSET|a|1|b|2|a|3", "MSETNX|hit|1|missing|2",
        "MGET|hit|a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t|u|v|w|x|y|z|hit|missing|hit"})
    void commandAllocatesNothingOnceWarm(final String command)
    {
        harness.reply("SET", "hit", "a value of some length, long enough to need a copy");
        harness.reply("MSET", "a", "1", "b", "22", "c", "333", "d", "", "e", "5", "f", "6", "g", "7", "h", "8", "i", "9");
        harness.reply("SET", "counter", "0");
        final RespArgs args = RespArgs.of(command.split("\\|"));
        AllocationMeter.assertAllocatesNothing(command, () -> run(args, 1), WARM_UP, MEASURED, ALLOWED_BYTES);
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
}
