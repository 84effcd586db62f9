package io.agni.api;

/**
 * An operation was called on a store after {@link AgniStore#close()} began.
 */
public final class StoreClosedException extends IllegalStateException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which store was closed.
     */
    public StoreClosedException(final String message)
    {
        super(message);
    }
}
