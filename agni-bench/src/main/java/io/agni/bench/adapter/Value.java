package io.agni.bench.adapter;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * A value written by the benchmarks, held as an off-heap buffer for the zero-copy path and as an array for the
 * {@code byte[]} path, with the same random bytes in both. Immutable; safe to share between threads.
 */
public final class Value
{
    private final UnsafeBuffer buffer;
    private final byte[] array;

    /**
     * Makes a value of random bytes.
     *
     * @param length its length in bytes.
     * @param seed   the same seed gives the same bytes.
     */
    public Value(final int length, final long seed)
    {
        array = new byte[length];
        new SplittableRandom(seed).nextBytes(array);
        buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(1, length)), 0, length);
        buffer.putBytes(0, array);
    }

    /**
     * The value's length in bytes.
     *
     * @return the length.
     */
    public int length()
    {
        return array.length;
    }

    /**
     * The value as an off-heap buffer from offset {@code 0}.
     *
     * @return the buffer; do not write to it.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * The value as an array.
     *
     * @return the shared array; do not write to it.
     */
    public byte[] array()
    {
        return array;
    }
}
