package io.agni.api;

/**
 * A floating-point increment found a value, or was given an argument, that is not a decimal or hexadecimal number
 * as Redis reads one (Redis: {@code ERR value is not a valid float}). The value is unchanged. The in-process store's
 * message is always {@value #MESSAGE}.
 */
public final class NotAFloatException extends StoreRefusedException
{
    /**
     * The message the in-process store's instances carry, Redis's error text without the {@code ERR} prefix.
     */
    public static final String MESSAGE = "value is not a valid float";

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with {@link #MESSAGE}.
     */
    public NotAFloatException()
    {
        super(MESSAGE);
    }

    /**
     * Creates the exception with another message (a remote server's wording, say).
     *
     * @param message the message.
     */
    public NotAFloatException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with a message and its cause.
     *
     * @param message the message.
     * @param cause   the failure behind it, or {@code null}.
     */
    public NotAFloatException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
