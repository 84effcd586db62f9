package io.agni.bench.net.cpu;

/**
 * Takes readings of CPU time at the edges of a measured interval and turns two of them into a {@link CpuUse}: the
 * server's process time, the load generator's, and how busy the load's CPUs were.
 *
 * <h2>The load generator's CPU</h2>
 * agni-loadgen is this process ({@code /proc/self/stat}'s user + system time); redis-benchmark is a child that this
 * process runs to its end and waits for, so its time is read from this process's waited-for children's time
 * ({@code cutime + cstime}).
 *
 * <h2>When client and server share CPUs</h2>
 * The load's CPUs' busy time then includes the server's, so the load is called saturated from the generator's own
 * CPU time instead: its share of the CPUs it may use.
 *
 * <h2>Threads</h2>
 * Any thread; a probe holds no state between readings.
 *
 * @param serverPid        the server's process id, or -1 if not known.
 * @param generatorPid     the process whose CPU time, or whose children's, is the load generator's; -1 if not known.
 * @param generatorIsChild true if the generator is a waited-for child of {@code generatorPid}.
 * @param clientCpus       the load's CPUs.
 * @param shared           true if the server may run on the load's CPUs.
 */
public record CpuProbe(long serverPid, long generatorPid, boolean generatorIsChild, CpuSet clientCpus, boolean shared)
{
    /**
     * One reading.
     *
     * @param nanos           {@link System#nanoTime()}.
     * @param serverTicks     the server's CPU ticks, -1 if unknown.
     * @param generatorTicks  the generator's CPU ticks, -1 if unknown.
     * @param clientCpuTicks  the load's CPUs' busy and total ticks, null if unknown.
     */
    public record Reading(long nanos, long serverTicks, long generatorTicks, ProcStat.CpuTicks clientCpuTicks)
    {
    }

    /**
     * @return a reading now.
     */
    public Reading read()
    {
        final ProcStat.CpuTicks cpus = ProcStat.cpuTicks(clientCpus);
        final long server = ProcStat.processTicks(serverPid);
        final long generator = generatorIsChild ? ProcStat.childrenTicks(generatorPid) :
            ProcStat.processTicks(generatorPid);
        return new Reading(System.nanoTime(), server, generator, cpus);
    }

    /**
     * @param start the reading at the start of the interval.
     * @param end   the reading at its end.
     * @return the CPU used in between; a figure that either reading lacks is NaN.
     */
    public CpuUse between(final Reading start, final Reading end)
    {
        final double wall = (end.nanos() - start.nanos()) / 1e9;
        final double generator = delta(start.generatorTicks(), end.generatorTicks());
        final double busy;
        if (shared)
        {
            busy = wall > 0 ? generator / wall / clientCpus.size() : Double.NaN;
        }
        else
        {
            busy = start.clientCpuTicks() == null || end.clientCpuTicks() == null ? Double.NaN :
                end.clientCpuTicks().busySince(start.clientCpuTicks());
        }
        return new CpuUse(wall, delta(start.serverTicks(), end.serverTicks()), generator, busy, clientCpus.size());
    }

    private static double delta(final long start, final long end)
    {
        return start < 0 || end < 0 || end < start ? Double.NaN : ProcStat.seconds(end - start);
    }
}
