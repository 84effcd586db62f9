package io.agni.api;

/**
 * {@link AgniStore#scan} was given a cursor the store could not have returned (Redis: {@code ERR invalid
 * cursor}). Nothing was scanned. The message reads {@code invalid cursor: ...} with the cursor as an unsigned
 * number.
 */
public final class InvalidCursorException extends StoreRefusedException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the cursor refused.
     */
    public InvalidCursorException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message the cursor refused.
     * @param cause   the failure behind it, or {@code null}.
     */
    public InvalidCursorException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
