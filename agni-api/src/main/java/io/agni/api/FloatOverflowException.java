package io.agni.api;

/**
 * A floating-point increment was given a delta that is not finite, or its result would exceed
 * {@link Double#MAX_VALUE} in magnitude (Redis: {@code ERR increment would produce NaN or Infinity}). The value is
 * unchanged. The in-process store's message is always {@value #MESSAGE}.
 */
public final class FloatOverflowException extends StoreRefusedException
{
    /**
     * The message the in-process store's instances carry, Redis's error text without the {@code ERR} prefix.
     */
    public static final String MESSAGE = "increment would produce NaN or Infinity";

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with {@link #MESSAGE}.
     */
    public FloatOverflowException()
    {
        super(MESSAGE);
    }

    /**
     * Creates the exception with another message (a remote server's wording, say).
     *
     * @param message the message.
     */
    public FloatOverflowException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with a message and its cause.
     *
     * @param message the message.
     * @param cause   the failure behind it, or {@code null}.
     */
    public FloatOverflowException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
