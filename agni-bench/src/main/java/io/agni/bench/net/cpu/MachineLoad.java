package io.agni.bench.net.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole machine's CPU time from the first line of {@code /proc/stat} (all CPUs added up), and its load average,
 * for telling whether a run had the machine to itself ({@code Quietness}).
 */
public final class MachineLoad
{
    private static final Path STAT = Path.of("/proc/stat");
    private static final Path LOADAVG = Path.of("/proc/loadavg");

    private MachineLoad()
    {
    }

    /**
     * All CPUs' ticks at one moment.
     *
     * @param busy  not idle: user, nice, system, irq, softirq, steal.
     * @param steal taken by the hypervisor.
     * @param total every tick, idle and iowait included.
     */
    public record Ticks(long busy, long steal, long total)
    {
        /**
         * @param earlier a reading taken before this one.
         * @return the share of the time between them that was busy, in percent, or -1 if none passed.
         */
        public double busyPercentSince(final Ticks earlier)
        {
            final long total = this.total - earlier.total;
            return total <= 0 ? -1 : 100.0 * (busy - earlier.busy) / total;
        }

        /**
         * @param earlier a reading taken before this one.
         * @return the share of the time between them that was stolen, in percent, or -1 if none passed.
         */
        public double stealPercentSince(final Ticks earlier)
        {
            final long total = this.total - earlier.total;
            return total <= 0 ? -1 : 100.0 * (steal - earlier.steal) / total;
        }
    }

    /**
     * @return the ticks now, or null where {@code /proc/stat} cannot be read.
     */
    public static Ticks read()
    {
        try
        {
            return parse(Files.readString(STAT, StandardCharsets.US_ASCII));
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
    public static Ticks parse(final String stat)
    {
        for (final String line : stat.split("\n"))
        {
            if (line.startsWith("cpu "))
            {
                // user nice system idle iowait irq softirq steal [guest guest_nice: already in user and nice]
                final String[] fields = line.trim().split("\\s+");
                final long idle = value(fields, 4) + value(fields, 5);
                final long steal = value(fields, 8);
                final long busy = value(fields, 1) + value(fields, 2) + value(fields, 3) + value(fields, 6) +
                    value(fields, 7) + steal;
                return new Ticks(busy, steal, busy + idle);
            }
        }
        throw new IllegalArgumentException("/proc/stat has no line for all CPUs");
    }

    /**
     * @return the machine's CPUs, as {@code /proc/stat} lists them (not the JVM's share of them, which a container
     *         or an affinity mask limits, since the load average counts the whole machine), or -1 if unknown.
     */
    public static int cpus()
    {
        try
        {
            return cpus(Files.readString(STAT, StandardCharsets.US_ASCII));
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }

    /**
     * @param stat the text of {@code /proc/stat}.
     * @return its lines of single CPUs ({@code cpu0}, {@code cpu1}, ...).
     */
    public static int cpus(final String stat)
    {
        int cpus = 0;
        for (final String line : stat.split("\n"))
        {
            if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3)))
            {
                cpus++;
            }
        }
        return cpus;
    }

    /**
     * @return the 1-minute load average, or -1 where {@code /proc/loadavg} cannot be read.
     */
    public static double loadAverage()
    {
        try
        {
            return Double.parseDouble(Files.readString(LOADAVG, StandardCharsets.US_ASCII).trim().split("\\s+")[0]);
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }

    private static long value(final String[] fields, final int index)
    {
        return index < fields.length ? Long.parseLong(fields[index]) : 0;
    }
}
