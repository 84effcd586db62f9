package io.agni.protocol.command;

import io.agni.protocol.AllocationMeter;
import io.agni.protocol.BufferLimitException;
import io.agni.protocol.BufferMemory;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heap the commands that handle many keys need while they run (docs/operations.md, "The heap"), measured with
 * the executing thread's allocation counter (an upper bound of what a command holds at once): KEYS and a SCAN step
 * copy every key they return onto the heap, and KEYS stops at the reply limit while a SCAN step collects its
 * keys whole first; MSET copies no argument but needs arrays per pair.
 */
class CommandHeapUseTest
{
    private static final int KEYS = 50_000;

    private final CommandHarness harness = new CommandHarness();
    private final RespWriter unlimited = new RespWriter(1024, 64 << 20, BufferMemory.UNCOUNTED);
    private final RespWriter limited = new RespWriter(1024, 64 * 1024, BufferMemory.UNCOUNTED);

    @BeforeEach
    void fill()
    {
        for (int i = 0; i < KEYS; i++)
        {
            harness.store.set(key(i), new byte[] {'v'});
        }
    }

    @AfterEach
    void close()
    {
        unlimited.free();
        limited.free();
        harness.close();
    }

    @Test
    void keysNeedsAtMostTwoHundredBytesOfHeapPerSixteenByteKey()
    {
        final long bytes = leastOfThree(RespArgs.of("KEYS", "*"), unlimited);

        assertTrue(bytes <= 200L * KEYS, "KEYS allocated " + bytes / KEYS + " bytes per key");
        assertTrue(bytes >= 16L * KEYS, "every key is copied");
    }

    @Test
    void keysStopsCollectingAtTheReplyLimit()
    {
        final long whole = leastOfThree(RespArgs.of("KEYS", "*"), unlimited);
        final long refused = leastOfThree(RespArgs.of("KEYS", "*"), limited);

        assertTrue(refused < whole / 5, "refused KEYS allocated " + refused + " bytes, a whole one " + whole);
    }

    @Test
    void aScanStepNeedsAtMostSixtyFourBytesOfHeapPerSixteenByteKeyItReturns()
    {
        final long bytes = leastOfThree(RespArgs.of("SCAN", "0", "COUNT", "100000000"), unlimited);

        assertTrue(bytes <= 64L * KEYS, "SCAN allocated " + bytes / KEYS + " bytes per key");
    }

    @Test
    void aScanStepCollectsEveryKeyItFindsBeforeTheReplyLimitIsChecked()
    {
        final long bytes = leastOfThree(RespArgs.of("SCAN", "0", "COUNT", "100000000"), limited);

        assertTrue(bytes >= 32L * KEYS, "a refused SCAN step still copied its keys: " + bytes / KEYS + " per key");
    }

    @Test
    void msetNeedsAtMostOneHundredTwentyBytesOfHeapPerPairWhileItRuns()
    {
        final List<String> command = new ArrayList<>();
        command.add("MSET");
        for (int i = 0; i < KEYS; i++)
        {
            command.add(new String(key(i), StandardCharsets.US_ASCII));
            command.add("w");
        }
        final RespArgs args = RespArgs.of(command.toArray(new String[0]));

        final long bytes = leastOfThree(args, unlimited);

        assertTrue(bytes <= 120L * KEYS, "MSET allocated " + bytes / KEYS + " bytes per pair");
    }

    /**
     * The least of three runs, the first of which may include one-off growth of reused buffers.
     */
    private long leastOfThree(final RespArgs args, final RespWriter out)
    {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++)
        {
            out.reset();
            least = Math.min(least, AllocationMeter.allocatedBy(() -> execute(args, out)));
        }
        return least;
    }

    /**
     * Executes a command; a reply over the writer's limit is refused as the server refuses it, by the writer's
     * exception, which the connection catches.
     */
    private void execute(final RespArgs args, final RespWriter out)
    {
        try
        {
            harness.processor.execute(harness.session, args, out);
        }
        catch (final BufferLimitException ex)
        {
            assertTrue(out == limited, "only the limited writer refuses");
        }
    }

    /**
     * A 16-byte key.
     */
    private static byte[] key(final int i)
    {
        final byte[] key = String.format("key:%012d", i).getBytes(StandardCharsets.US_ASCII);
        assertEquals(16, key.length);
        return key;
    }
}
