package io.agni.bench.net.cpu;

/**
 * CPU used over one measured interval: by the server (its process), by the load generator (its process, where the
 * harness can read it) and on the load's CPUs (everything that ran there).
 *
 * @param wallSeconds         the interval.
 * @param serverCpuSeconds    the server's user + system time in it, NaN if not known (a server the harness did not
 *                            start).
 * @param generatorCpuSeconds the load generator's CPU time in it, NaN if not known.
 * @param clientCpusBusy      the share of the interval the load's CPUs were busy, 0 to 1, NaN if not known (where
 *                            client and server share CPUs: the generator's own share of them).
 * @param clientCpus          how many CPUs the load had.
 */
public record CpuUse(
    double wallSeconds,
    double serverCpuSeconds,
    double generatorCpuSeconds,
    double clientCpusBusy,
    int clientCpus)
{
    /**
     * The load's CPUs busy at least this share of the time: the load generator, not the server, may have set the pace.
     */
    public static final double CLIENT_BOUND = 0.90;

    /**
     * The server used at least this share of its CPUs: it, not the load, may have set the pace.
     */
    public static final double SERVER_SATURATED = 0.90;

    /**
     * Nothing known.
     */
    public static final CpuUse UNKNOWN = new CpuUse(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);

    /**
     * @return server CPU-seconds per second: 1.0 is one CPU fully used; NaN if not known.
     */
    public double serverUtilisation()
    {
        return wallSeconds > 0 ? serverCpuSeconds / wallSeconds : Double.NaN;
    }

    /**
     * @return the load generator's CPU-seconds per second over its CPUs: 1.0 is all of them; NaN if not known.
     */
    public double generatorUtilisation()
    {
        return wallSeconds > 0 && clientCpus > 0 ? generatorCpuSeconds / wallSeconds / clientCpus : Double.NaN;
    }

    /**
     * @param throughput requests per second over the same interval.
     * @return requests per server CPU-second: what a request costs the server, whatever the load; NaN if not known.
     */
    public double perServerCpuSecond(final double throughput)
    {
        final double utilisation = serverUtilisation();
        return utilisation > 0 ? throughput / utilisation : Double.NaN;
    }

    /**
     * @return true if the load's CPUs were saturated ({@link #CLIENT_BOUND} or more busy), so the request rate may be
     * the generator's limit rather than the server's.
     */
    public boolean clientBound()
    {
        return clientCpusBusy >= CLIENT_BOUND;
    }
}
