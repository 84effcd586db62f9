package io.agni.store.shard;

import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.arena.Segment;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The zero-copy GET of the common entry, in locals: an entry with no expiry time whose key and value lengths are
 * each below 128 bytes, so that its whole header ({@link EntryLayout}: flags, one-byte key length, one-byte value
 * length) comes from one 8-byte load. Anything else returns {@link #SLOW_PATH} and the shard decodes the entry with
 * an {@link io.agni.store.arena.EntryCursor}.
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

    private static final long NO_MATCH = -6;

    private static final int SMALL_LENGTH_LIMIT = 0x80;
    private static final int SMALL_HEADER_LENGTH = 3;
    private static final int MAX_VALUE_OFFSET = (1 << 25) - 1;

    private FastRead()
    {
    }

    /**
     * Finds the value of a key with a small header.
     *
     * @return a location from {@link #location} when found, or {@link Shard#ABSENT}, {@link Shard#INCONSISTENT} or
     * {@link #SLOW_PATH}.
     */
    static long findValue(
        final IndexTable table, final Segment[] segments, final int tag,
        final DirectBuffer key, final int keyOffset, final int keyLength)
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
                final long result = match(slot, segments, key, keyOffset, keyLength, wordKey, head, tail);
                if (result != NO_MATCH)
                {
                    return result;
                }
            }
            i = (i + 1) & mask;
        }
        return Shard.INCONSISTENT;
    }

    private static long match(
        final long slot, final Segment[] segments,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final boolean wordKey, final long head, final long tail)
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
        if (valueAt + valueLength > capacity || valueAt > MAX_VALUE_OFFSET)
        {
            return Shard.INCONSISTENT;
        }
        final boolean equal = wordKey ?
            buffer.getLong(keyAt) == head && buffer.getLong(keyAt + keyLength - Long.BYTES) == tail :
            EntryCursor.bytesEqual(buffer, keyAt, key, keyOffset, keyLength);
        return equal ? location(segmentId, valueAt, valueLength) : NO_MATCH;
    }

    /**
     * Packs where a small value is: segment id in bits 32-51, value offset in bits 7-31, length in bits 0-6.
     */
    static long location(final int segmentId, final int valueAt, final int valueLength)
    {
        return ((long)segmentId << 32) | ((long)valueAt << 7) | valueLength;
    }

    static int segmentIdOf(final long location)
    {
        return (int)(location >>> 32);
    }

    static int valueAtOf(final long location)
    {
        return (int)location >>> 7;
    }

    static int valueLengthOf(final long location)
    {
        return (int)location & 0x7F;
    }

}
