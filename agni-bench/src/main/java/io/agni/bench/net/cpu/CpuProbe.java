package io.agni.bench.net.cpu;

/**
 * Takes readings of CPU time at the edges of a measured interval and turns two of them into a {@link CpuUse}: the
 * server's process time, the load generator's, and the busy time of the load's CPUs.
 *
 * <h2>Threads</h2>
 * Any thread; a probe holds no state between readings.
 *
 * @param serverPid    the server's process id, or -1 if not known.
 * @param generatorPid the load generator's process id, or -1 if not known.
 * @param clientCpus   the load's CPUs.
 */
public record CpuProbe(long serverPid, long generatorPid, CpuSet clientCpus)
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
        final long generator = ProcStat.processTicks(generatorPid);
        return new Reading(System.nanoTime(), server, generator, cpus);
    }

    /**
     * @param start the reading at the start of the interval.
     * @param end   the reading at its end.
     * @return the CPU used in between; a figure that either reading lacks is NaN.
     */
    public CpuUse between(final Reading start, final Reading end)
    {
        return new CpuUse((end.nanos() - start.nanos()) / 1e9,
            delta(start.serverTicks(), end.serverTicks()),
            delta(start.generatorTicks(), end.generatorTicks()),
            start.clientCpuTicks() == null || end.clientCpuTicks() == null ? Double.NaN :
                end.clientCpuTicks().busySince(start.clientCpuTicks()),
            clientCpus.size());
    }

    private static double delta(final long start, final long end)
    {
        return start < 0 || end < 0 || end < start ? Double.NaN : ProcStat.seconds(end - start);
    }
}
