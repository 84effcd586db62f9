package io.agni.api;

/**
 * The root of the exceptions an {@link AgniStore} throws for a failure of the store, as opposed to a mistake in a
 * call ({@link NullPointerException}, {@link IllegalArgumentException}, {@link IndexOutOfBoundsException}) or an
 * operation the implementation does not support ({@link UnsupportedOperationException}). Unchecked. Four kinds,
 * each caught by one {@code catch} of its type, all of them by one {@code catch (AgniException ex)}:
 * <ul>
 * <li>{@link StoreRefusedException}: the store refused this request (a full store, a value that is not an integer,
 * a key too long, ...). Nothing changed; the store serves the next request as before.</li>
 * <li>{@link StoreReadOnlyException}: the store refuses every write for now, and still serves reads.</li>
 * <li>{@link StoreClosedException}: the store was closed; every later call fails the same way.</li>
 * <li>{@link StoreConnectionException}: a remote store could not be reached or answered in a way that broke the
 * connection; whether a write sent before the failure was applied is unknown.</li>
 * </ul>
 * Every subclass has a {@code (message)} and a {@code (message, cause)} constructor. The refusals, read-only
 * included, carry no stack trace: a remote client can cause them on every request, and their message says
 * everything.
 */
public abstract class AgniException extends RuntimeException
{
    private static final long serialVersionUID = 2L;

    /**
     * An exception with a message and a stack trace.
     *
     * @param message what failed and why.
     */
    protected AgniException(final String message)
    {
        super(message);
    }

    /**
     * An exception with a message, a cause and a stack trace.
     *
     * @param message what failed and why.
     * @param cause   the failure behind it, or {@code null}.
     */
    protected AgniException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * An exception with a message, a cause and, optionally, no stack trace and no suppressed exceptions.
     *
     * @param message            what failed and why.
     * @param cause              the failure behind it, or {@code null}.
     * @param writableStackTrace {@code false} for an outcome that is expected and cheap to report; such an
     *                           exception also records no suppressed exceptions.
     */
    protected AgniException(final String message, final Throwable cause, final boolean writableStackTrace)
    {
        super(message, cause, writableStackTrace, writableStackTrace);
    }
}
