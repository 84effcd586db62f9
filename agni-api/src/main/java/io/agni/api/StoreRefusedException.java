package io.agni.api;

/**
 * The store refused one request, for a reason of that request and the data it met: nothing changed, and the store
 * serves the next request as before. The subclasses name the reasons the in-process store has
 * ({@link CapacityExceededException}, {@link EntryTooLargeException}, {@link NotAnIntegerException},
 * {@link IntegerOverflowException}, {@link NotAFloatException}, {@link FloatOverflowException},
 * {@link InvalidCursorException}); a remote store refuses with this class itself when the server's error has no
 * such counterpart (its message is then the server's error text, code first, e.g. {@code "ERR syntax error"}).
 * <p>
 * Without a stack trace: a remote client can cause a refusal on every request, and the message says everything.
 */
public class StoreRefusedException extends AgniException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was refused and why.
     */
    public StoreRefusedException(final String message)
    {
        super(message, null, false);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what was refused and why.
     * @param cause   the failure behind it, or {@code null}.
     */
    public StoreRefusedException(final String message, final Throwable cause)
    {
        super(message, cause, false);
    }
}
