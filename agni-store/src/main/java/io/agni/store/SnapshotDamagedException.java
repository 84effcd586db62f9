package io.agni.store;

import java.nio.file.Path;

/**
 * A snapshot file cannot be read whole: its header, a block, or its footer is damaged or missing.
 */
public final class SnapshotDamagedException extends RuntimeException
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
     * @param file   the snapshot.
     * @param offset where the damage was found.
     * @param reason what is wrong.
     */
    public SnapshotDamagedException(final Path file, final long offset, final String reason)
    {
        super("the snapshot " + file + " is damaged at offset " + offset + ": " + reason);
        this.file = file;
        this.offset = offset;
    }

    /**
     * The snapshot.
     *
     * @return its path.
     */
    public Path file()
    {
        return file;
    }

    /**
     * Where the damage was found.
     *
     * @return a byte offset in {@link #file()}.
     */
    public long offset()
    {
        return offset;
    }
}
