package io.agni.store;

import java.nio.file.Path;

/**
 * The write-ahead log holds a damaged record that is not a torn write at its tail, so opening cannot tell what was
 * acknowledged after it. The records before {@link #offset()} in {@link #file()} (and in every earlier segment) are
 * intact.
 */
public final class LogCorruptedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    /**
     * Where in the file the damage starts.
     */
    private final long offset;

    /**
     * Creates the exception.
     *
     * @param file   the damaged segment file.
     * @param offset where in it the damage starts.
     * @param reason what is wrong there.
     */
    public LogCorruptedException(final Path file, final long offset, final String reason)
    {
        super("the write-ahead log is damaged in " + file + " at offset " + offset + ": " + reason +
            "; the records before that offset are intact (docs/durability.md, \"Recovery\", says how to keep them)");
        this.file = file;
        this.offset = offset;
    }

    /**
     * The damaged segment file.
     *
     * @return its path.
     */
    public Path file()
    {
        return file;
    }

    /**
     * Where the damage starts.
     *
     * @return the byte offset in {@link #file()}.
     */
    public long offset()
    {
        return offset;
    }
}
