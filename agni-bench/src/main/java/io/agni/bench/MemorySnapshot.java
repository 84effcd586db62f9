package io.agni.bench;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JVM's memory at one moment, taken after full collections so that the heap figure is the live set.
 *
 * @param heapUsed       heap bytes in use after {@link System#gc()}.
 * @param directUsed     bytes of direct {@code ByteBuffer}s ({@link BufferPoolMXBean} "direct"); memory from
 *                       {@code Unsafe.allocateMemory} or {@code malloc} is not in it.
 * @param residentBytes  the process's resident set ({@code VmRSS}), or {@code -1} where {@code /proc} is missing;
 *                       with {@code -Xms} equal to {@code -Xmx} and {@code -XX:+AlwaysPreTouch} the heap is resident
 *                       from the start, so its growth is native memory (plus metaspace and compiled code).
 */
record MemorySnapshot(long heapUsed, long directUsed, long residentBytes)
{
    private static final int GC_ROUNDS = 4;
    private static final long GC_PAUSE_MS = 100;

    /**
     * Collects and takes a snapshot.
     *
     * @return the snapshot.
     */
    static MemorySnapshot take()
    {
        for (int i = 0; i < GC_ROUNDS; i++)
        {
            System.gc();
            try
            {
                Thread.sleep(GC_PAUSE_MS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                break;
            }
        }
        final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long direct = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if ("direct".equals(pool.getName()))
            {
                direct = pool.getMemoryUsed();
            }
        }
        return new MemorySnapshot(heap, direct, readResidentBytes());
    }

    private static long readResidentBytes()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("VmRSS:"))
                {
                    return 1024 * Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").trim());
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
        return -1;
    }
}
