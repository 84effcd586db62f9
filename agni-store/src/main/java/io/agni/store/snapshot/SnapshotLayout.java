package io.agni.store.snapshot;

import io.agni.store.file.Crc;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The on-disk format of a snapshot: every entry of the store, consistent with the write-ahead log from a sequence
 * on. Every number is little-endian.
 *
 * <p>The file is {@code snapshot-<from sequence, 16 hex digits>.snap}. It is written under a temporary name
 * ({@code .tmp} added), synced, renamed, and the directory synced, so a file under its final name is complete
 * unless it was damaged later.
 *
 * <pre>
 * header (64 B):  magic "agni-snp" (8) | version (4) | header length (4) | from sequence (8) |
 *                 created at, ms since the epoch (8) | reserved, zero (28) | CRC32C of bytes 0-59 (4)
 * blocks:         payload length (4, &gt; 0) | CRC32C of the payload (4) | payload
 * footer (24 B):  {@link #FOOTER_MARK} (4) | CRC32C of the next 16 bytes (4) | entries (8) | blocks (8)
 * </pre>
 *
 * A block's payload is whole entries, each key length (int), value length (int), expiry time (long, 0 for none),
 * the key, the value. A block holds up to {@link #BLOCK_BYTES} bytes of entries, or one larger entry alone. The
 * footer's counts must match what the blocks hold.
 *
 * <p>The snapshot is <em>fuzzy</em>: writers go on while it is taken, so an entry may be newer than the from
 * sequence. Replaying the log from that sequence repairs it, since every log record holds a key's whole value or an
 * absolute time and replaying one twice changes nothing.
 */
public final class SnapshotLayout
{
    /**
     * "agni-snp" read as a little-endian long.
     */
    public static final long MAGIC = 0x706e732d696e6761L;

    /**
     * The format version this code writes and reads.
     */
    public static final int VERSION = 1;

    /**
     * Bytes of the header.
     */
    public static final int HEADER_LENGTH = 64;

    /**
     * Bytes of a block header.
     */
    public static final int BLOCK_HEADER_LENGTH = 8;

    /**
     * Entry bytes a block holds before the next one starts (a larger entry gets a block of its own).
     */
    public static final int BLOCK_BYTES = 64 * 1024;

    /**
     * Bytes of an entry before its key.
     */
    public static final int ENTRY_FIXED_LENGTH = 2 * Integer.BYTES + Long.BYTES;

    /**
     * Where a block's length would be, the footer's mark.
     */
    public static final int FOOTER_MARK = -1;

    /**
     * Bytes of the footer.
     */
    public static final int FOOTER_LENGTH = 24;

    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    static final int VERSION_OFFSET = 8;
    static final int HEADER_LENGTH_OFFSET = 12;
    static final int FROM_SEQUENCE_OFFSET = 16;
    static final int CREATED_AT_OFFSET = 24;
    static final int HEADER_CRC_OFFSET = 60;

    static final String TEMPORARY_SUFFIX = ".tmp";

    private static final String PREFIX = "snapshot-";
    private static final String SUFFIX = ".snap";
    private static final int DIGITS = 16;

    private SnapshotLayout()
    {
    }

    /**
     * The file name of a snapshot.
     *
     * @param fromSequence the log sequence it is consistent from.
     * @return {@code snapshot-<sequence in 16 hex digits>.snap}.
     */
    public static String fileName(final long fromSequence)
    {
        final String hex = Long.toHexString(fromSequence);
        return PREFIX + "0".repeat(DIGITS - hex.length()) + hex + SUFFIX;
    }

    /**
     * The from sequence in a snapshot's file name.
     *
     * @param fileName a file name.
     * @return the sequence, or {@code -1} when the name is not a snapshot's.
     */
    public static long fromSequenceOf(final String fileName)
    {
        if (fileName.length() != PREFIX.length() + DIGITS + SUFFIX.length() ||
            !fileName.startsWith(PREFIX) || !fileName.endsWith(SUFFIX))
        {
            return -1;
        }
        try
        {
            final long sequence = Long.parseUnsignedLong(fileName.substring(PREFIX.length(), PREFIX.length() + DIGITS),
                16);
            return sequence > 0 ? sequence : -1;
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * Whether a file name is a snapshot left half-written.
     *
     * @param fileName a file name.
     * @return whether it is a snapshot's name with {@link #TEMPORARY_SUFFIX}.
     */
    public static boolean isTemporary(final String fileName)
    {
        return fileName.endsWith(TEMPORARY_SUFFIX) &&
            fromSequenceOf(fileName.substring(0, fileName.length() - TEMPORARY_SUFFIX.length())) > 0;
    }

    static void writeHeader(final ByteBuffer buffer, final Crc crc, final long fromSequence, final long createdAt)
    {
        for (int i = 0; i < HEADER_LENGTH; i++)
        {
            buffer.put(i, (byte)0);
        }
        buffer.putLong(0, MAGIC);
        buffer.putInt(VERSION_OFFSET, VERSION);
        buffer.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        buffer.putLong(FROM_SEQUENCE_OFFSET, fromSequence);
        buffer.putLong(CREATED_AT_OFFSET, createdAt);
        buffer.putInt(HEADER_CRC_OFFSET, crc.of(0, HEADER_CRC_OFFSET));
    }

    static String headerProblem(final ByteBuffer buffer, final Crc crc)
    {
        if (buffer.getLong(0) != MAGIC)
        {
            return "no snapshot magic number";
        }
        if (buffer.getInt(HEADER_CRC_OFFSET) != crc.of(0, HEADER_CRC_OFFSET))
        {
            return "the header's checksum does not match";
        }
        if (buffer.getInt(VERSION_OFFSET) != VERSION)
        {
            return "format version " + buffer.getInt(VERSION_OFFSET) + ", this agni reads " + VERSION;
        }
        if (buffer.getInt(HEADER_LENGTH_OFFSET) != HEADER_LENGTH)
        {
            return "header length " + buffer.getInt(HEADER_LENGTH_OFFSET);
        }
        return null;
    }
}
