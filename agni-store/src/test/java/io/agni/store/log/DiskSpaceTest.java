package io.agni.store.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A full disk is told from other I/O failures by the space left when the failure is caught, whatever the language
 * of the operating system's message, and by the message for a quota.
 */
class DiskSpaceTest
{
    private static final String FRENCH_ENOSPC = "Aucun espace disponible sur le périphérique";
    private static final String FRENCH_EIO = "Erreur d'entrée/sortie";
    private static final long SEGMENT = 64L * 1024 * 1024;

    @TempDir
    Path directory;

    @Test
    void aLocalizedMessageIsAFullDiskWhenLessSpaceIsLeftThanTheOperationNeeded()
    {
        final IOException failure = new IOException(FRENCH_ENOSPC);

        assertTrue(DiskSpace.isFull(failure, directory, SEGMENT, path -> SEGMENT - 1));
        assertFalse(DiskSpace.isFull(failure), "the text alone says nothing in French");
    }

    @Test
    void anotherFailureWithSpaceLeftIsNotAFullDisk()
    {
        assertFalse(DiskSpace.isFull(new IOException(FRENCH_EIO), directory, SEGMENT, path -> SEGMENT));
        assertFalse(DiskSpace.isFull(new IOException("Input/output error"), directory, 4096, path -> 1L << 40));
    }

    @Test
    void theSpaceIsAskedOfTheDirectoryTheOperationWroteTo()
    {
        final Path[] asked = new Path[1];
        DiskSpace.isFull(new IOException(FRENCH_ENOSPC), directory, 10, path ->
        {
            asked[0] = path;
            return 0;
        });
        assertTrue(directory.equals(asked[0]), "asked " + asked[0]);
    }

    @Test
    void aQuotaIsToldByItsMessageSinceTheFileStoreStillHasSpace()
    {
        assertTrue(DiskSpace.isFull(new IOException("Disk quota exceeded")));
        assertTrue(DiskSpace.isFull(new IOException("Disc quota exceeded")));
        assertTrue(DiskSpace.isFull(new IOException("Disk quota exceeded"), directory, SEGMENT, path -> 1L << 40));
        assertTrue(DiskSpace.isFull(new FileSystemException(directory.toString(), null, "Disk quota exceeded")));
    }

    @Test
    void theEnglishMessagesOfAFullDiskAreFullWhereverTheyAreInTheCauses()
    {
        assertTrue(DiskSpace.isFull(new IOException("No space left on device")));
        assertTrue(DiskSpace.isFull(new UncheckedIOException(new IOException("No space left on device"))));
        assertTrue(DiskSpace.isFull(new IOException("There is not enough space on the disk")));
        assertFalse(DiskSpace.isFull(new IOException("Input/output error")));
    }

    @Test
    void aFailureThatIsNotAnIoFailureIsNotAFullDiskWhateverTheSpace()
    {
        assertFalse(DiskSpace.isFull(new IllegalStateException(FRENCH_ENOSPC), directory, SEGMENT, path -> 0));
        assertTrue(DiskSpace.isFull(new RuntimeException(new IOException(FRENCH_ENOSPC)), directory, SEGMENT,
            path -> 0), "an I/O failure among the causes");
    }

    @Test
    void spaceThatCannotBeReadLeavesTheDecisionToTheMessage()
    {
        assertFalse(DiskSpace.isFull(new IOException(FRENCH_ENOSPC), directory, SEGMENT, path ->
        {
            throw new IOException("no file store");
        }));
        assertTrue(DiskSpace.isFull(new IOException("No space left on device"), directory, SEGMENT, path ->
        {
            throw new IOException("no file store");
        }));
    }

    @Test
    void theSystemsUsableSpaceIsTheFileStoresOfTheDirectory()
    {
        assertTrue(DiskSpace.isFull(new IOException(FRENCH_ENOSPC), directory, Long.MAX_VALUE));
        assertFalse(DiskSpace.isFull(new IOException(FRENCH_EIO), directory, 1));
    }
}
