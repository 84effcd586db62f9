package io.agni.store.shard;

/**
 * The byte range of Redis's {@code GETRANGE}: inclusive indexes, negative ones counted from the end, then clamped to
 * the value (Redis 7's {@code getrangeCommand}, quirks included: {@code -10 -8} of a 5-byte value is its first
 * byte). The result packs the first index and the count into one {@code long}, so the read path allocates nothing.
 */
public final class ByteRange
{
    private ByteRange()
    {
    }

    /**
     * The slice of a value of {@code length} bytes that {@code [start, end]} selects.
     *
     * @param start  the first index, possibly negative.
     * @param end    the last index, inclusive, possibly negative.
     * @param length the value's length.
     * @return the first index in the high 32 bits and the count in the low 32 bits; a count of 0 for nothing.
     */
    public static long slice(final long start, final long end, final int length)
    {
        if (start < 0 && end < 0 && start > end)
        {
            return 0;
        }
        long first = start < 0 ? length + start : start;
        long last = end < 0 ? length + end : end;
        first = Math.max(0, first);
        last = Math.max(0, last);
        last = Math.min(last, length - 1L);
        if (first > last || length == 0)
        {
            return 0;
        }
        return (first << 32) | (last - first + 1);
    }

    /**
     * The first index of a slice.
     *
     * @param slice from {@link #slice}.
     * @return the index of the first byte.
     */
    public static int first(final long slice)
    {
        return (int)(slice >>> 32);
    }

    /**
     * The number of bytes in a slice.
     *
     * @param slice from {@link #slice}.
     * @return the count, {@code 0} for an empty slice.
     */
    public static int count(final long slice)
    {
        return (int)slice;
    }
}
