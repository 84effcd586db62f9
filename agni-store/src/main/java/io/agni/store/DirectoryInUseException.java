package io.agni.store;

import java.nio.file.Path;

/**
 * A store directory is already open, in this JVM or in another process.
 */
public final class DirectoryInUseException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient Path directory;

    /**
     * Creates the exception.
     *
     * @param directory the directory.
     * @param holder    who holds it, as its lock file says.
     */
    public DirectoryInUseException(final Path directory, final String holder)
    {
        super("the store directory " + directory + " is already open (held by " + holder + "); a directory " +
            "belongs to one open store at a time");
        this.directory = directory;
    }

    /**
     * The directory.
     *
     * @return its real path.
     */
    public Path directory()
    {
        return directory;
    }
}
