package io.agni.api;

/**
 * A floating-point increment found a value, or was given an argument, that is not a decimal or hexadecimal number
 * as Redis reads one (Redis: {@code ERR value is not a valid float}). The value is unchanged. The message is always
 * {@value #MESSAGE}.
 */
public final class NotAFloatException extends AgniException
{
    /**
     * The message every instance carries, Redis's error text without the {@code ERR} prefix.
     */
    public static final String MESSAGE = "value is not a valid float";

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with {@link #MESSAGE}.
     */
    public NotAFloatException()
    {
        super(MESSAGE, false);
    }
}
