package io.agni.store.log;

import io.agni.store.file.Crc;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The on-disk format of the write-ahead log: segment files, each a header followed by records.
 *
 * <h2>Segment file</h2>
 * A segment is pre-allocated at its full capacity before it is named: zero-filled when new, or a segment a
 * checkpoint freed, reused with its old records in it ({@code wal-recycled-<old id>.tmp} until then). Old records
 * are told from the new ones by their sequences, which are lower than the segment's first, and every append zeroes
 * the record header after its own record, so the records of a segment end at a zero header or at an old record. Its
 * name is {@code wal-<segment id, 16 hex digits>.log}. Every number is little-endian.
 *
 * <pre>
 *   0      8        12       16           24               32         40            60      64
 *  +------+--------+--------+------------+----------------+----------+-------------+-------+
 *  | magic| version| header | segment id | first sequence | capacity | reserved (0)| CRC32C|
 *  |  8   |   4    | length |     8      |       8        |    8     |     20      |   4   |
 *  +------+--------+--------+------------+----------------+----------+-------------+-------+
 * </pre>
 *
 * The CRC32C covers bytes 0 to 59. Records start at {@link #SEGMENT_HEADER_LENGTH}.
 *
 * <h2>Record</h2>
 * <pre>
 *   0        4        8      9            16         24
 *  +--------+--------+------+------------+----------+----------------------+---------+
 *  | length | CRC32C | type | reserved 0 | sequence | payload (length B)   | padding |
 *  +--------+--------+------+------------+----------+----------------------+---------+
 * </pre>
 *
 * {@code length} is the payload's length; a record takes {@link #recordLength(int)} bytes, padded with zeros to a
 * multiple of {@link #RECORD_ALIGNMENT}, so every record header is aligned. The CRC32C covers the length field and
 * everything from the type to the end of the payload. Records never span segments: a record that does not fit
 * starts the next segment. A header of {@link #RECORD_HEADER_LENGTH} zero bytes, or a record whose sequence is below
 * the segment's first, marks the end of a segment's records. Sequences grow by one from record to record across segments;
 * a segment's header holds the sequence of its first record.
 *
 * <h2>Payloads</h2>
 * <ul>
 *   <li>{@link #SET}: key length (int), value length (int), expiry time in milliseconds since the epoch (long,
 *   {@link #NO_EXPIRY} for none), the key, the value. Every write that leaves a value (SET, INCR, APPEND, SETRANGE,
 *   ...) is logged as the value it leaves, so replaying a record twice gives the same state.</li>
 *   <li>{@link #DELETE}: key length (int), the key. Also logged for expirations and evictions.</li>
 *   <li>{@link #EXPIRE}: key length (int), expiry time (long, {@link #NO_EXPIRY} removes it), the key. Replayed
 *   only when the key is present.</li>
 *   <li>{@link #CLEAR}: empty. Removes every entry.</li>
 *   <li>{@link #BATCH}: operation count (int), then that many operations, each a type byte ({@link #SET},
 *   {@link #DELETE}, {@link #EXPIRE}, or {@link #CLEAR} in a transaction's batch) followed by that type's payload.
 *   Applied all or nothing, in order.</li>
 *   <li>{@link #SYNCED}: a sequence (long): every record with a lower sequence had reached the device when this
 *   record was written. Not a change: it carries the sequence the next record will have and does not use it up.
 *   Written before the first record appended after a sync that advanced the durable point, so that replay can
 *   tell a loss of writes that were never synced (a power loss: the operating system writes dirty pages back in
 *   any order, so a later page may reach the device while an earlier one does not) from damage to what was synced
 *   (corruption).</li>
 * </ul>
 *
 * <h2>Versions</h2>
 * Version 2 added {@link #SYNCED} and {@link #CLEAR} inside a {@link #BATCH}; version 1 logs (which have neither)
 * are read as they are.
 */
public final class LogLayout
{
    /**
     * "agni-wal" read as a little-endian long.
     */
    public static final long MAGIC = 0x6c61772d696e6761L;

    /**
     * The format version this code writes and reads.
     */
    public static final int VERSION = 2;

    /**
     * The oldest format version this code reads.
     */
    public static final int OLDEST_READABLE_VERSION = 1;

    /**
     * Bytes of a segment header.
     */
    public static final int SEGMENT_HEADER_LENGTH = 64;

    /**
     * Bytes of a record header.
     */
    public static final int RECORD_HEADER_LENGTH = 24;

    /**
     * Records start at multiples of this.
     */
    public static final int RECORD_ALIGNMENT = 8;

    /**
     * The expiry time of an entry that does not expire.
     */
    public static final long NO_EXPIRY = 0L;

    /**
     * Record type: a key and the value it now has.
     */
    public static final byte SET = 1;

    /**
     * Record type: a key that is no longer present.
     */
    public static final byte DELETE = 2;

    /**
     * Record type: a key's new expiry time.
     */
    public static final byte EXPIRE = 3;

    /**
     * Record type: every entry removed.
     */
    public static final byte CLEAR = 4;

    /**
     * Record type: several operations applied together.
     */
    public static final byte BATCH = 5;

    /**
     * Record type: the durable point, the sequence below which every record had been synced.
     */
    public static final byte SYNCED = 6;

    /**
     * Bytes of a {@link #SYNCED} payload.
     */
    public static final int SYNCED_LENGTH = Long.BYTES;

    /**
     * Bytes of a {@link #SET} payload before its key: key length, value length, expiry time.
     */
    public static final int SET_FIXED_LENGTH = 2 * Integer.BYTES + Long.BYTES;

    /**
     * Bytes of a {@link #DELETE} payload before its key.
     */
    public static final int DELETE_FIXED_LENGTH = Integer.BYTES;

    /**
     * Bytes of an {@link #EXPIRE} payload before its key.
     */
    public static final int EXPIRE_FIXED_LENGTH = Integer.BYTES + Long.BYTES;

    /**
     * Bytes of a {@link #BATCH} payload before its first operation.
     */
    public static final int BATCH_FIXED_LENGTH = Integer.BYTES;

    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int HEADER_LENGTH_OFFSET = 12;
    static final int SEGMENT_ID_OFFSET = 16;
    static final int FIRST_SEQUENCE_OFFSET = 24;
    static final int CAPACITY_OFFSET = 32;
    static final int SEGMENT_CRC_OFFSET = 60;

    static final int LENGTH_OFFSET = 0;
    static final int CRC_OFFSET = 4;
    static final int TYPE_OFFSET = 8;
    static final int SEQUENCE_OFFSET = 16;

    private static final String SEGMENT_PREFIX = "wal-";
    private static final String RECYCLED_PREFIX = "wal-recycled-";
    private static final String SEGMENT_SUFFIX = ".log";
    private static final int SEGMENT_ID_DIGITS = 16;

    private LogLayout()
    {
    }

    /**
     * The bytes a record with a payload of {@code payloadLength} takes, header and padding included.
     *
     * @param payloadLength the payload's length.
     * @return the aligned record length.
     */
    public static long recordLength(final int payloadLength)
    {
        return BitUtil.align((long)RECORD_HEADER_LENGTH + payloadLength, RECORD_ALIGNMENT);
    }

    /**
     * The file name of a segment.
     *
     * @param segmentId the segment's id, from 1.
     * @return {@code wal-<id in 16 hex digits>.log}.
     */
    public static String segmentFileName(final long segmentId)
    {
        final String hex = Long.toHexString(segmentId);
        return SEGMENT_PREFIX + "0".repeat(SEGMENT_ID_DIGITS - hex.length()) + hex + SEGMENT_SUFFIX;
    }

    /**
     * The temporary name of a freed segment kept for reuse; one left over when a store opens is deleted.
     *
     * @param segmentId the id the segment had.
     * @return {@code wal-recycled-<id in 16 hex digits>.tmp}.
     */
    public static String recycledFileName(final long segmentId)
    {
        final String hex = Long.toHexString(segmentId);
        return RECYCLED_PREFIX + "0".repeat(SEGMENT_ID_DIGITS - hex.length()) + hex + ".tmp";
    }

    /**
     * Whether a file name is a freed segment's ({@link #recycledFileName}).
     *
     * @param fileName a file name.
     * @return whether it is.
     */
    public static boolean isRecycledFileName(final String fileName)
    {
        return fileName.startsWith(RECYCLED_PREFIX) && fileName.endsWith(".tmp");
    }

    /**
     * The segment id in a segment's file name.
     *
     * @param fileName a file name.
     * @return the id, or {@code -1} when the name is not a segment's.
     */
    public static long segmentIdOf(final String fileName)
    {
        if (fileName.length() != SEGMENT_PREFIX.length() + SEGMENT_ID_DIGITS + SEGMENT_SUFFIX.length() ||
            !fileName.startsWith(SEGMENT_PREFIX) || !fileName.endsWith(SEGMENT_SUFFIX))
        {
            return -1;
        }
        try
        {
            final long id = Long.parseUnsignedLong(
                fileName.substring(SEGMENT_PREFIX.length(), SEGMENT_PREFIX.length() + SEGMENT_ID_DIGITS), 16);
            return id > 0 ? id : -1;
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * Writes a segment header.
     *
     * @param buffer        the segment's buffer.
     * @param crc           a checksum over the same memory.
     * @param segmentId     the segment's id.
     * @param firstSequence the sequence its first record will have.
     * @param capacity      the segment's length in bytes.
     */
    public static void writeSegmentHeader(
        final MutableDirectBuffer buffer, final Crc crc, final long segmentId, final long firstSequence,
        final long capacity)
    {
        buffer.setMemory(0, SEGMENT_HEADER_LENGTH, (byte)0);
        buffer.putLong(MAGIC_OFFSET, MAGIC, ORDER);
        buffer.putInt(VERSION_OFFSET, VERSION, ORDER);
        buffer.putInt(HEADER_LENGTH_OFFSET, SEGMENT_HEADER_LENGTH, ORDER);
        buffer.putLong(SEGMENT_ID_OFFSET, segmentId, ORDER);
        buffer.putLong(FIRST_SEQUENCE_OFFSET, firstSequence, ORDER);
        buffer.putLong(CAPACITY_OFFSET, capacity, ORDER);
        buffer.putInt(SEGMENT_CRC_OFFSET, crc.of(0, SEGMENT_CRC_OFFSET), ORDER);
    }

    /**
     * What is wrong with a segment header.
     *
     * @param buffer    the segment's buffer.
     * @param crc       a checksum over the same memory.
     * @param segmentId the id its file name gives.
     * @param capacity  the file's length, which may be less than the header's (a truncated file) but not more.
     * @return {@code null} when the header is valid, else the reason.
     */
    public static String segmentHeaderProblem(
        final DirectBuffer buffer, final Crc crc, final long segmentId, final long capacity)
    {
        if (capacity < SEGMENT_HEADER_LENGTH)
        {
            return "the file is shorter than a segment header (" + capacity + " bytes)";
        }
        if (buffer.getLong(MAGIC_OFFSET, ORDER) != MAGIC)
        {
            return "no segment magic number";
        }
        if (buffer.getInt(SEGMENT_CRC_OFFSET, ORDER) != crc.of(0, SEGMENT_CRC_OFFSET))
        {
            return "the segment header's checksum does not match";
        }
        final int version = buffer.getInt(VERSION_OFFSET, ORDER);
        if (version < OLDEST_READABLE_VERSION || version > VERSION)
        {
            return "format version " + version + ", this agni reads " + OLDEST_READABLE_VERSION + " to " + VERSION;
        }
        if (buffer.getInt(HEADER_LENGTH_OFFSET, ORDER) != SEGMENT_HEADER_LENGTH)
        {
            return "header length " + buffer.getInt(HEADER_LENGTH_OFFSET, ORDER);
        }
        if (buffer.getLong(SEGMENT_ID_OFFSET, ORDER) != segmentId)
        {
            return "segment id " + buffer.getLong(SEGMENT_ID_OFFSET, ORDER) + " in a file named for " + segmentId;
        }
        if (buffer.getLong(CAPACITY_OFFSET, ORDER) < capacity)
        {
            return "capacity " + buffer.getLong(CAPACITY_OFFSET, ORDER) + " in a file of " + capacity + " bytes";
        }
        return null;
    }

    /**
     * The first sequence in a valid segment header.
     *
     * @param buffer the segment's buffer.
     * @return the sequence of the segment's first record.
     */
    public static long firstSequence(final DirectBuffer buffer)
    {
        return buffer.getLong(FIRST_SEQUENCE_OFFSET, ORDER);
    }

    /**
     * The length a segment was created with.
     *
     * @param buffer the segment's buffer.
     * @return the capacity in its header.
     */
    public static long headerCapacity(final DirectBuffer buffer)
    {
        return buffer.getLong(CAPACITY_OFFSET, ORDER);
    }

    /**
     * Whether a record type is one this version writes.
     *
     * @param type a type byte.
     * @return whether it is {@link #SET} to {@link #SYNCED}.
     */
    public static boolean isRecordType(final byte type)
    {
        return type >= SET && type <= SYNCED;
    }

    /**
     * The CRC32C a record's header must carry.
     *
     * @param crc    a checksum over the segment's memory.
     * @param offset the record's offset.
     * @param length its payload length.
     * @return the checksum over the length field and the type to the payload's end.
     */
    public static int recordCrc(final Crc crc, final int offset, final int length)
    {
        return crc.of(offset + LENGTH_OFFSET, Integer.BYTES,
            offset + TYPE_OFFSET, RECORD_HEADER_LENGTH - TYPE_OFFSET + length);
    }

    /**
     * A record's payload length.
     *
     * @param buffer the segment's buffer.
     * @param offset the record's offset.
     * @return the length field.
     */
    public static int payloadLength(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + LENGTH_OFFSET, ORDER);
    }

    /**
     * A record's type.
     *
     * @param buffer the segment's buffer.
     * @param offset the record's offset.
     * @return the type byte.
     */
    public static byte type(final DirectBuffer buffer, final int offset)
    {
        return buffer.getByte(offset + TYPE_OFFSET);
    }

    /**
     * A record's sequence.
     *
     * @param buffer the segment's buffer.
     * @param offset the record's offset.
     * @return the sequence field.
     */
    public static long sequence(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + SEQUENCE_OFFSET, ORDER);
    }

    /**
     * Whether the record header at {@code offset} holds nothing but zeros.
     *
     * @param buffer the segment's buffer.
     * @param offset the record's offset.
     * @return whether this is where the segment's records end.
     */
    public static boolean isEndMarker(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset) == 0 && buffer.getLong(offset + 8) == 0 && buffer.getLong(offset + 16) == 0;
    }

    /**
     * Writes a record's header fields other than the checksum; the checksum goes last, with
     * {@link #sealRecord}.
     *
     * @param buffer   the segment's buffer.
     * @param offset   the record's offset.
     * @param length   the payload's length.
     * @param type     the record type.
     * @param sequence the record's sequence.
     */
    public static void writeRecordHeader(
        final MutableDirectBuffer buffer, final int offset, final int length, final byte type, final long sequence)
    {
        buffer.putInt(offset + LENGTH_OFFSET, length, ORDER);
        buffer.putInt(offset + CRC_OFFSET, 0, ORDER);
        buffer.putLong(offset + TYPE_OFFSET, 0L);
        buffer.putByte(offset + TYPE_OFFSET, type);
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence, ORDER);
    }

    /**
     * Zeroes a record's padding and writes its checksum, once its payload is in place.
     *
     * @param buffer the segment's buffer.
     * @param crc    a checksum over the same memory.
     * @param offset the record's offset.
     * @param length the payload's length.
     */
    public static void sealRecord(final MutableDirectBuffer buffer, final Crc crc, final int offset, final int length)
    {
        final int end = offset + RECORD_HEADER_LENGTH + length;
        final int padded = offset + (int)recordLength(length);
        if (padded > end)
        {
            buffer.setMemory(end, padded - end, (byte)0);
        }
        buffer.putInt(offset + CRC_OFFSET, recordCrc(crc, offset, length), ORDER);
    }

    /**
     * A record's checksum field.
     *
     * @param buffer the segment's buffer.
     * @param offset the record's offset.
     * @return the stored CRC32C.
     */
    public static int storedCrc(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + CRC_OFFSET, ORDER);
    }

    /**
     * Whether a record's reserved header bytes are zero.
     *
     * @param buffer the segment's buffer.
     * @param offset the record's offset.
     * @return whether bytes 9 to 15 of the header are zero.
     */
    public static boolean reservedClear(final DirectBuffer buffer, final int offset)
    {
        return (buffer.getLong(offset + TYPE_OFFSET, ORDER) & ~0xFFL) == 0;
    }
}
