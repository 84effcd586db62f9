package io.agni.net;

/**
 * Why a connection was closed, as logged at DEBUG.
 */
final class DisconnectReason
{
    static final String CLOSED_BY_CLIENT = "closed by the client";
    static final String IO_ERROR = "I/O error";
    static final String QUERY_BUFFER_LIMIT = "pending command over maxQueryBuffer";
    static final String OUTPUT_BUFFER_LIMIT = "replies waiting over maxOutputBuffer";
    static final String CLIENT_EVICTED = "evicted: client memory over maxClientMemory";
    static final String IDLE_TIMEOUT = "idle timeout";
    static final String LINGER_TIMEOUT = "closed after its last reply";
    static final String SERVER_SHUTDOWN = "server shutting down";
    static final String INTERNAL_ERROR = "internal error";
    static final String NOT_DURABLE = "its replies wait for writes the store could not make durable";

    private DisconnectReason()
    {
    }
}
