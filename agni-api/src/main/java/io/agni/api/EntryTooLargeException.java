package io.agni.api;

/**
 * A key or a value is longer than the store's configured limit, or an append would make a value longer than it.
 * Checked before any memory is reserved; the store is unchanged. Messages read
 * {@code key too large: length=..., limit=...} or {@code value too large: length=..., limit=...}.
 */
public final class EntryTooLargeException extends StoreRefusedException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which part was too large, its length and the limit.
     */
    public EntryTooLargeException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message which part was too large, its length and the limit.
     * @param cause   the failure behind it, or {@code null}.
     */
    public EntryTooLargeException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
