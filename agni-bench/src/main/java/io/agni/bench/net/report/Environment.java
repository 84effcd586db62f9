package io.agni.bench.net.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The machine and software a run was measured on, recorded with its results because absolute numbers mean nothing
 * without them: cores, memory, CPU model, operating system, the load average when the run began (a busy machine
 * shows there), the JDK, and the agni commit the harness was run from.
 *
 * @param cores       processors available to the JVM.
 * @param memoryBytes physical memory, or -1 if unknown.
 * @param cpuModel    the CPU model from {@code /proc/cpuinfo}, or "unknown".
 * @param os          operating system name, version and architecture.
 * @param loadAverage the 1, 5 and 15 minute load averages from {@code /proc/loadavg}, or "unknown".
 * @param jdk         JDK vendor, version and VM.
 * @param agniCommit  {@code git rev-parse --short HEAD} in the working directory, with {@code -dirty} if tracked
 *                    files have changes; "unknown" without git or outside a repository.
 */
public record Environment(
    int cores,
    long memoryBytes,
    String cpuModel,
    String os,
    String loadAverage,
    String jdk,
    String agniCommit)
{
    private static final String UNKNOWN = "unknown";

    /**
     * Looks at this machine and JVM.
     *
     * @param repository where to ask git for the commit if the working directory is not in a repository, or null.
     * @return what was found.
     */
    public static Environment capture(final Path repository)
    {
        return new Environment(
            Runtime.getRuntime().availableProcessors(),
            readMemory(),
            readCpuModel(),
            System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
            firstLine(Path.of("/proc/loadavg")),
            System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version") + " (" +
                System.getProperty("java.vm.name") + ")",
            readCommit(repository));
    }

    /**
     * @return the 1-minute load average, the first of {@link #loadAverage()}, or -1 if unknown.
     */
    public double loadAverage1()
    {
        try
        {
            return Double.parseDouble(loadAverage.split(" ")[0]);
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    private static long readMemory()
    {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os)
        {
            return os.getTotalMemorySize();
        }
        return -1;
    }

    private static String readCpuModel()
    {
        try
        {
            return Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith("model name"))
                .map(line -> line.substring(line.indexOf(':') + 1).trim())
                .findFirst().orElse(UNKNOWN);
        }
        catch (final IOException | RuntimeException ex)
        {
            return UNKNOWN;
        }
    }

    private static String firstLine(final Path file)
    {
        try
        {
            final String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            final String[] parts = text.split("\\s+");
            return parts.length >= 3 ? parts[0] + " " + parts[1] + " " + parts[2] : text;
        }
        catch (final IOException | RuntimeException ex)
        {
            return UNKNOWN;
        }
    }

    private static String readCommit(final Path repository)
    {
        Path directory = Path.of(".");
        String head = git(directory, "rev-parse", "--short", "HEAD");
        if ((head == null || head.isEmpty()) && repository != null)
        {
            directory = repository;
            head = git(directory, "rev-parse", "--short", "HEAD");
        }
        if (head == null || head.isEmpty())
        {
            return UNKNOWN;
        }
        final String changes = git(directory, "status", "--porcelain", "--untracked-files=no");
        return changes != null && !changes.isEmpty() ? head + "-dirty" : head;
    }

    private static String git(final Path directory, final String... args)
    {
        final String[] command = new String[args.length + 1];
        command[0] = "git";
        System.arraycopy(args, 0, command, 1, args.length);
        try
        {
            final Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .start();
            final byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(5, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                process.destroyForcibly();
                return null;
            }
            return new String(out, StandardCharsets.UTF_8).strip();
        }
        catch (final IOException ex)
        {
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
