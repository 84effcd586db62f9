package io.agni.api;

/**
 * A floating-point increment was given a delta that is not finite, or its result would exceed
 * {@link Double#MAX_VALUE} in magnitude (Redis: {@code ERR increment would produce NaN or Infinity}). The value is
 * unchanged. The message is always {@value #MESSAGE}.
 */
public final class FloatOverflowException extends AgniException
{
    /**
     * The message every instance carries, Redis's error text without the {@code ERR} prefix.
     */
    public static final String MESSAGE = "increment would produce NaN or Infinity";

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with {@link #MESSAGE}.
     */
    public FloatOverflowException()
    {
        super(MESSAGE, false);
    }
}
