package io.agni.net.launcher;

/**
 * A command line the launcher cannot run: an unknown flag, a missing or malformed value, a value out of range.
 * The message says which flag and why; the launcher prints it and exits with {@link ServerMain#EXIT_USAGE}.
 */
final class UsageException extends Exception
{
    private static final long serialVersionUID = 1L;

    UsageException(final String message)
    {
        super(message);
    }
}
