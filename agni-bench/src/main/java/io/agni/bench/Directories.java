package io.agni.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The directories the durable benchmarks make and remove.
 */
public final class Directories
{
    private Directories()
    {
    }

    /**
     * Deletes a directory and everything in it.
     *
     * @param directory the directory.
     * @throws UncheckedIOException when a file cannot be deleted.
     */
    public static void deleteRecursively(final Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory))
        {
            for (final Path path : (Iterable<Path>)paths.sorted(Comparator.reverseOrder())::iterator)
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
