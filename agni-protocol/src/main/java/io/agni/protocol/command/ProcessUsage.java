package io.agni.protocol.command;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the process and its command threads have used, for {@code INFO}'s {@code cpu} section and
 * {@code used_memory_rss}: on Linux read from {@code /proc/self/stat} (user and system time in clock ticks,
 * which Linux reports to user space in hundredths of a second) and {@code /proc/self/status}; elsewhere the
 * process's time is the sum of its live threads' (threads that ended are missing) and the resident size unknown.
 * The command threads' time comes from {@link ThreadMXBean}, their system time as their CPU time less their user
 * time.
 */
final class ProcessUsage
{
    private static final Path STAT = Path.of("/proc/self/stat");
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final long NANOS_PER_TICK = 10_000_000L;

    /**
     * CPU times in nanoseconds: the process's system and user time, its waited-for children's, and the command
     * threads'.
     */
    long systemNanos;
    long userNanos;
    long childSystemNanos;
    long childUserNanos;
    long threadsSystemNanos;
    long threadsUserNanos;

    /**
     * Reads the process's times now, and those of the given threads.
     *
     * @param commandThreadIds the threads that run commands.
     * @return the times.
     */
    static ProcessUsage read(final long[] commandThreadIds)
    {
        final ProcessUsage usage = new ProcessUsage();
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!usage.readProcStat())
        {
            for (final long id : threads.getAllThreadIds())
            {
                usage.addThread(threads, id, false);
            }
        }
        for (final long id : commandThreadIds)
        {
            usage.addThread(threads, id, true);
        }
        return usage;
    }

    private void addThread(final ThreadMXBean threads, final long id, final boolean commandThread)
    {
        final long cpu = threads.isThreadCpuTimeSupported() ? threads.getThreadCpuTime(id) : -1;
        final long user = threads.isThreadCpuTimeSupported() ? threads.getThreadUserTime(id) : -1;
        if (cpu < 0 || user < 0)
        {
            return;
        }
        final long system = Math.max(0, cpu - user);
        if (commandThread)
        {
            threadsSystemNanos += system;
            threadsUserNanos += user;
        }
        else
        {
            systemNanos += system;
            userNanos += user;
        }
    }

    private boolean readProcStat()
    {
        try
        {
            final String stat = Files.readString(STAT, StandardCharsets.US_ASCII);
            // the fields after the command name, which is in parentheses and may hold spaces: state is field 3
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            userNanos = Long.parseLong(fields[14 - 3]) * NANOS_PER_TICK;
            systemNanos = Long.parseLong(fields[15 - 3]) * NANOS_PER_TICK;
            childUserNanos = Long.parseLong(fields[16 - 3]) * NANOS_PER_TICK;
            childSystemNanos = Long.parseLong(fields[17 - 3]) * NANOS_PER_TICK;
            return true;
        }
        catch (final IOException | RuntimeException ex)
        {
            return false;
        }
    }

    /**
     * The resident set size of the process, from {@code VmRSS} in {@code /proc/self/status}.
     *
     * @return bytes, or -1 when unknown.
     */
    static long residentBytes()
    {
        try
        {
            for (final String line : Files.readAllLines(STATUS, StandardCharsets.US_ASCII))
            {
                if (line.startsWith("VmRSS:"))
                {
                    final String value = line.substring("VmRSS:".length()).trim();
                    return Long.parseLong(value.substring(0, value.indexOf(' '))) * 1024;
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // not Linux, or no such field: unknown
        }
        return -1;
    }

    /**
     * Redis's format of a CPU time: seconds with six decimals.
     *
     * @param nanos the time.
     * @return e.g. {@code 0.009259}.
     */
    static String seconds(final long nanos)
    {
        final long micros = nanos / 1000;
        final String fraction = Long.toString(micros % 1_000_000);
        return micros / 1_000_000 + "." + "000000".substring(fraction.length()) + fraction;
    }
}
