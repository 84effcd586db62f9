package io.agni.store.log;

import io.agni.api.StoreReadOnlyException;
import io.agni.store.file.FaultInjectingFileLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A segment that cannot be made on a full disk leaves no file behind: a file system writes a new file's zeros until
 * the disk is full, and that partial file (up to a segment's length) would hold the room until the next open.
 */
class SegmentCreationFailureTest
{
    @TempDir
    Path directory;

    @Test
    void aSpareThatCannotBeMadeLeavesNoFile() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final LogWriter log = Logs.open(directory, files);
        log.startSegment();
        files.quota(Logs.SMALL_SEGMENT / 2);
        final IOException failure = assertThrows(IOException.class, log::prepareSpare);
        assertTrue(failure.getMessage().contains("No space left"), failure.getMessage());
        assertEquals(List.of(), temporaryFiles());
        log.close();
    }

    @Test
    void aRollThatCannotMakeItsSegmentFailsTheLogFullAndLeavesNoFile() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final LogWriter log = Logs.open(directory, files);
        log.startSegment();
        files.quota(Logs.SMALL_SEGMENT / 2);
        final StoreReadOnlyException failure = assertThrows(StoreReadOnlyException.class, () ->
        {
            for (int i = 0; i < 1000; i++)
            {
                Logs.set(log, "k" + i, "v".repeat(100));
            }
        });
        assertTrue(failure.getMessage().contains("the disk is full"), failure.getMessage());
        assertEquals(List.of(), temporaryFiles());
        log.close();
    }

    private List<String> temporaryFiles() throws IOException
    {
        try (Stream<Path> listing = Files.list(directory))
        {
            return listing.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(LogReader.TEMPORARY_SUFFIX))
                .collect(Collectors.toList());
        }
    }
}
