package io.agni.store.shard;

import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.arena.Segment;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
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
 * the stamp before trusting any result (docs/architecture.md, "Reads"). A table or segment retired while it reads
 * stays allocated until it returns: the caller is inside an operation of the store's gate, so the retired buffer
 * waits in the limbo until this thread leaves that operation, and the limbo holds the buffer's only reference, so
 * no garbage collector can free it first (docs/architecture.md, "Reclamation"). The locals here need no
 * reachability fence.
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

    private FastRead()
    {
    }

    /**
     * Finds a key with a small header and copies its value into {@code dst}.
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
        final long head = wordKey ? key.getLong(keyOffset) : 0;
        final long tail = wordKey ? key.getLong(keyOffset + keyLength - Long.BYTES) : 0;
        final long smallHeader = (long)keyLength << 8;
        final UnsafeBuffer slots = table.slots;
        final int mask = table.mask;
        int i = tag & mask;
        for (int probes = 0; probes <= mask; probes++, i = (i + 1) & mask)
        {
            final long slot = slots.getLong(IndexLayout.slotOffset(i));
            if (slot == IndexLayout.EMPTY)
            {
                return Shard.ABSENT;
            }
            if (IndexLayout.tagOf(slot) != tag)
            {
                continue;
            }
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
            final int keyAt;
            final int valueLength;
            final boolean expiring;
            if ((header & SMALL_HEADER_MASK) == smallHeader)
            {
                keyAt = at + SMALL_HEADER_LENGTH;
                valueLength = (int)(header >>> 16) & 0xFF;
                expiring = false;
            }
            else if ((header & 0xFF) == EntryLayout.HAS_EXPIRY)
            {
                if (at > capacity - EXPIRING_HEADER_LENGTH)
                {
                    return Shard.INCONSISTENT;
                }
                final int lengths = buffer.getShort(at + EXPIRING_LENGTHS_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
                if ((lengths & EXPIRING_LENGTHS_MASK) != keyLength)
                {
                    if ((lengths & NOT_SMALL_LENGTHS_MASK) != 0)
                    {
                        return SLOW_PATH;
                    }
                    continue;
                }
                keyAt = at + EXPIRING_HEADER_LENGTH;
                valueLength = lengths >>> 8;
                expiring = true;
            }
            else if ((header & NOT_SMALL_MASK) != 0)
            {
                return SLOW_PATH;
            }
            else
            {
                continue;
            }
            final int valueAt = keyAt + keyLength;
            if (valueAt + valueLength > capacity)
            {
                return Shard.INCONSISTENT;
            }
            if (wordKey ?
                buffer.getLong(keyAt) == head && buffer.getLong(valueAt - Long.BYTES) == tail :
                EntryCursor.bytesEqual(buffer, keyAt, key, keyOffset, keyLength))
            {
                if (expiring && buffer.getLong(at + EntryLayout.EXPIRE_AT_OFFSET) <= clock.time())
                {
                    return SLOW_PATH;
                }
                if (!dst.isExpandable() && (long)dstOffset + valueLength > dst.capacity())
                {
                    return SLOW_PATH;
                }
                dst.putBytes(dstOffset, buffer, valueAt, valueLength);
                table.markRead(i);
                return valueLength;
            }
        }
        return Shard.INCONSISTENT;
    }
}
