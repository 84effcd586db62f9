package io.agni.bench.net.load;

import org.HdrHistogram.Histogram;

/**
 * The latency figures reported for a run, in microseconds, taken from its histogram of nanoseconds.
 *
 * @param count requests recorded.
 * @param mean  the mean.
 * @param p50   the median.
 * @param p90   the 90th percentile.
 * @param p99   the 99th percentile.
 * @param p999  the 99.9th percentile.
 * @param p9999 the 99.99th percentile.
 * @param max   the largest.
 */
public record Latency(long count, double mean, double p50, double p90, double p99, double p999, double p9999, double max)
{
    private static final double NANOS_PER_MICRO = 1000.0;

    /**
     * No requests recorded.
     */
    public static final Latency EMPTY = new Latency(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
        Double.NaN, Double.NaN);

    /**
     * Reads the figures from a histogram.
     *
     * @param nanos a histogram of latencies in nanoseconds.
     * @return the figures in microseconds, or {@link #EMPTY}.
     */
    public static Latency of(final Histogram nanos)
    {
        if (nanos.getTotalCount() == 0)
        {
            return EMPTY;
        }
        return new Latency(
            nanos.getTotalCount(),
            nanos.getMean() / NANOS_PER_MICRO,
            at(nanos, 50.0),
            at(nanos, 90.0),
            at(nanos, 99.0),
            at(nanos, 99.9),
            at(nanos, 99.99),
            nanos.getMaxValue() / NANOS_PER_MICRO);
    }

    private static double at(final Histogram nanos, final double percentile)
    {
        return nanos.getValueAtPercentile(percentile) / NANOS_PER_MICRO;
    }
}
