package io.agni.store.shard;

import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.arena.Segment;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The zero-copy GET of the common entry shapes, in locals: an entry whose key and value lengths are each below 128
 * bytes ({@link EntryLayout}: one-byte key length, one-byte value length), with or without an expiry time, whose
 * value is copied from the segment buffer the probe already holds. Without an expiry time the whole header (flags
 * and both lengths) comes from one 8-byte load; with one, the flags byte, the expiry time and the two lengths
 * follow each other. Anything else, and an entry whose expiry time has passed, returns {@link #SLOW_PATH}, and the
 * shard decodes the entry with an {@link io.agni.store.arena.EntryCursor} (and removes it if it has expired).
 *
 * <h2>Concurrency</h2>
 * Runs under an optimistic stamp: memory may be changing, so every offset and length is checked against the
 * segment's capacity before use, and an impossible state returns {@link Shard#INCONSISTENT}; the caller validates
 * the stamp before trusting any result (docs/architecture.md, "Reads").
 *
 * <h2>Bounds</h2>
 * Those checks are what keeps every read inside the segment, so the segment's and the table's memory is read
 * without Agrona's per-access bounds check, which would repeat them (a GET made about ten such checks, a quarter
 * of its instructions: docs/experiments/get-path.md). The caller's buffers are checked as Agrona would, once each:
 * the key's range by the caller, with {@link DirectBuffer#boundsCheck} before it hashes the key
 * ({@link io.agni.store.hash.KeyHash#hashInRange}), the destination here, its offset and its end against its
 * capacity (an expandable one grows through {@link MutableDirectBuffer#checkLimit}; a negative offset or a fixed
 * destination too small goes to the general path, which reports it). A table's slot index is masked, and a
 * table's slots hold {@code mask + 1} slots.
 * <p>
 * A table or segment retired while it reads stays allocated until it returns: the caller is inside an operation of the
 * store's gate, so the retired buffer waits in the limbo until this thread leaves that operation, and the limbo holds
 * the buffer's only reference, so no garbage collector can free it first (docs/architecture.md, "Reclamation"). The
 * locals here need no reachability fence.
 * <p>
 * A key of 8 to 16 bytes is compared as two overlapping 8-byte words read once before the probe loop; a key of 128
 * bytes or more cannot have a small header and goes to the general path at once.
 */
final class FastRead
{
    /**
     * The entry is not of a common shape, or has expired: read it the general way.
     */
    static final int SLOW_PATH = -5;

    private static final int SMALL_LENGTH_LIMIT = 0x80;
    private static final int SMALL_HEADER_LENGTH = 3;

    /**
     * Where the two one-byte lengths of an entry with an expiry time start: after the flags and the expiry time.
     */
    private static final int EXPIRING_LENGTHS_OFFSET = EntryLayout.EXPIRE_AT_OFFSET + Long.BYTES;

    /**
     * The header length of an entry with an expiry time and two one-byte lengths.
     */
    private static final int EXPIRING_HEADER_LENGTH = EXPIRING_LENGTHS_OFFSET + 2;

    /**
     * The header bits that an entry of the common shape has in a fixed state: the flags byte (zero), the key
     * length byte (the key's length, below 128) and the top bit of the value length byte (zero, so below 128).
     */
    private static final long SMALL_HEADER_MASK = 0x80_FF_FFL;

    /**
     * The header bits of which any one set means the entry has neither common shape, or is not this key.
     */
    private static final long NOT_SMALL_MASK = 0x80_80_FFL;

    /**
     * Of the two length bytes of an entry with an expiry time: the key length and the value length's top bit.
     */
    private static final int EXPIRING_LENGTHS_MASK = 0x80_FF;

    /**
     * Of the two length bytes of an entry with an expiry time: either top bit set means a longer length.
     */
    private static final int NOT_SMALL_LENGTHS_MASK = 0x80_80;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private FastRead()
    {
    }

    private static long littleEndian(final long v)
    {
        return LITTLE_ENDIAN ? v : Long.reverseBytes(v);
    }

    /**
     * Finds a key with a small header and copies its value into {@code dst}. Kept below HotSpot's inlining limit for
     * hot methods (325 bytes of bytecode), as is {@link #copyIfKey}, so that a GET compiles into one method with no
     * call: the probe loop is here, the entry's decoding and copy there.
     *
     * @param clock read only when an entry of this key has an expiry time.
     * @return the value's length when found and copied, or {@link Shard#ABSENT}, {@link Shard#INCONSISTENT} or
     * {@link #SLOW_PATH} (also when {@code dst} cannot hold the value, so that the general path reports it).
     */
    static int readValue(
        final IndexTable table, final Segment[] segments, final int tag,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset, final EpochClock clock)
    {
        if (keyLength >= SMALL_LENGTH_LIMIT)
        {
            return SLOW_PATH;
        }
        final boolean wordKey = keyLength >= Long.BYTES && keyLength <= 2 * Long.BYTES;
        long head = 0;
        long tail = 0;
        if (wordKey)
        {
            final byte[] keyArray = key.byteArray();
            final long keyAddress = key.addressOffset() + keyOffset;
            head = UnsafeApi.getLong(keyArray, keyAddress);
            tail = UnsafeApi.getLong(keyArray, keyAddress + keyLength - Long.BYTES);
        }
        // a table's slots hold (mask + 1) slots, so a masked index is always inside them
        final UnsafeBuffer slots = table.slots;
        final byte[] slotArray = slots.byteArray();
        final long slotAddress = slots.addressOffset();
        final int mask = table.mask;
        int i = tag & mask;
        for (int probes = 0; probes <= mask; probes++, i = (i + 1) & mask)
        {
            final long slot = UnsafeApi.getLong(slotArray, slotAddress + IndexLayout.slotOffset(i));
            if (slot == IndexLayout.EMPTY)
            {
                return Shard.ABSENT;
            }
            if (IndexLayout.tagOf(slot) == tag)
            {
                final int segmentId = IndexLayout.segmentOf(slot);
                // unsigned, as the array's own check is, so that the compiler makes the two one
                final Segment segment =
                    Integer.compareUnsigned(segmentId, segments.length) < 0 ? segments[segmentId] : null;
                if (segment == null)
                {
                    return Shard.INCONSISTENT;
                }
                final int r = copyIfKey(segment.buffer, IndexLayout.offsetOf(slot), key, keyOffset, keyLength,
                    wordKey, head, tail, dst, dstOffset, clock);
                if (r != NOT_THIS_KEY)
                {
                    if (r >= 0)
                    {
                        table.markRead(i);
                    }
                    return r;
                }
            }
        }
        return Shard.INCONSISTENT;
    }

    /**
     * The entry at {@code at} is another key's (its tag matched): probe on.
     */
    private static final int NOT_THIS_KEY = -6;

    /**
     * Decodes the header of the entry at {@code at} and, if it is the key's and of a common shape, copies its value.
     *
     * @return the value's length, {@link #NOT_THIS_KEY}, {@link Shard#INCONSISTENT} or {@link #SLOW_PATH}.
     */
    private static int copyIfKey(
        final UnsafeBuffer buffer, final int at, final DirectBuffer key, final int keyOffset, final int keyLength,
        final boolean wordKey, final long head, final long tail,
        final MutableDirectBuffer dst, final int dstOffset, final EpochClock clock)
    {
        final int capacity = buffer.capacity();
        if (at > capacity - Long.BYTES)
        {
            return SLOW_PATH;
        }
        final byte[] array = buffer.byteArray();
        final long address = buffer.addressOffset();
        final long header = littleEndian(UnsafeApi.getLong(array, address + at));
        final int keyAt;
        final int valueLength;
        if ((header & SMALL_HEADER_MASK) == (long)keyLength << 8)
        {
            keyAt = at + SMALL_HEADER_LENGTH;
            valueLength = (int)(header >>> 16) & 0xFF;
        }
        else if ((header & 0xFF) == EntryLayout.HAS_EXPIRY)
        {
            final int lengths = expiringLengths(buffer, at, capacity, keyLength);
            if (lengths < 0)
            {
                return lengths;
            }
            keyAt = at + EXPIRING_HEADER_LENGTH;
            valueLength = lengths;
        }
        else
        {
            return (header & NOT_SMALL_MASK) != 0 ? SLOW_PATH : NOT_THIS_KEY;
        }
        final int valueAt = keyAt + keyLength;
        if (valueAt + valueLength > capacity)
        {
            return Shard.INCONSISTENT;
        }
        if (!(wordKey ?
            UnsafeApi.getLong(array, address + keyAt) == head &&
                UnsafeApi.getLong(array, address + valueAt - Long.BYTES) == tail :
            EntryCursor.bytesEqual(buffer, keyAt, key, keyOffset, keyLength)))
        {
            return NOT_THIS_KEY;
        }
        if (keyAt != at + SMALL_HEADER_LENGTH &&
            UnsafeApi.getLong(array, address + at + EntryLayout.EXPIRE_AT_OFFSET) <= clock.time())
        {
            // expired: the general path removes it
            return SLOW_PATH;
        }
        return copyOut(array, address + valueAt, valueLength, dst, dstOffset);
    }

    /**
     * Copies a value of the segment's, whose range is checked, into the caller's destination, checked here (the
     * store also refuses a negative offset before it reads: {@code Shards.checkDestination}).
     *
     * @return the value's length, or {@link #SLOW_PATH} for a negative offset or a destination too small for it.
     */
    private static int copyOut(
        final byte[] array, final long address, final int valueLength,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        final long end = (long)dstOffset + valueLength;
        if (dstOffset < 0 || end > dst.capacity())
        {
            if (dstOffset < 0 || !dst.isExpandable())
            {
                return SLOW_PATH;
            }
            dst.checkLimit((int)end);
            if (end > dst.capacity())
            {
                // an expandable buffer that did not grow: the general path reports it
                return SLOW_PATH;
            }
        }
        copySmall(array, address, dst.byteArray(), dst.addressOffset() + dstOffset, valueLength);
        return valueLength;
    }

    /**
     * Copies a value of the common shape (below 128 bytes) as straight-line 8-byte words: a jump into a run of
     * word copies (one per whole word before the last eight bytes), then the last eight bytes, which may overlap the
     * word before (the two ranges are apart: an arena's and a caller's). For a value of a hundred bytes this is
     * thirteen loads and stores; {@code Unsafe.copyMemory}'s stub, which handles any length and alignment, and a
     * loop, which the compiler splits into three, each cost about twice that (docs/experiments/get-path.md).
     */
    @SuppressWarnings("fallthrough")
    private static void copySmall(
        final byte[] src, final long srcAddress, final byte[] dst, final long dstAddress, final int length)
    {
        if (length < Long.BYTES)
        {
            for (int i = 0; i < length; i++)
            {
                UnsafeApi.putByte(dst, dstAddress + i, UnsafeApi.getByte(src, srcAddress + i));
            }
            return;
        }
        assert length < SMALL_LENGTH_LIMIT : length;
        final int last = length - Long.BYTES;
        switch ((last + Long.BYTES - 1) >>> 3)
        {
            case 15:
                copyWord(src, srcAddress, dst, dstAddress, 112);
                // fall through
            case 14:
                copyWord(src, srcAddress, dst, dstAddress, 104);
                // fall through
            case 13:
                copyWord(src, srcAddress, dst, dstAddress, 96);
                // fall through
            case 12:
                copyWord(src, srcAddress, dst, dstAddress, 88);
                // fall through
            case 11:
                copyWord(src, srcAddress, dst, dstAddress, 80);
                // fall through
            case 10:
                copyWord(src, srcAddress, dst, dstAddress, 72);
                // fall through
            case 9:
                copyWord(src, srcAddress, dst, dstAddress, 64);
                // fall through
            case 8:
                copyWord(src, srcAddress, dst, dstAddress, 56);
                // fall through
            case 7:
                copyWord(src, srcAddress, dst, dstAddress, 48);
                // fall through
            case 6:
                copyWord(src, srcAddress, dst, dstAddress, 40);
                // fall through
            case 5:
                copyWord(src, srcAddress, dst, dstAddress, 32);
                // fall through
            case 4:
                copyWord(src, srcAddress, dst, dstAddress, 24);
                // fall through
            case 3:
                copyWord(src, srcAddress, dst, dstAddress, 16);
                // fall through
            case 2:
                copyWord(src, srcAddress, dst, dstAddress, 8);
                // fall through
            case 1:
                copyWord(src, srcAddress, dst, dstAddress, 0);
                // fall through
            default:
                break;
        }
        copyWord(src, srcAddress, dst, dstAddress, last);
    }

    private static void copyWord(
        final byte[] src, final long srcAddress, final byte[] dst, final long dstAddress, final int at)
    {
        UnsafeApi.putLong(dst, dstAddress + at, UnsafeApi.getLong(src, srcAddress + at));
    }

    /**
     * The value length of an entry with an expiry time whose key length is the key's, if it is of the common shape
     * (its key is not compared yet, nor its expiry time).
     *
     * @return the value's length, or {@link #NOT_THIS_KEY}, {@link Shard#INCONSISTENT} or {@link #SLOW_PATH}.
     */
    private static int expiringLengths(
        final UnsafeBuffer buffer, final int at, final int capacity, final int keyLength)
    {
        if (at > capacity - EXPIRING_HEADER_LENGTH)
        {
            return Shard.INCONSISTENT;
        }
        final int lengths = buffer.getShort(at + EXPIRING_LENGTHS_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        if ((lengths & EXPIRING_LENGTHS_MASK) != keyLength)
        {
            return (lengths & NOT_SMALL_LENGTHS_MASK) != 0 ? SLOW_PATH : NOT_THIS_KEY;
        }
        return lengths >>> 8;
    }
}
