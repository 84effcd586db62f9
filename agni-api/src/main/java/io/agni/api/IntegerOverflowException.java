package io.agni.api;

/**
 * An increment would take the value outside the signed 64-bit range (Redis: {@code ERR increment or decrement
 * would overflow}). The value is unchanged.
 */
public final class IntegerOverflowException extends StoreRefusedException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the value and the delta.
     */
    public IntegerOverflowException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message the value and the delta.
     * @param cause   the failure behind it, or {@code null}.
     */
    public IntegerOverflowException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
