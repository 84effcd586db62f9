package io.agni.api;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What {@link AgniStore}'s default methods share: wrapping arrays in buffers, reading a result of unknown length
 * into a growable buffer and copying it out, and copying keys out of a buffer for the multi-key operations.
 * Stateless.
 */
final class DefaultForms
{
    /**
     * The first capacity of the growable buffer a {@code byte[]} read goes through; it doubles as needed.
     */
    static final int FIRST_CAPACITY = 64;

    private DefaultForms()
    {
    }

    static UnsafeBuffer wrap(final byte[] array, final String name)
    {
        return new UnsafeBuffer(Objects.requireNonNull(array, name));
    }

    static ExpandableArrayBuffer growable()
    {
        return new ExpandableArrayBuffer(FIRST_CAPACITY);
    }

    /**
     * The first {@code length} bytes of a growable buffer as a new array, or {@code null} for a negative length
     * ({@link AgniStore#NOT_FOUND}).
     */
    static byte[] copyOut(final ExpandableArrayBuffer buffer, final int length)
    {
        return length < 0 ? null : Arrays.copyOf(buffer.byteArray(), length);
    }

    static byte[] array(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < 0)
        {
            throw new IllegalArgumentException("negative length: " + length);
        }
        final byte[] array = new byte[length];
        buffer.getBytes(offset, array);
        return array;
    }

    /**
     * Checks a batch of {@code count} items of {@code stride} parts each (keys: 1; key-value pairs: 2).
     */
    static void checkBatch(final int count, final int stride, final int[] offsets, final int[] lengths)
    {
        if (count < 0 || offsets.length < (long)stride * count || lengths.length < (long)stride * count)
        {
            throw new IllegalArgumentException("count out of range: count=" + count + ", offsets=" + offsets.length +
                ", lengths=" + lengths.length);
        }
        for (int i = 0; i < stride * count; i++)
        {
            if (lengths[i] < 0)
            {
                throw new IllegalArgumentException("negative length: lengths[" + i + "]=" + lengths[i]);
            }
        }
    }

    /**
     * Copies parts {@code first}, {@code first + stride}, ... of a batch into arrays.
     */
    static List<byte[]> arrays(
        final DirectBuffer buffer, final int[] offsets, final int[] lengths, final int first, final int stride,
        final int count)
    {
        final List<byte[]> arrays = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            arrays.add(array(buffer, offsets[first + stride * i], lengths[first + stride * i]));
        }
        return arrays;
    }

    /**
     * Checks that {@code length} bytes fit in {@code dst} at {@code position}, as the zero-copy reads do.
     */
    static void checkRoom(final MutableDirectBuffer dst, final long position, final int length)
    {
        final long end = position + length;
        if (end > Integer.MAX_VALUE || !dst.isExpandable() && end > dst.capacity())
        {
            throw new IndexOutOfBoundsException(
                "destination too small: needed=" + end + ", capacity=" + dst.capacity());
        }
    }

    /**
     * {@code a + b}, or the nearest {@code long} when the sum overflows.
     */
    static long saturatedAdd(final long a, final long b)
    {
        final long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0)
        {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }
}
