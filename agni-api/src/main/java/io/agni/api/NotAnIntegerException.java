package io.agni.api;

/**
 * An increment found a value that is not a decimal 64-bit signed integer (Redis: {@code ERR value is not an
 * integer or out of range}). The value is unchanged.
 */
public final class NotAnIntegerException extends AgniException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was found.
     */
    public NotAnIntegerException(final String message)
    {
        super(message, false);
    }
}
