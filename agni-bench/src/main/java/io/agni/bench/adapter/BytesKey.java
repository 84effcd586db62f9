package io.agni.bench.adapter;

import java.util.Arrays;

/**
 * A {@code byte[]} as a hash map key: equality and hash code over the bytes, the hash computed once. The array must
 * not change while the key is in a map.
 */
final class BytesKey
{
    private final byte[] bytes;
    private final int hash;

    BytesKey(final byte[] bytes)
    {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(final Object other)
    {
        return this == other || other instanceof BytesKey && Arrays.equals(bytes, ((BytesKey)other).bytes);
    }

    @Override
    public int hashCode()
    {
        return hash;
    }
}
