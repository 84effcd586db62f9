package io.agni.protocol;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Once warm, decoding a pipeline, partial commands and resumption included, allocates nothing on the heap: measured
 * with the JVM's per-thread allocation counter around many rounds, so one stray allocation per command would show
 * as kilobytes. (JMH's {@code -prof gc} measures the same in the benchmarks.)
 */
class RespDecoderAllocationTest
{
    private static final int WARM_UP = 20_000;
    private static final int ROUNDS = 2_000;
    private static final String PIPELINE =
        "*3\r\n$3\r\nSET\r\n$5\r\nkey:1\r\n$10\r\nvalue-0001\r\n" +
        "*2\r\n$3\r\nGET\r\n$5\r\nkey:1\r\n" +
        "PING\r\n" +
        "SET \"quoted key\" 'x\\'y' \"\\x00\\n\"\r\n" +
        "*0\r\n\r\n" +
        "*3\r\n$4\r\nMSET\r\n$1\r\na\r\n$1\r\nb\r\n";

    /**
     * A listener that counts and allocates nothing.
     */
    private static final class CountingListener implements RespDecoder.Listener
    {
        long commands;
        long argumentBytes;
        long errors;
        long rounds;

        @Override
        public boolean onCommand(final RespArgs args)
        {
            commands++;
            for (int i = 0; i < args.count(); i++)
            {
                argumentBytes += args.length(i);
            }
            return true;
        }

        @Override
        public void onProtocolError(final String message)
        {
            errors++;
        }
    }

    @Test
    void decodingAWarmPipelineAllocatesNothing()
    {
        final byte[] bytes = PIPELINE.getBytes(StandardCharsets.ISO_8859_1);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[bytes.length * 2]);
        buffer.putBytes(0, bytes);
        final RespDecoder decoder = new RespDecoder(ProtocolLimits.DEFAULT);
        final CountingListener listener = new CountingListener();
        final UnsafeBuffer stash = new UnsafeBuffer(new byte[bytes.length]);
        stash.putBytes(0, buffer, 0, bytes.length);

        AllocationMeter.assertAllocatesNothing(
            "decoding a pipeline cut inside a bulk",
            () -> decodeRound(decoder, buffer, stash, bytes.length, listener),
            WARM_UP,
            ROUNDS,
            1024);
        assertEquals(0, listener.errors);
        assertEquals(5L * listener.rounds, listener.commands);
    }

    /**
     * Each round presents the pipeline in two reads cut inside a bulk, moving the kept bytes to the buffer's start
     * as a network layer compacting its read buffer would.
     */
    private static void decodeRound(
        final RespDecoder decoder,
        final UnsafeBuffer buffer,
        final UnsafeBuffer stash,
        final int length,
        final CountingListener listener)
    {
        final int cut = 30;
        buffer.putBytes(0, stash, 0, length);
        final int consumed = decoder.decode(buffer, 0, cut, listener);
        final int kept = cut - consumed;
        buffer.putBytes(0, buffer, consumed, kept);
        buffer.putBytes(kept, stash, cut, length - cut);
        final int total = kept + length - cut;
        final int second = decoder.decode(buffer, 0, total, listener);
        if (second != total)
        {
            throw new AssertionError("second=" + second + ", total=" + total);
        }
        listener.rounds++;
    }
}
