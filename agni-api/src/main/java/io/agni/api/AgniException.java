package io.agni.api;

/**
 * The base of the exceptions an {@link AgniStore} throws for an operation it refuses.
 * <p>
 * The subclasses that report an expected outcome of a request (a full store, a value that is not an integer)
 * carry no stack trace: a remote client can cause them on every request, and they say everything in their
 * message.
 */
public class AgniException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message and a stack trace.
     *
     * @param message what was refused and why.
     */
    public AgniException(final String message)
    {
        super(message);
    }

    /**
     * An exception with a message and, optionally, no stack trace.
     *
     * @param message            what was refused and why.
     * @param writableStackTrace {@code false} for an outcome that is expected and cheap to report.
     */
    protected AgniException(final String message, final boolean writableStackTrace)
    {
        super(message, null, false, writableStackTrace);
    }
}
