package io.agni.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Turns what opening, checkpointing or closing a store's directory threw into what the store's caller gets: the
 * store's own exceptions (a damaged file, a directory in use) as they are, an I/O failure with the directory named.
 */
final class DurabilityErrors
{
    private DurabilityErrors()
    {
    }

    static RuntimeException onOpen(final Path directory, final Throwable failure)
    {
        return translate("cannot open the store directory " + directory, failure);
    }

    static RuntimeException onCheckpoint(final Path directory, final Throwable failure)
    {
        return translate("the checkpoint of " + directory + " failed; the previous snapshot and the log stay",
            failure);
    }

    static RuntimeException onClose(final Path directory, final Throwable failure)
    {
        return translate("closing " + directory + " failed; reopening it recovers from its log", failure);
    }

    private static RuntimeException translate(final String message, final Throwable failure)
    {
        if (failure instanceof Error error)
        {
            throw error;
        }
        if (failure instanceof RuntimeException runtime)
        {
            return runtime;
        }
        return new UncheckedIOException(message + ": " + failure.getMessage(), (IOException)failure);
    }
}
