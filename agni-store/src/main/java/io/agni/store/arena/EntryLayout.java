package io.agni.store.arena;

import org.agrona.MutableDirectBuffer;

/**
 * The layout of one entry in a segment. Lengths are unsigned LEB128 varints, so a 16-byte key with a 100-byte value
 * costs three header bytes; the expiry time is present only when the entry has one.
 *
 * <pre>
 *   0        1                     1 or 9
 *  +--------+---------------------+--------------+----------------+-----------+-------------+
 *  | flags  | expireAt (8, opt.)  | keyLen (1-5) | valueLen (1-5) | key bytes | value bytes |
 *  +--------+---------------------+--------------+----------------+-----------+-------------+
 *  flags: bit 0 HAS_EXPIRY, bit 1 DEAD (the entry is garbage, skipped by compaction)
 * </pre>
 * An entry is followed by 0-7 bytes of padding, so that the next one starts at a multiple of {@link #ALIGNMENT};
 * its length ({@link #length}) includes them.
 */
public final class EntryLayout
{
    /**
     * Flag bit: the entry carries an expiry time.
     */
    public static final int HAS_EXPIRY = 1;

    /**
     * Flag bit: the entry is no longer referenced by the index.
     */
    public static final int DEAD = 2;

    /**
     * Offset of the flags byte.
     */
    public static final int FLAGS_OFFSET = 0;

    /**
     * Offset of the expiry time, when present.
     */
    public static final int EXPIRE_AT_OFFSET = 1;

    /**
     * Every entry starts at a multiple of this many bytes in its segment, so a value's offset modulo 8 is the same
     * for every entry of one key length and header shape. A GET copies the value with the JVM's copy routine, which
     * branches on the source's alignment: with packed entries that branch is random and mispredicted, and a header
     * read plus a 100-byte copy took 1.5 times as long (docs/experiments/in-process-store.md, "Entry alignment").
     */
    public static final int ALIGNMENT = 8;

    /**
     * The longest an entry may be: it must fit one direct buffer.
     */
    public static final int MAX_ENTRY_LENGTH = Integer.MAX_VALUE - 64;

    private EntryLayout()
    {
    }

    /**
     * The bytes an entry takes, padded to {@link #ALIGNMENT}.
     *
     * @param keyLength   the key's length.
     * @param valueLength the value's length.
     * @param hasExpiry   whether it carries an expiry time.
     * @return the entry's length; may exceed {@link #MAX_ENTRY_LENGTH}, which callers check.
     */
    public static long length(final int keyLength, final int valueLength, final boolean hasExpiry)
    {
        return align(headerLength(keyLength, valueLength, hasExpiry) + (long)keyLength + valueLength);
    }

    /**
     * Rounds an entry's header, key and value bytes up to {@link #ALIGNMENT}.
     *
     * @param length the unpadded length.
     * @return the padded length.
     */
    public static long align(final long length)
    {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /**
     * The bytes of an entry's header.
     *
     * @param keyLength   the key's length.
     * @param valueLength the value's length.
     * @param hasExpiry   whether it carries an expiry time.
     * @return the header length.
     */
    public static int headerLength(final int keyLength, final int valueLength, final boolean hasExpiry)
    {
        return 1 + (hasExpiry ? Long.BYTES : 0) + varintLength(keyLength) + varintLength(valueLength);
    }

    /**
     * Writes an entry's header.
     *
     * @param buffer      the segment.
     * @param offset      where the entry starts.
     * @param hasExpiry   whether it carries an expiry time.
     * @param expireAt    the expiry time, if it does.
     * @param keyLength   the key's length.
     * @param valueLength the value's length.
     * @return the offset where the key bytes go.
     */
    public static int writeHeader(
        final MutableDirectBuffer buffer,
        final int offset,
        final boolean hasExpiry,
        final long expireAt,
        final int keyLength,
        final int valueLength)
    {
        int p = offset;
        buffer.putByte(p + FLAGS_OFFSET, (byte)(hasExpiry ? HAS_EXPIRY : 0));
        p++;
        if (hasExpiry)
        {
            buffer.putLong(offset + EXPIRE_AT_OFFSET, expireAt);
            p += Long.BYTES;
        }
        p += putVarint(buffer, p, keyLength);
        p += putVarint(buffer, p, valueLength);
        return p;
    }

    /**
     * Marks an entry dead.
     *
     * @param buffer the segment.
     * @param offset where the entry starts.
     */
    public static void markDead(final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putByte(offset + FLAGS_OFFSET, (byte)(buffer.getByte(offset + FLAGS_OFFSET) | DEAD));
    }

    /**
     * Rewrites the expiry time of an entry that already has room for one.
     *
     * @param buffer   the segment.
     * @param offset   where the entry starts.
     * @param expireAt the new expiry time.
     */
    public static void putExpireAt(final MutableDirectBuffer buffer, final int offset, final long expireAt)
    {
        buffer.putLong(offset + EXPIRE_AT_OFFSET, expireAt);
    }

    /**
     * Bytes a varint of {@code value} takes.
     *
     * @param value a non-negative int.
     * @return 1 to 5.
     */
    public static int varintLength(final int value)
    {
        if (value < (1 << 7))
        {
            return 1;
        }
        if (value < (1 << 14))
        {
            return 2;
        }
        if (value < (1 << 21))
        {
            return 3;
        }
        return value < (1 << 28) ? 4 : 5;
    }

    private static int putVarint(final MutableDirectBuffer buffer, final int offset, final int value)
    {
        int v = value;
        int p = offset;
        while ((v & ~0x7F) != 0)
        {
            buffer.putByte(p++, (byte)((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        buffer.putByte(p++, (byte)v);
        return p - offset;
    }
}
