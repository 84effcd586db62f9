package io.agni.store.log;

/**
 * A write to the log or a sync of it failed, so the log no longer knows what is on the device: every later append
 * fails with this exception too, until the store is reopened (a failed fsync is not retried, since Linux marks the
 * pages clean after one).
 */
public final class LogFailedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed.
     * @param cause   the I/O error.
     */
    public LogFailedException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
