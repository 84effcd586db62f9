package io.agni.store.snapshot;

import io.agni.store.SnapshotDamagedException;
import io.agni.store.file.Crc;
import io.agni.store.file.FaultInjectingFileLayer;
import io.agni.store.file.FileLayer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotTest
{
    @TempDir
    Path directory;

    record Entry(String key, String value, long expireAt)
    {
    }

    @Test
    void entriesComeBackWithTheirExpiry() throws IOException
    {
        final List<Entry> entries = new ArrayList<>();
        final Random random = new Random(3);
        for (int i = 0; i < 5_000; i++)
        {
            entries.add(new Entry("key-" + i, "v".repeat(random.nextInt(300)), i % 3 == 0 ? 1_000_000L + i : 0));
        }
        entries.add(new Entry("large", "L".repeat(200_000), 0));
        entries.add(new Entry("", "", 0));
        final Path path = write(FileLayer.system(), 42, entries);

        assertEquals(SnapshotLayout.fileName(42), path.getFileName().toString());
        final List<Entry> read = new ArrayList<>();
        final SnapshotReader.Summary summary = SnapshotReader.read(path, collect(read));
        assertEquals(entries, read);
        assertEquals(42, summary.fromSequence());
        assertEquals(entries.size(), summary.entries());
        assertEquals(List.of(path.getFileName().toString()), names());
    }

    @Test
    void anEmptySnapshotReadsAsEmpty() throws IOException
    {
        final Path path = write(FileLayer.system(), 1, List.of());
        final List<Entry> read = new ArrayList<>();
        assertEquals(0, SnapshotReader.read(path, collect(read)).entries());
        assertEquals(List.of(), read);
    }

    @Test
    void everyKindOfDamageIsRefused() throws IOException
    {
        final List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 3_000; i++)
        {
            entries.add(new Entry("key-" + i, "value-" + i, 0));
        }
        final Path path = write(FileLayer.system(), 7, entries);
        final byte[] whole = Files.readAllBytes(path);

        for (final int offset : new int[] {3, 70, 5_000, whole.length / 2, whole.length - 30, whole.length - 3})
        {
            final byte[] damaged = whole.clone();
            damaged[offset] ^= 0x04;
            Files.write(path, damaged);
            assertThrows(SnapshotDamagedException.class, () -> SnapshotReader.read(path, collect(new ArrayList<>())),
                "a flipped bit at " + offset);
        }
        for (final int length : new int[] {0, 10, 64, 1_000, whole.length - 24, whole.length - 1})
        {
            Files.write(path, java.util.Arrays.copyOf(whole, length));
            assertThrows(SnapshotDamagedException.class, () -> SnapshotReader.read(path, collect(new ArrayList<>())),
                "truncated to " + length);
        }
        final byte[] longer = java.util.Arrays.copyOf(whole, whole.length + 8);
        Files.write(path, longer);
        assertThrows(SnapshotDamagedException.class, () -> SnapshotReader.read(path, collect(new ArrayList<>())));

        Files.write(path, whole);
        assertEquals(entries.size(), SnapshotReader.read(path, collect(new ArrayList<>())).entries());
    }

    @Test
    void anEntryWhoseLengthsDisagreeWithItsBlockIsRefusedEvenWhenTheChecksumMatches() throws IOException
    {
        final Path path = write(FileLayer.system(), 3, List.of(new Entry("key", "value", 0), new Entry("b", "2", 0)));
        final byte[] whole = Files.readAllBytes(path);
        final int block = SnapshotLayout.HEADER_LENGTH;
        final int entry = block + SnapshotLayout.BLOCK_HEADER_LENGTH;
        // Key length, value length: past the block, negative, and ending inside the next entry's fixed fields.
        for (final int[] lengths : new int[][] {{3, 1_000}, {Integer.MAX_VALUE, 5}, {-1, 5}, {3, -1}, {3, 10}})
        {
            final ByteBuffer damaged = ByteBuffer.wrap(whole.clone()).order(ByteOrder.LITTLE_ENDIAN);
            damaged.putInt(entry, lengths[0]).putInt(entry + Integer.BYTES, lengths[1]);
            final int blockLength = damaged.getInt(block);
            damaged.putInt(block + Integer.BYTES, new Crc(damaged).of(entry, blockLength));
            Files.write(path, damaged.array());

            final List<Entry> read = new ArrayList<>();
            final SnapshotDamagedException ex = assertThrows(SnapshotDamagedException.class,
                () -> SnapshotReader.read(path, collect(read)), Arrays.toString(lengths));
            assertEquals(block, ex.offset());
            assertEquals(List.of(), read, "no entry of a damaged block is handed on: " + Arrays.toString(lengths));
        }
    }

    @Test
    void anAbandonedSnapshotLeavesNoFile() throws IOException
    {
        try (SnapshotWriter writer = SnapshotWriter.create(directory, FileLayer.system(), 5, 0))
        {
            final UnsafeBuffer key = bytes("k");
            writer.add(key, 0, 1, key, 0, 1, 0);
        }
        assertEquals(List.of(), names());
    }

    @Test
    void aSnapshotNotPublishedBeforePowerLossIsNotThere() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final SnapshotWriter writer = SnapshotWriter.create(directory, files, 9, 0);
        final UnsafeBuffer key = bytes("k");
        writer.add(key, 0, 1, key, 0, 1, 0);
        files.powerLoss();

        assertThrows(IOException.class, writer::commit);
        assertTrue(names().stream().noneMatch(name -> SnapshotLayout.fromSequenceOf(name) > 0), names().toString());
    }

    @Test
    void aPublishedSnapshotSurvivesPowerLoss() throws IOException
    {
        final FaultInjectingFileLayer files = new FaultInjectingFileLayer();
        final Path path = write(files, 11, List.of(new Entry("a", "1", 0), new Entry("b", "2", 5)));
        files.powerLoss();

        final List<Entry> read = new ArrayList<>();
        SnapshotReader.read(path, collect(read));
        assertEquals(List.of(new Entry("a", "1", 0), new Entry("b", "2", 5)), read);
    }

    private Path write(final FileLayer files, final long fromSequence, final List<Entry> entries) throws IOException
    {
        try (SnapshotWriter writer = SnapshotWriter.create(directory, files, fromSequence, 1234))
        {
            for (final Entry e : entries)
            {
                final UnsafeBuffer key = bytes(e.key());
                final UnsafeBuffer value = bytes(e.value());
                writer.add(key, 0, key.capacity(), value, 0, value.capacity(), e.expireAt());
            }
            return writer.commit();
        }
    }

    private static SnapshotEntryHandler collect(final List<Entry> into)
    {
        return (buffer, keyOffset, keyLength, valueOffset, valueLength, expireAt) -> into.add(new Entry(
            buffer.getStringWithoutLengthUtf8(keyOffset, keyLength),
            buffer.getStringWithoutLengthUtf8(valueOffset, valueLength), expireAt));
    }

    private static UnsafeBuffer bytes(final String s)
    {
        return new UnsafeBuffer(s.getBytes(StandardCharsets.UTF_8));
    }

    private List<String> names() throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
