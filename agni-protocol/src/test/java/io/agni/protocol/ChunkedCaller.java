package io.agni.protocol;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Plays the network layer: presents a byte stream to a decoder in chunks, keeping the unconsumed bytes of a partial
 * command and presenting them again, followed by the next chunk, in a fresh buffer at another offset (as a caller
 * that compacts or swaps buffers would). Calls again without new bytes when the listener stopped the decoder.
 */
final class ChunkedCaller
{
    private static final int MAX_OFFSET = 7;

    private ChunkedCaller()
    {
    }

    /**
     * @param decoder  the decoder.
     * @param input    the whole stream.
     * @param cuts     where to cut it, any order, duplicates and out-of-range values ignored.
     * @param listener the listener.
     * @param check    run after every call to decode.
     */
    static void feed(
        final RespDecoder decoder,
        final byte[] input,
        final int[] cuts,
        final RecordingListener listener,
        final Runnable check)
    {
        final int[] sorted = Arrays.stream(cuts).filter(c -> c > 0 && c < input.length).sorted().distinct().toArray();
        byte[] kept = new byte[0];
        int from = 0;
        for (int i = 0; i <= sorted.length; i++)
        {
            final int to = i < sorted.length ? sorted[i] : input.length;
            byte[] data = concat(kept, Arrays.copyOfRange(input, from, to));
            from = to;
            int call = 0;
            while (true)
            {
                final int offset = (i + call++) % MAX_OFFSET;
                final UnsafeBuffer buffer = new UnsafeBuffer(new byte[offset + data.length + 3]);
                buffer.setMemory(0, buffer.capacity(), (byte)'?');
                buffer.putBytes(offset, data);
                final int consumed = decoder.decode(buffer, offset, data.length, listener);
                check.run();
                if (consumed < 0 || consumed > data.length)
                {
                    throw new AssertionError("consumed=" + consumed + ", length=" + data.length);
                }
                data = Arrays.copyOfRange(data, consumed, data.length);
                if (!listener.takeStopped())
                {
                    break;
                }
            }
            kept = data;
        }
    }

    static void feed(final RespDecoder decoder, final byte[] input, final int[] cuts, final RecordingListener listener)
    {
        feed(decoder, input, cuts, listener, () -> {});
    }

    private static byte[] concat(final byte[] a, final byte[] b)
    {
        final byte[] result = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, result, a.length, b.length);
        return result;
    }
}
