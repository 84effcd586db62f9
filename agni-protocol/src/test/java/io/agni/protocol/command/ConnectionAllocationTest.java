package io.agni.protocol.command;

import io.agni.protocol.AllocationMeter;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        AllocationMeter.assertAllocatesNothing(command, () -> execute(args), WARM_UP, MEASURED, ALLOWED_BYTES);
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
}
