package io.agni.store.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells a full disk from other I/O failures, so the message a user reads says which it was.
 *
 * <p>Java gives no errno with an {@link IOException}, only the operating system's text for it, in the language of
 * the process's locale ("Aucun espace disponible sur le périphérique" for ENOSPC in French). So the text is the
 * second witness: the first is the space itself, the usable bytes of the file store the write went to, read when
 * the failure is caught, against the bytes the failed operation needed ({@link #isFull(Throwable, Path, long)}). A
 * quota (EDQUOT) leaves the file store's space alone, so only its text tells it: in English, or not at all.
 */
final class DiskSpace
{
    /**
     * The usable bytes of the file store a path is on, now: {@link java.nio.file.FileStore#getUsableSpace()}.
     */
    static final UsableSpace SYSTEM = path -> Files.getFileStore(path).getUsableSpace();

    /**
     * The English texts of ENOSPC, of EDQUOT (glibc; macOS and the BSDs; musl), and of Windows' ERROR_DISK_FULL
     * and ERROR_HANDLE_DISK_FULL.
     */
    private static final String[] FULL_MESSAGES = {
        "No space left on device", "Disk quota exceeded", "Disc quota exceeded", "Quota exceeded",
        "There is not enough space on the disk", "The disk is full"};

    private DiskSpace()
    {
    }

    /**
     * Where the usable space of a directory's file store comes from: the system's, or a test's.
     */
    @FunctionalInterface
    interface UsableSpace
    {
        /**
         * The bytes a write may still use on the file store {@code path} is on.
         *
         * @param path a file or directory on it.
         * @return the usable bytes.
         * @throws IOException when the file store cannot be asked.
         */
        long of(Path path) throws IOException;
    }

    /**
     * Whether a failure, or one of its causes, says the disk (or a quota) is full, in English: for a caller that
     * does not know what the failed operation needed. {@link #isFull(Throwable, Path, long)} does not depend on the
     * language.
     *
     * @param failure the failure.
     * @return whether its text is ENOSPC's or EDQUOT's.
     */
    static boolean isFull(final Throwable failure)
    {
        for (Throwable t = failure; t != null; t = t.getCause())
        {
            if (t instanceof IOException && saysFull(t.getMessage()))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether an I/O failure of an operation that needed {@code needed} bytes in {@code directory} was a full disk:
     * the directory's file store has fewer usable bytes than that now, or the failure's text says so. Call it when
     * the failure is caught, before anything the operation made is deleted.
     *
     * @param failure   the failure.
     * @param directory where the operation wrote.
     * @param needed    the bytes it needed (a write's length, a new file's).
     * @return whether the disk (or a quota) is full.
     */
    static boolean isFull(final Throwable failure, final Path directory, final long needed)
    {
        return isFull(failure, directory, needed, SYSTEM);
    }

    /**
     * {@link #isFull(Throwable, Path, long)} with the usable space from {@code space}.
     *
     * @param failure   the failure.
     * @param directory where the operation wrote.
     * @param needed    the bytes it needed.
     * @param space     the usable space of a directory's file store.
     * @return whether the disk (or a quota) is full.
     */
    static boolean isFull(final Throwable failure, final Path directory, final long needed, final UsableSpace space)
    {
        if (isFull(failure))
        {
            return true;
        }
        if (!causedByIo(failure) || needed <= 0)
        {
            return false;
        }
        try
        {
            return space.of(directory) < needed;
        }
        catch (final IOException | RuntimeException ex)
        {
            // The space is unknown: the text alone decided.
            return false;
        }
    }

    private static boolean causedByIo(final Throwable failure)
    {
        for (Throwable t = failure; t != null; t = t.getCause())
        {
            if (t instanceof IOException)
            {
                return true;
            }
        }
        return false;
    }

    private static boolean saysFull(final String message)
    {
        if (message == null)
        {
            return false;
        }
        for (final String full : FULL_MESSAGES)
        {
            if (message.contains(full))
            {
                return true;
            }
        }
        return false;
    }
}
