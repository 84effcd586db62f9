package io.agni.api;

/**
 * The store refuses every write for now and still serves reads: nothing changed. Unlike a
 * {@link StoreRefusedException}, the reason is the state of the store, not the request, so repeating the write
 * fails the same way until the store is writable again (if it ever is: that is the implementation's to say).
 * <p>
 * Who throws it: {@code AgniClient} when the server answers a write with Redis's {@code READONLY} (a replica) or
 * {@code MISCONF} (a server that cannot persist and stops writes); agni's server answers it with
 * {@code -MISCONF} and the message. agni's in-process store does not throw it yet: a durable store will, once a
 * failed sync makes it read-only (a retried sync could not be trusted, so it stops accepting writes instead).
 * <p>
 * Without a stack trace: a remote client can cause it on every request.
 */
public final class StoreReadOnlyException extends AgniException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message why the store is read-only.
     */
    public StoreReadOnlyException(final String message)
    {
        super(message, null, false);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message why the store is read-only.
     * @param cause   the failure that made it read-only, or {@code null}.
     */
    public StoreReadOnlyException(final String message, final Throwable cause)
    {
        super(message, cause, false);
    }
}
