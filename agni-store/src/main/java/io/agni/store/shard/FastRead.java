package io.agni.store.shard;

import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.arena.Segment;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The zero-copy GET of the common entry, in locals: an entry with no expiry time whose key and value lengths are
 * each below 128 bytes, so that its whole header ({@link EntryLayout}: flags, one-byte key length, one-byte value
 * length) comes from one 8-byte load, and its value is copied from the segment buffer the probe already holds.
 * Anything else returns {@link #SLOW_PATH} and the shard decodes the entry with an
 * {@link io.agni.store.arena.EntryCursor}.
 *
 * <h2>Concurrency</h2>
 * Runs under an optimistic stamp: memory may be changing, so every offset and length is checked against the
 * segment's capacity before use, and an impossible state returns {@link Shard#INCONSISTENT}; the caller validates
 * the stamp before trusting any result (docs/architecture.md, "Reads").
 * <p>
 * A key of 8 to 16 bytes is compared as two overlapping 8-byte words read once before the probe loop; a key of 128
 * bytes or more cannot have a small header and goes to the general path at once.
 */
final class FastRead
{
    /**
     * The entry is not of the common shape: decode it the general way.
     */
    static final int SLOW_PATH = -5;

    private static final int SMALL_LENGTH_LIMIT = 0x80;
    private static final int SMALL_HEADER_LENGTH = 3;

    /**
     * The header bits that an entry of the common shape has in a fixed state: the flags byte (zero), the key
     * length byte (the key's length, below 128) and the top bit of the value length byte (zero, so below 128).
     */
    private static final long SMALL_HEADER_MASK = 0x80_FF_FFL;

    /**
     * The header bits of which any one set means the entry is not of the common shape.
     */
    private static final long NOT_SMALL_MASK = 0x80_80_FFL;

    private FastRead()
    {
    }

    /**
     * Finds a key with a small header and copies its value into {@code dst}.
     *
     * @return the value's length when found and copied, or {@link Shard#ABSENT}, {@link Shard#INCONSISTENT} or
     * {@link #SLOW_PATH} (also when {@code dst} cannot hold the value, so that the general path reports it).
     */
    static int readValue(
        final IndexTable table, final Segment[] segments, final int tag,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        if (keyLength >= SMALL_LENGTH_LIMIT)
        {
            return SLOW_PATH;
        }
        final boolean wordKey = keyLength >= Long.BYTES && keyLength <= 2 * Long.BYTES;
        final long head = wordKey ? key.getLong(keyOffset) : 0;
        final long tail = wordKey ? key.getLong(keyOffset + keyLength - Long.BYTES) : 0;
        final long smallHeader = (long)keyLength << 8;
        final UnsafeBuffer slots = table.slots;
        final int mask = table.mask;
        int i = tag & mask;
        for (int probes = 0; probes <= mask; probes++)
        {
            final long slot = slots.getLong(IndexLayout.slotOffset(i));
            if (slot == IndexLayout.EMPTY)
            {
                return Shard.ABSENT;
            }
            if (IndexLayout.tagOf(slot) == tag)
            {
                final int segmentId = IndexLayout.segmentOf(slot);
                if (segmentId >= segments.length)
                {
                    return Shard.INCONSISTENT;
                }
                final Segment segment = segments[segmentId];
                if (segment == null)
                {
                    return Shard.INCONSISTENT;
                }
                final UnsafeBuffer buffer = segment.buffer;
                final int capacity = buffer.capacity();
                final int at = IndexLayout.offsetOf(slot);
                if (at > capacity - Long.BYTES)
                {
                    return SLOW_PATH;
                }
                final long header = buffer.getLong(at, ByteOrder.LITTLE_ENDIAN);
                if ((header & SMALL_HEADER_MASK) == smallHeader)
                {
                    final int keyAt = at + SMALL_HEADER_LENGTH;
                    final int valueAt = keyAt + keyLength;
                    final int valueLength = (int)(header >>> 16) & 0xFF;
                    if (valueAt + valueLength > capacity)
                    {
                        return Shard.INCONSISTENT;
                    }
                    if (wordKey ?
                        buffer.getLong(keyAt) == head && buffer.getLong(valueAt - Long.BYTES) == tail :
                        EntryCursor.bytesEqual(buffer, keyAt, key, keyOffset, keyLength))
                    {
                        if (!dst.isExpandable() && (long)dstOffset + valueLength > dst.capacity())
                        {
                            return SLOW_PATH;
                        }
                        dst.putBytes(dstOffset, buffer, valueAt, valueLength);
                        return valueLength;
                    }
                }
                else if ((header & NOT_SMALL_MASK) != 0)
                {
                    return SLOW_PATH;
                }
            }
            i = (i + 1) & mask;
        }
        return Shard.INCONSISTENT;
    }
}
