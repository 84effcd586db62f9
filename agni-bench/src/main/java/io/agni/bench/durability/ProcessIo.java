package io.agni.bench.durability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * This process's storage counters from {@code /proc/self/io} (Linux), summed over all its threads, living and
 * exited, so a store's background threads count too.
 * <p>
 * {@code write_bytes} counts the bytes this process caused to be sent to the storage layer: a page of the page
 * cache counts when it is dirtied (by a {@code write}, or by the first store into a clean page of a shared file
 * mapping), whether or not it has been written back yet; a page dirtied again after write-back counts again.
 * {@code cancelled_write_bytes} counts dirty bytes that will never reach the device because their file was
 * truncated or deleted first. Both are -1 where the file cannot be read.
 *
 * @param writeBytes          {@code write_bytes}.
 * @param cancelledWriteBytes {@code cancelled_write_bytes}.
 */
record ProcessIo(long writeBytes, long cancelledWriteBytes)
{
    private static final Path FILE = Path.of("/proc/self/io");

    /**
     * Reads the counters now.
     *
     * @return the counters, or -1 for each when {@code /proc/self/io} cannot be read.
     */
    static ProcessIo read()
    {
        try
        {
            return parse(Files.readAllLines(FILE));
        }
        catch (final IOException ex)
        {
            return new ProcessIo(-1, -1);
        }
    }

    /**
     * Parses the lines of {@code /proc/PID/io}.
     *
     * @param lines the lines, {@code name: value} each.
     * @return the counters; -1 for one that is absent.
     */
    static ProcessIo parse(final List<String> lines)
    {
        long written = -1;
        long cancelled = -1;
        for (final String line : lines)
        {
            final int colon = line.indexOf(':');
            if (colon < 0)
            {
                continue;
            }
            final String name = line.substring(0, colon).strip();
            if (name.equals("write_bytes"))
            {
                written = Long.parseLong(line.substring(colon + 1).strip());
            }
            else if (name.equals("cancelled_write_bytes"))
            {
                cancelled = Long.parseLong(line.substring(colon + 1).strip());
            }
        }
        return new ProcessIo(written, cancelled);
    }

    /**
     * The counters' growth since an earlier reading.
     *
     * @param earlier the earlier reading.
     * @return this minus {@code earlier}, or -1 for a counter either reading lacks.
     */
    ProcessIo since(final ProcessIo earlier)
    {
        return new ProcessIo(
            writeBytes < 0 || earlier.writeBytes < 0 ? -1 : writeBytes - earlier.writeBytes,
            cancelledWriteBytes < 0 || earlier.cancelledWriteBytes < 0 ? -1 :
                cancelledWriteBytes - earlier.cancelledWriteBytes);
    }
}
