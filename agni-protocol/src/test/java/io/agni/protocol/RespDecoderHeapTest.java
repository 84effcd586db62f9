package io.agni.protocol;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heap a command not yet complete holds in the decoder (docs/operations.md, "The heap"): its arguments are in
 * the connection's query buffer (direct memory), but their offsets and lengths are in two heap arrays that grow
 * as the arguments arrive, 8 bytes per argument and up to twice that just after the arrays doubled, and at most
 * 8 MiB at the default limit of 1,048,576 arguments. Each argument takes at least 6 bytes of query buffer
 * ({@code $0\r\n\r\n}).
 */
class RespDecoderHeapTest
{
    private static final long INITIAL = 2L * Integer.BYTES * 16;

    @ParameterizedTest
    @ValueSource(ints = {1_000, 100_000, 700_000})
    void aPendingCommandHoldsEightToSixteenBytesOfHeapPerArgumentReceived(final int received)
    {
        final RespDecoder decoder = new RespDecoder(ProtocolLimits.DEFAULT);

        decoder.decode(buffer(pendingCommandOfEmptyArguments(received)), 0, 10 + 6 * received, new RecordingListener());

        final long reserved = decoder.reservedBytes();
        assertTrue(reserved >= 8L * received && reserved <= 16L * received + INITIAL, "reserved=" + reserved);
    }

    @Test
    void aCommandAtTheArgumentLimitHoldsEightMebibytesOfHeapWhilePending()
    {
        final RespDecoder decoder = new RespDecoder(ProtocolLimits.DEFAULT);
        final int received = ProtocolLimits.DEFAULT_MAX_ARGUMENTS - 1;

        decoder.decode(buffer(pendingCommandOfEmptyArguments(received)), 0, 10 + 6 * received, new RecordingListener());

        assertEquals(8L << 20, decoder.reservedBytes());
    }

    /**
     * {@code *1048576\r\n} and then {@code received} empty arguments: a command still waiting for the rest.
     */
    private static String pendingCommandOfEmptyArguments(final int received)
    {
        return "*" + ProtocolLimits.DEFAULT_MAX_ARGUMENTS + "\r\n" + "$0\r\n\r\n".repeat(received);
    }

    private static UnsafeBuffer buffer(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }
}
