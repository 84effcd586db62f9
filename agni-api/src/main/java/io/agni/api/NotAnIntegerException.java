package io.agni.api;

/**
 * An increment found a value that is not a decimal 64-bit signed integer (Redis: {@code ERR value is not an
 * integer or out of range}). The value is unchanged.
 */
public final class NotAnIntegerException extends StoreRefusedException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was found.
     */
    public NotAnIntegerException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what was found.
     * @param cause   the failure behind it, or {@code null}.
     */
    public NotAnIntegerException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
