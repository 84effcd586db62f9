package io.agni.api;

/**
 * A call on a remote store failed because of its connection, not because the store refused it: the server could
 * not be reached or refused the handshake (e.g. a wrong password), the connection broke or timed out, the reply
 * was not valid RESP, or the calling thread was interrupted while it waited for a connection.
 * <p>
 * <b>Whether a write sent before the failure was applied is unknown</b>: the caller decides whether to repeat the
 * call. The cause, when there is one, is the {@link java.io.IOException} or {@link InterruptedException} behind
 * it. The in-process store never throws it.
 */
public final class StoreConnectionException extends AgniException
{
    private static final long serialVersionUID = 1L;

    /**
     * An exception without a cause.
     *
     * @param message what failed, e.g. {@code "protocol error: reply type byte not valid: 0x3f"}.
     */
    public StoreConnectionException(final String message)
    {
        super(message);
    }

    /**
     * An exception with its cause.
     *
     * @param message what failed and where, e.g. {@code "cannot connect to localhost:6379: ..."}.
     * @param cause   the I/O failure or interruption behind it, or {@code null}.
     */
    public StoreConnectionException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
