package io.agni.bench.durability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bytes a block device has written, from {@code /sys/class/block/NAME/stat} (Linux): what reached the device
 * from every process on the machine, the file system's journal and metadata included, after the kernel's write-back.
 * A cross-check of {@link ProcessIo}'s {@code write_bytes}, which counts a whole page-cache folio each time a write
 * dirties part of it: where a file's folios are large (ext4 on recent kernels makes them up to megabytes for a file
 * written in large pieces), a small write can count far more than the device will write. Meaningful only on a
 * machine where nothing else writes to the device meanwhile.
 */
final class DeviceWrites
{
    private static final int SECTOR_BYTES = 512;
    private static final int SECTORS_WRITTEN_FIELD = 6;

    private DeviceWrites()
    {
    }

    /**
     * Writes every dirty page on the machine back ({@code sync}), so that what a store left dirty is counted by
     * the next reading, then reads the device's counter.
     *
     * @param device the block device's name under {@code /sys/class/block}, e.g. {@code vda} or {@code nvme0n1p2};
     *               null or empty for none.
     * @return the bytes the device has written since it was attached, or -1 without a device or a readable counter.
     * @throws IOException          if {@code sync} cannot be run.
     * @throws InterruptedException if interrupted while {@code sync} runs.
     */
    static long syncAndRead(final String device) throws IOException, InterruptedException
    {
        if (device == null || device.isEmpty())
        {
            return -1;
        }
        new ProcessBuilder("sync").inheritIO().start().waitFor();
        try
        {
            final String[] fields = Files.readString(Path.of("/sys/class/block", device, "stat")).strip()
                .split("\\s+");
            return Long.parseLong(fields[SECTORS_WRITTEN_FIELD]) * SECTOR_BYTES;
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }
}
