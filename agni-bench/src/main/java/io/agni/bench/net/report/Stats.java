package io.agni.bench.net.report;

import java.util.Arrays;

/**
 * The little arithmetic the reports need, in one place so that it is tested once: medians, and ratios taken round
 * by round.
 *
 * <h2>Why ratios per round</h2>
 * The machine drifts during a benchmark (other work, thermal state, the page cache). Interleaving A and B within
 * each round puts both under the same conditions; dividing A by B within the round cancels what the round shared,
 * and the median of those per-round ratios is robust to one disturbed round. A ratio of medians would compare
 * figures taken at different times.
 */
public final class Stats
{
    private Stats()
    {
    }

    /**
     * @param values numbers; NaNs are ignored.
     * @return their median (the mean of the two middle ones for an even count), or NaN if there are none.
     */
    public static double median(final double... values)
    {
        final double[] sorted = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (sorted.length == 0)
        {
            return Double.NaN;
        }
        final int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /**
     * @param values numbers; NaNs are ignored.
     * @return the smallest, or NaN if there are none.
     */
    public static double min(final double... values)
    {
        return Arrays.stream(values).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
    }

    /**
     * @param values numbers; NaNs are ignored.
     * @return the largest, or NaN if there are none.
     */
    public static double max(final double... values)
    {
        return Arrays.stream(values).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    }

    /**
     * Divides A's figure by B's, round by round.
     *
     * @param a A's figure in each round (NaN where A has no result).
     * @param b B's figure in the same rounds.
     * @return {@code a[i] / b[i]} for each round, NaN where either is missing or B's is 0.
     */
    public static double[] ratios(final double[] a, final double[] b)
    {
        if (a.length != b.length)
        {
            throw new IllegalArgumentException("one figure per round each: a.length=" + a.length + ", b.length=" +
                b.length);
        }
        final double[] ratios = new double[a.length];
        for (int i = 0; i < a.length; i++)
        {
            ratios[i] = b[i] == 0 ? Double.NaN : a[i] / b[i];
        }
        return ratios;
    }
}
