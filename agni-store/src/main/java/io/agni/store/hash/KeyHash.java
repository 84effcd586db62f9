package io.agni.store.hash;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * A seeded 64-bit hash of a byte string, read eight bytes at a time (the xxHash64 round and avalanche, with a
 * simpler stripe loop). Each store draws its own seed, so keys that collide in one store cannot be computed in
 * advance for another.
 * <p>
 * The store takes a key's shard from the high bits and its index slot from the low bits
 * (docs/architecture.md, "Sharding"); the final avalanche makes both well distributed.
 */
public final class KeyHash
{
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private KeyHash()
    {
    }

    /**
     * Hashes {@code length} bytes of {@code buffer} from {@code offset}.
     *
     * @param buffer the bytes.
     * @param offset where they start.
     * @param length how many.
     * @param seed   the store's seed.
     * @return the hash.
     */
    public static long hash(final DirectBuffer buffer, final int offset, final int length, final long seed)
    {
        long h = seed + P5 + length;
        int i = 0;
        final int longsEnd = length & ~7;
        while (i < longsEnd)
        {
            final long k = round(buffer.getLong(offset + i, ByteOrder.LITTLE_ENDIAN));
            h ^= k;
            h = Long.rotateLeft(h, 27) * P1 + P4;
            i += 8;
        }
        if (i + 4 <= length)
        {
            h ^= (buffer.getInt(offset + i, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            i += 4;
        }
        while (i < length)
        {
            h ^= (buffer.getByte(offset + i) & 0xFFL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
            i++;
        }
        return avalanche(h);
    }

    private static long round(final long input)
    {
        return Long.rotateLeft(input * P2, 31) * P1;
    }

    private static long avalanche(final long hash)
    {
        long h = hash;
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }
}
