package io.agni.api;

/**
 * An operation was called on a store after {@link AgniStore#close()} began. Every later call fails the same way.
 * <p>
 * An {@link AgniException}, not an {@link IllegalStateException}: so that one {@code catch (AgniException ex)}
 * covers every failure of a store, and {@code catch (IllegalStateException ex)} around store calls does not also
 * swallow the unrelated state errors of the caller's own code. It keeps its stack trace, which shows the call that
 * came too late.
 */
public final class StoreClosedException extends AgniException
{
    private static final long serialVersionUID = 2L;

    /**
     * Creates the exception.
     *
     * @param message which store was closed.
     */
    public StoreClosedException(final String message)
    {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message which store was closed.
     * @param cause   the failure behind it, or {@code null}.
     */
    public StoreClosedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
