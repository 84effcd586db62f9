package io.agni.store.file;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C over ranges of one direct buffer, without allocating: the JDK's {@link CRC32C} reads a direct
 * {@link ByteBuffer} in place (and is an intrinsic on x86 and AArch64). Not thread-safe: one per user of a segment.
 */
public final class Crc
{
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer view;

    /**
     * A checksum over {@code memory}.
     *
     * @param memory the buffer the ranges are in; its position and limit are left alone.
     */
    public Crc(final ByteBuffer memory)
    {
        this.view = memory.duplicate();
    }

    /**
     * The CRC32C of one range.
     *
     * @param offset the range's start.
     * @param length its length.
     * @return the checksum.
     */
    public int of(final int offset, final int length)
    {
        crc.reset();
        update(offset, length);
        return (int)crc.getValue();
    }

    /**
     * The CRC32C of two ranges, one after the other.
     *
     * @param offset1 the first range's start.
     * @param length1 its length.
     * @param offset2 the second range's start.
     * @param length2 its length.
     * @return the checksum.
     */
    public int of(final int offset1, final int length1, final int offset2, final int length2)
    {
        crc.reset();
        update(offset1, length1);
        update(offset2, length2);
        return (int)crc.getValue();
    }

    private void update(final int offset, final int length)
    {
        view.limit(offset + length).position(offset);
        crc.update(view);
    }
}
