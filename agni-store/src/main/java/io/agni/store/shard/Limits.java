package io.agni.store.shard;

import io.agni.api.EntryTooLargeException;
import io.agni.store.arena.EntryLayout;

/**
 * The messages of the size-limit failures, in one place.
 */
public final class Limits
{
    private Limits()
    {
    }

    /**
     * The one check of a value's length, made before any memory is reserved by every write that can make a value
     * longer (set, setAll, setRange, append, the copy of a rename): the value within the configured limit, and the
     * whole entry (a header with room for an expiry time, which any entry may gain later, the key, the value and the
     * padding) within {@link EntryLayout#MAX_ENTRY_LENGTH}, so that its length is an int one buffer can hold.
     *
     * @param keyLength      the key's length, already checked against the key limit.
     * @param valueLength    the value's length as a long, so that a sum of lengths cannot wrap.
     * @param maxValueLength the configured value limit.
     * @throws EntryTooLargeException   if the value or the entry is too long.
     * @throws IllegalArgumentException if {@code valueLength} is negative.
     */
    public static void checkEntry(final int keyLength, final long valueLength, final int maxValueLength)
    {
        if (valueLength > maxValueLength)
        {
            throw valueTooLarge(valueLength, maxValueLength);
        }
        if (valueLength < 0)
        {
            throw new IllegalArgumentException("negative value length: " + valueLength);
        }
        if (EntryLayout.length(keyLength, (int)valueLength, true) > EntryLayout.MAX_ENTRY_LENGTH)
        {
            throw valueTooLarge(valueLength, EntryLayout.MAX_ENTRY_LENGTH - keyLength - 32L);
        }
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
