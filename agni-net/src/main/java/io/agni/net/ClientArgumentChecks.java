package io.agni.net;

import io.agni.api.EntryTooLargeException;
import io.agni.api.ExpiryMode;

import java.util.Objects;

/**
 * The in-process store's argument checks, made by {@link AgniClient} before anything is sent: a negative length
 * or offset is an {@link IllegalArgumentException}, a key or value longer than the bulk limit an
 * {@link EntryTooLargeException}, with the store's messages ({@code key too large: length=..., limit=...}).
 */
final class ClientArgumentChecks
{
    private final int maxBulkLength;

    /**
     * @param maxBulkLength the longest key or value the client sends.
     */
    ClientArgumentChecks(final int maxBulkLength)
    {
        this.maxBulkLength = maxBulkLength;
    }

    /**
     * @param keyLength a key's length.
     */
    void key(final int keyLength)
    {
        if (keyLength > maxBulkLength)
        {
            throw new EntryTooLargeException("key too large: length=" + keyLength + ", limit=" + maxBulkLength);
        }
        if (keyLength < 0)
        {
            throw new IllegalArgumentException("negative key length: " + keyLength);
        }
    }

    /**
     * @param keyLength   a key's length.
     * @param valueLength its value's length.
     */
    void entry(final int keyLength, final int valueLength)
    {
        key(keyLength);
        if (valueLength > maxBulkLength)
        {
            throw new EntryTooLargeException("value too large: length=" + valueLength + ", limit=" + maxBulkLength);
        }
        if (valueLength < 0)
        {
            throw new IllegalArgumentException("negative value length: " + valueLength);
        }
    }

    /**
     * The checks of {@code setRange}: an empty value writes nothing, so, as in Redis, its offset is not held
     * against the limit.
     *
     * @param keyLength   the key's length.
     * @param offset      where the bytes go.
     * @param valueLength how many.
     */
    /**
     * Checks the arrays and key lengths of a batch of keys in one buffer (the zero-copy {@code getAll}).
     *
     * @throws IllegalArgumentException if {@code count} is negative, an array is shorter than it, or a key length is
     *                                  negative.
     * @throws EntryTooLargeException   if a key is longer than the bulk limit.
     */
    void keys(final int[] keyOffsets, final int[] keyLengths, final int count, final int[] valueLengths)
    {
        if (count < 0 || keyOffsets.length < count || keyLengths.length < count || valueLengths.length < count)
        {
            throw new IllegalArgumentException("count out of range: count=" + count + ", keyOffsets=" +
                keyOffsets.length + ", keyLengths=" + keyLengths.length + ", valueLengths=" + valueLengths.length);
        }
        for (int i = 0; i < count; i++)
        {
            key(keyLengths[i]);
        }
    }

    /**
     * Checks an expiry mode and the time given with it, as the in-process store does.
     *
     * @throws NullPointerException     if the mode is null.
     * @throws IllegalArgumentException if the mode ignores the time and it is not 0.
     */
    void expiry(final ExpiryMode mode, final long time)
    {
        Objects.requireNonNull(mode, "expiryMode").checkTime(time);
    }

    void setRange(final int keyLength, final long offset, final int valueLength)
    {
        key(keyLength);
        if (offset < 0)
        {
            throw new IllegalArgumentException("negative offset: " + offset);
        }
        if (valueLength < 0)
        {
            throw new IllegalArgumentException("negative value length: " + valueLength);
        }
        if (valueLength > 0 && offset > maxBulkLength - valueLength)
        {
            throw new EntryTooLargeException("value too large: length=" + (offset + valueLength) +
                ", limit=" + maxBulkLength);
        }
    }
}
