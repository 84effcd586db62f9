package io.agni.bench.net.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * Reads CPU time from Linux's {@code /proc}: a process's (user + system, {@code /proc/PID/stat} fields 14 and 15,
 * all its threads, those that have ended included), each CPU's busy and total time, and the whole machine's with the
 * time the hypervisor stole ({@code /proc/stat}). Both are
 * in clock ticks ({@code getconf CLK_TCK}, 100 on Linux), so a 5-second run at full speed is measured to 0.2 %.
 *
 * <p>Parsing is separate from reading, so it is tested on fixed text. Where {@code /proc} is missing (not Linux),
 * readings are -1 and the reports leave the figures out.
 */
public final class ProcStat
{
    /**
     * Clock ticks per second of {@code /proc}'s times.
     */
    public static final long TICKS_PER_SECOND = ticksPerSecond();

    private static final Path PROC = Path.of("/proc");

    private ProcStat()
    {
    }

    /**
     * @param pid a process id.
     * @return its CPU time so far (user + system) in ticks, or -1 if it cannot be read (no such process, no /proc).
     */
    public static long processTicks(final long pid)
    {
        return readStat(pid, ProcStat::parseProcessTicks);
    }

    /**
     * @param pid a process id.
     * @return the CPU time (user + system) of its children that have ended and been waited for, in ticks, or -1 if
     * it cannot be read: how a process that ran a tool to completion learns what the tool used.
     */
    public static long childrenTicks(final long pid)
    {
        return readStat(pid, ProcStat::parseChildrenTicks);
    }

    /**
     * @param cpus CPUs to read.
     * @return their busy and total ticks so far, summed, or {@code null} if {@code /proc/stat} cannot be read.
     */
    public static CpuTicks cpuTicks(final CpuSet cpus)
    {
        try
        {
            return parseCpuTicks(Files.readString(PROC.resolve("stat"), StandardCharsets.US_ASCII), cpus);
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * Busy and total time of some CPUs.
     *
     * @param busy  ticks not idle (user, nice, system, irq, softirq, steal).
     * @param total busy plus idle and iowait.
     */
    public record CpuTicks(long busy, long total)
    {
        /**
         * @param earlier a reading before this one.
         * @return the share of the time in between that the CPUs were busy, 0 to 1, or NaN if no time passed.
         */
        public double busySince(final CpuTicks earlier)
        {
            final long total = this.total - earlier.total;
            return total <= 0 ? Double.NaN : (double)(busy - earlier.busy) / total;
        }
    }

    /**
     * @param stat the text of {@code /proc/PID/stat}.
     * @return utime + stime in ticks.
     * @throws IllegalArgumentException if the text is not such a line.
     */
    public static long parseProcessTicks(final String stat)
    {
        // fields[0] is field 3 (state), so field 14 (utime) is fields[11] and field 15 (stime) fields[12].
        final String[] fields = fieldsAfterName(stat);
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static long readStat(final long pid, final ToLongFunction<String> parser)
    {
        if (pid <= 0)
        {
            return -1;
        }
        try
        {
            return parser.applyAsLong(Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"),
                StandardCharsets.US_ASCII));
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }

    private static String[] fieldsAfterName(final String stat)
    {
        // The command name (field 2) is in parentheses and may hold spaces and parentheses: count from the last ')'.
        final int close = stat.lastIndexOf(')');
        if (close < 0)
        {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + stat);
        }
        final String[] fields = stat.substring(close + 1).trim().split("\\s+");
        if (fields.length < 15)
        {
            throw new IllegalArgumentException("too few fields in /proc/PID/stat: " + stat);
        }
        return fields;
    }

    /**
     * @param stat the text of {@code /proc/PID/stat}.
     * @return cutime + cstime (fields 16 and 17) in ticks: the process's waited-for children's CPU time.
     * @throws IllegalArgumentException if the text is not such a line.
     */
    public static long parseChildrenTicks(final String stat)
    {
        final String[] fields = fieldsAfterName(stat);
        return Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    }

    /**
     * @param stat the text of {@code /proc/stat}.
     * @param cpus the CPUs to add up.
     * @return their busy and total ticks.
     * @throws IllegalArgumentException if a CPU of the set has no line.
     */
    public static CpuTicks parseCpuTicks(final String stat, final CpuSet cpus)
    {
        long busy = 0;
        long total = 0;
        int found = 0;
        for (final String line : stat.split("\n"))
        {
            if (!isCpuLine(line))
            {
                continue;
            }
            final String[] fields = line.trim().split("\\s+");
            if (!cpus.contains(Integer.parseInt(fields[0].substring(3))))
            {
                continue;
            }
            found++;
            final long notIdle = busy(fields);
            busy += notIdle;
            total += notIdle + idle(fields);
        }
        if (found != cpus.size())
        {
            throw new IllegalArgumentException("/proc/stat has lines for " + found + " of the CPUs " + cpus);
        }
        return new CpuTicks(busy, total);
    }

    /**
     * The whole machine's ticks at one moment: all CPUs, from the first line of {@code /proc/stat}.
     *
     * @param busy  not idle: user, nice, system, irq, softirq, steal.
     * @param steal taken by the hypervisor for other virtual machines.
     * @param total every tick, idle and iowait included.
     */
    public record MachineTicks(long busy, long steal, long total)
    {
        /**
         * @param earlier a reading taken before this one.
         * @return the share of the time between them that was busy, in percent, or -1 if none passed.
         */
        public double busyPercentSince(final MachineTicks earlier)
        {
            final long ticks = total - earlier.total;
            return ticks <= 0 ? -1 : 100.0 * (busy - earlier.busy) / ticks;
        }

        /**
         * @param earlier a reading taken before this one.
         * @return the share of the time between them that was stolen, in percent, or -1 if none passed.
         */
        public double stealPercentSince(final MachineTicks earlier)
        {
            final long ticks = total - earlier.total;
            return ticks <= 0 ? -1 : 100.0 * (steal - earlier.steal) / ticks;
        }
    }

    /**
     * @return the whole machine's ticks so far, or {@code null} if {@code /proc/stat} cannot be read.
     */
    public static MachineTicks machineTicks()
    {
        try
        {
            return parseMachineTicks(Files.readString(PROC.resolve("stat"), StandardCharsets.US_ASCII));
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * @param stat the text of {@code /proc/stat}.
     * @return the ticks of its first line, the sum over all CPUs.
     * @throws IllegalArgumentException if it has no such line.
     */
    public static MachineTicks parseMachineTicks(final String stat)
    {
        for (final String line : stat.split("\n"))
        {
            if (line.startsWith("cpu "))
            {
                final String[] fields = line.trim().split("\\s+");
                final long busy = busy(fields);
                return new MachineTicks(busy, value(fields, 8), busy + idle(fields));
            }
        }
        throw new IllegalArgumentException("/proc/stat has no line for all CPUs");
    }

    /**
     * @return the machine's CPUs as {@code /proc/stat} lists them (not the JVM's share, which a container or an
     *         affinity mask limits), or -1 if it cannot be read.
     */
    public static int machineCpus()
    {
        try
        {
            return parseMachineCpus(Files.readString(PROC.resolve("stat"), StandardCharsets.US_ASCII));
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }

    /**
     * @param stat the text of {@code /proc/stat}.
     * @return how many single CPUs ({@code cpu0}, {@code cpu1}, ...) it lists.
     */
    public static int parseMachineCpus(final String stat)
    {
        int cpus = 0;
        for (final String line : stat.split("\n"))
        {
            if (isCpuLine(line))
            {
                cpus++;
            }
        }
        return cpus;
    }

    /**
     * @param ticks clock ticks.
     * @return them in seconds.
     */
    public static double seconds(final long ticks)
    {
        return (double)ticks / TICKS_PER_SECOND;
    }

    private static boolean isCpuLine(final String line)
    {
        return line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3));
    }

    // A CPU line: cpuN user nice system idle iowait irq softirq steal [guest guest_nice: already in user and nice]

    private static long busy(final String[] fields)
    {
        return value(fields, 1) + value(fields, 2) + value(fields, 3) + value(fields, 6) + value(fields, 7) +
            value(fields, 8);
    }

    private static long idle(final String[] fields)
    {
        return value(fields, 4) + value(fields, 5);
    }

    private static long value(final String[] fields, final int index)
    {
        return index < fields.length ? Long.parseLong(fields[index]) : 0;
    }

    private static long ticksPerSecond()
    {
        try
        {
            final Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            final String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (getconf.waitFor(5, TimeUnit.SECONDS) && getconf.exitValue() == 0 && out.matches("[0-9]+"))
            {
                return Long.parseLong(out);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // No getconf: Linux's USER_HZ is 100 on every architecture it reports to user space.
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return 100;
    }
}
