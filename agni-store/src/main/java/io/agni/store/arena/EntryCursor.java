package io.agni.store.arena;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

import static io.agni.store.arena.EntryLayout.DEAD;
import static io.agni.store.arena.EntryLayout.EXPIRE_AT_OFFSET;
import static io.agni.store.arena.EntryLayout.FLAGS_OFFSET;
import static io.agni.store.arena.EntryLayout.HAS_EXPIRY;

/**
 * A reusable flyweight that decodes one entry's header ({@link EntryLayout}) and remembers where its parts are.
 *
 * <h2>Concurrency</h2>
 * Owned by one thread. {@link #wrap} may decode memory that a writer is changing (an optimistic read), so every
 * length and offset it reads is checked against the segment's capacity before it is used, and a header that does
 * not fit is reported as {@code false}, never as an exception (docs/architecture.md, "Reads").
 */
public final class EntryCursor
{
    private static final int SMALL_VARINT = 0x80;
    private static final int SMALL_HEADER = 3;

    /**
     * The segment holding the entry.
     */
    public UnsafeBuffer buffer;
    /**
     * The entry's segment id.
     */
    public int segmentId;
    /**
     * Where the entry starts in its segment.
     */
    public int offset;
    /**
     * The flags byte.
     */
    public int flags;
    /**
     * The expiry time, or 0 when the entry has none.
     */
    public long expireAt;
    /**
     * Where the key starts.
     */
    public int keyOffset;
    /**
     * The key's length.
     */
    public int keyLength;
    /**
     * Where the value starts.
     */
    public int valueOffset;
    /**
     * The value's length.
     */
    public int valueLength;
    /**
     * The whole entry's length.
     */
    public int length;
    /**
     * The index slot that points at the entry, when found through the index.
     */
    public int slotIndex;
    /**
     * The slot word that points at the entry.
     */
    public long slot;

    /**
     * Decodes the entry at {@code offset} of {@code segment}.
     *
     * @param segment   the segment's memory.
     * @param segmentId the segment's id.
     * @param at        where the entry starts.
     * @return {@code false} if the header does not describe an entry that fits the segment.
     */
    public boolean wrap(final UnsafeBuffer segment, final int segmentId, final int at)
    {
        final int capacity = segment.capacity();
        if (at < 0 || at >= capacity)
        {
            return false;
        }
        this.buffer = segment;
        this.segmentId = segmentId;
        this.offset = at;
        if (at <= capacity - Long.BYTES && wrapSmall(segment.getLong(at, ByteOrder.LITTLE_ENDIAN), at, capacity))
        {
            return true;
        }
        final int f = segment.getByte(at + FLAGS_OFFSET) & 0xFF;
        this.flags = f;
        int p = at + 1;
        if ((f & HAS_EXPIRY) != 0)
        {
            if (p + Long.BYTES > capacity)
            {
                return false;
            }
            expireAt = segment.getLong(at + EXPIRE_AT_OFFSET);
            p += Long.BYTES;
        }
        else
        {
            expireAt = 0;
        }

        int shift = 0;
        long klen = 0;
        while (true)
        {
            if (p >= capacity || shift > 28)
            {
                return false;
            }
            final int b = segment.getByte(p++);
            klen |= (long)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                break;
            }
            shift += 7;
        }
        shift = 0;
        long vlen = 0;
        while (true)
        {
            if (p >= capacity || shift > 28)
            {
                return false;
            }
            final int b = segment.getByte(p++);
            vlen |= (long)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                break;
            }
            shift += 7;
        }

        final long end = p + klen + vlen;
        if (end > capacity)
        {
            return false;
        }
        keyOffset = p;
        keyLength = (int)klen;
        valueOffset = p + (int)klen;
        valueLength = (int)vlen;
        length = (int)EntryLayout.align(end - at);
        return true;
    }

    /**
     * The common header, decoded from one 8-byte load: only the flags byte (no expiry, not dead or dead) and two
     * one-byte varints.
     */
    private boolean wrapSmall(final long header, final int at, final int capacity)
    {
        final int f = (int)header & 0xFF;
        final int klen = (int)(header >>> 8) & 0xFF;
        final int vlen = (int)(header >>> 16) & 0xFF;
        if ((f & HAS_EXPIRY) != 0 || klen >= SMALL_VARINT || vlen >= SMALL_VARINT)
        {
            return false;
        }
        final int key = at + SMALL_HEADER;
        if (key + klen + vlen > capacity)
        {
            return false;
        }
        flags = f;
        expireAt = 0;
        keyOffset = key;
        keyLength = klen;
        valueOffset = key + klen;
        valueLength = vlen;
        length = (int)EntryLayout.align(SMALL_HEADER + klen + vlen);
        return true;
    }

    /**
     * Whether the entry carries an expiry time.
     *
     * @return the flag.
     */
    public boolean hasExpiry()
    {
        return (flags & HAS_EXPIRY) != 0;
    }

    /**
     * Whether the entry is marked dead.
     *
     * @return the flag.
     */
    public boolean isDead()
    {
        return (flags & DEAD) != 0;
    }

    /**
     * Whether the entry has expired at {@code now}.
     *
     * @param now the clock's time in ms.
     * @return {@code true} if it has an expiry time at or before now.
     */
    public boolean isExpired(final long now)
    {
        return (flags & HAS_EXPIRY) != 0 && expireAt <= now;
    }

    /**
     * Compares the entry's key with a caller's.
     *
     * @param key    the caller's buffer.
     * @param offset where the key starts.
     * @param length its length.
     * @return {@code true} if equal.
     */
    public boolean keyEquals(final DirectBuffer key, final int offset, final int length)
    {
        return length == keyLength && bytesEqual(buffer, keyOffset, key, offset, length);
    }

    /**
     * Compares two byte ranges eight bytes at a time.
     *
     * @param entry       a segment.
     * @param entryOffset where its range starts.
     * @param other       the other buffer.
     * @param otherOffset where its range starts.
     * @param length      the length of both ranges.
     * @return {@code true} if the bytes are equal.
     */
    public static boolean bytesEqual(
        final UnsafeBuffer entry, final int entryOffset, final DirectBuffer other, final int otherOffset,
        final int length)
    {
        int i = 0;
        final int longsEnd = length & ~7;
        while (i < longsEnd)
        {
            if (entry.getLong(entryOffset + i) != other.getLong(otherOffset + i))
            {
                return false;
            }
            i += 8;
        }
        while (i < length)
        {
            if (entry.getByte(entryOffset + i) != other.getByte(otherOffset + i))
            {
                return false;
            }
            i++;
        }
        return true;
    }
}
