package io.agni.net;

import io.agni.api.AgniException;

/**
 * An {@link AgniClient} call failed because of its connection, not because the store refused it: the server could
 * not be reached or refused the handshake (e.g. a wrong password), the connection broke or timed out, the reply was
 * not valid RESP, or the calling thread was interrupted while it waited for a free connection.
 * <p>
 * The connection involved is closed; the next call opens a new one. <b>Whether a write sent before the failure was
 * applied is unknown</b>: the client never retries on its own, so the caller decides whether to repeat the call.
 * The cause, when there is one, is the {@link java.io.IOException} or {@link InterruptedException} behind it.
 */
public final class ClientConnectionException extends AgniException
{
    private static final long serialVersionUID = 1L;

    /**
     * An exception without a cause.
     *
     * @param message what failed, e.g. {@code "protocol error: reply type byte not valid: 0x3f"}.
     */
    public ClientConnectionException(final String message)
    {
        super(message);
    }

    /**
     * An exception with its cause.
     *
     * @param message what failed and where, e.g. {@code "connection to localhost:6379 failed"}.
     * @param cause   the I/O failure or interruption behind it.
     */
    public ClientConnectionException(final String message, final Throwable cause)
    {
        super(message);
        initCause(cause);
    }
}
