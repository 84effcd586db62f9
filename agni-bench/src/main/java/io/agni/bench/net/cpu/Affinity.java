package io.agni.bench.net.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The CPUs a process may run on, read from {@code /proc/self/status} and set with {@code taskset -a -p}: every
 * thread of the process at once, and the threads it starts later inherit the set from the thread that starts them.
 * No native code: {@code taskset} is part of util-linux, on every Linux.
 */
public final class Affinity
{
    private Affinity()
    {
    }

    /**
     * @return the CPUs this process may run on ({@code Cpus_allowed_list}), or {@code 0 .. n-1} for the JVM's
     * processor count where {@code /proc} cannot tell.
     */
    public static CpuSet available()
    {
        try
        {
            final CpuSet fromProc = parseStatus(Files.readString(Path.of("/proc/self/status"),
                StandardCharsets.US_ASCII));
            if (fromProc != null)
            {
                return fromProc;
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // Not Linux: fall back to the JVM's count.
        }
        final int[] all = new int[Runtime.getRuntime().availableProcessors()];
        for (int i = 0; i < all.length; i++)
        {
            all[i] = i;
        }
        return CpuSet.of(all);
    }

    /**
     * @param status the text of {@code /proc/PID/status}.
     * @return its {@code Cpus_allowed_list}, or null if it has none.
     */
    public static CpuSet parseStatus(final String status)
    {
        for (final String line : status.split("\n"))
        {
            if (line.startsWith("Cpus_allowed_list:"))
            {
                return CpuSet.parse(line.substring("Cpus_allowed_list:".length()).trim());
            }
        }
        return null;
    }

    /**
     * Moves every thread of a process onto some CPUs.
     *
     * @param pid  the process.
     * @param cpus where it may run from now on.
     * @throws IOException if {@code taskset} fails (the message has its output).
     */
    public static void pin(final long pid, final CpuSet cpus) throws IOException
    {
        final List<String> command = List.of("taskset", "-a", "-p", "-c", cpus.toString(), Long.toString(pid));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try
        {
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " failed: " + output);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), ex);
        }
    }

    /**
     * Whether this process can pin: {@code taskset} is there and may set this process's CPUs (a container's
     * seccomp or cpuset rules may forbid it). It tries by setting the CPUs the process already has.
     *
     * @param available the CPUs this process may use.
     * @return true if pinning works here.
     */
    public static boolean canPin(final CpuSet available)
    {
        try
        {
            pin(ProcessHandle.current().pid(), available);
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }
}
