package io.agni.store.shard;

import io.agni.api.EntryTooLargeException;

/**
 * The messages of the size-limit failures, in one place.
 */
public final class Limits
{
    private Limits()
    {
    }

    /**
     * A key longer than the limit.
     *
     * @param length the key's length.
     * @param limit  the limit.
     * @return the exception to throw.
     */
    public static EntryTooLargeException keyTooLarge(final long length, final long limit)
    {
        return new EntryTooLargeException("key too large: length=" + length + ", limit=" + limit);
    }

    /**
     * A value longer than the limit.
     *
     * @param length the value's length.
     * @param limit  the limit.
     * @return the exception to throw.
     */
    public static EntryTooLargeException valueTooLarge(final long length, final long limit)
    {
        return new EntryTooLargeException("value too large: length=" + length + ", limit=" + limit);
    }
}
