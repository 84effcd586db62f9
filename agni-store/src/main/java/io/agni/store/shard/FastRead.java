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
 * A key of 8 to 16 bytes is compared as two overlapping 8-byte words read once before the probe loop.
 */
final class FastRead
{
    /**
     * The entry is not of the common shape: decode it the general way.
     */
    static final int SLOW_PATH = -5;

    private static final int NO_MATCH = -6;

    private static final int SMALL_LENGTH_LIMIT = 0x80;
    private static final int SMALL_HEADER_LENGTH = 3;

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
        final boolean wordKey = keyLength >= Long.BYTES && keyLength <= 2 * Long.BYTES;
        final long head = wordKey ? key.getLong(keyOffset) : 0;
        final long tail = wordKey ? key.getLong(keyOffset + keyLength - Long.BYTES) : 0;
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
                final int result = match(slot, segments, key, keyOffset, keyLength, wordKey, head, tail, dst, dstOffset);
                if (result != NO_MATCH)
                {
                    return result;
                }
            }
            i = (i + 1) & mask;
        }
        return Shard.INCONSISTENT;
    }

    private static int match(
        final long slot, final Segment[] segments,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final boolean wordKey, final long head, final long tail,
        final MutableDirectBuffer dst, final int dstOffset)
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
        final int entryKeyLength = (int)(header >>> 8) & 0xFF;
        final int valueLength = (int)(header >>> 16) & 0xFF;
        if ((header & 0xFF) != 0 || entryKeyLength >= SMALL_LENGTH_LIMIT || valueLength >= SMALL_LENGTH_LIMIT)
        {
            return SLOW_PATH;
        }
        if (entryKeyLength != keyLength)
        {
            return NO_MATCH;
        }
        final int keyAt = at + SMALL_HEADER_LENGTH;
        final int valueAt = keyAt + keyLength;
        if (valueAt + valueLength > capacity)
        {
            return Shard.INCONSISTENT;
        }
        final boolean equal = wordKey ?
            buffer.getLong(keyAt) == head && buffer.getLong(keyAt + keyLength - Long.BYTES) == tail :
            EntryCursor.bytesEqual(buffer, keyAt, key, keyOffset, keyLength);
        if (!equal)
        {
            return NO_MATCH;
        }
        if (!dst.isExpandable() && (long)dstOffset + valueLength > dst.capacity())
        {
            return SLOW_PATH;
        }
        dst.putBytes(dstOffset, buffer, valueAt, valueLength);
        return valueLength;
    }
}
