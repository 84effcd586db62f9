package io.agni.bench.net.report;

import java.time.Duration;
import java.util.Locale;

/**
 * How figures are printed in the terminal table and the HTML report: rates as whole requests per second with
 * thousands separators, latencies in microseconds with one decimal (whole above 10 ms), ratios with three decimals.
 */
public final class Format
{
    private Format()
    {
    }

    /**
     * @param perSecond requests per second.
     * @return e.g. {@code 123,457}, or {@code -} for NaN.
     */
    public static String rate(final double perSecond)
    {
        return Double.isNaN(perSecond) ? "-" : String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    /**
     * @param micros microseconds.
     * @return e.g. {@code 87.3} or {@code 12,345}, or {@code -} for NaN.
     */
    public static String micros(final double micros)
    {
        if (Double.isNaN(micros))
        {
            return "-";
        }
        return micros >= 10_000 ? String.format(Locale.ROOT, "%,.0f", micros) :
            String.format(Locale.ROOT, "%.1f", micros);
    }

    /**
     * @param ratio a ratio.
     * @return e.g. {@code 1.285}, or {@code -} for NaN.
     */
    public static String ratio(final double ratio)
    {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.3f", ratio);
    }

    /**
     * @param ratios ratios, one per round.
     * @return them separated by spaces.
     */
    public static String ratios(final double[] ratios)
    {
        final StringBuilder out = new StringBuilder();
        for (final double ratio : ratios)
        {
            out.append(out.length() == 0 ? "" : " ").append(ratio(ratio));
        }
        return out.toString();
    }

    /**
     * @param share a share, 0 to 1 (or more, for several CPUs).
     * @return e.g. {@code 97%}, or {@code -} for NaN.
     */
    public static String percent(final double share)
    {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    /**
     * @param duration a duration.
     * @return e.g. {@code 5 s} or {@code 500 ms}.
     */
    public static String seconds(final Duration duration)
    {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }
}
