package io.agni.bench.net.load;

import java.util.Locale;

/**
 * What the load generator asks for: the share of GETs among the requests (the rest are SETs), and whether the GETs
 * go to keys that are never written (a miss on every GET).
 * <ul>
 *   <li>{@code set}: SET only, over the key space;</li>
 *   <li>{@code get}: GET only, over the key space (filled before measuring, so every GET hits);</li>
 *   <li>{@code get-miss}: GET only, over keys that are never written;</li>
 *   <li>{@code mix:P}: P percent GET, the rest SET, over the key space.</li>
 * </ul>
 *
 * @param name       the name given on the command line and in the report.
 * @param getPercent the share of GETs, 0 to 100.
 * @param miss       true if the GETs go to absent keys.
 */
public record Workload(String name, int getPercent, boolean miss)
{
    /**
     * SET only.
     */
    public static final Workload SET = new Workload("set", 0, false);

    /**
     * GET only, on present keys.
     */
    public static final Workload GET = new Workload("get", 100, false);

    /**
     * GET only, on absent keys.
     */
    public static final Workload GET_MISS = new Workload("get-miss", 100, true);

    /**
     * Validates the fields.
     */
    public Workload
    {
        if (getPercent < 0 || getPercent > 100)
        {
            throw new IllegalArgumentException("GET share must be 0 to 100 percent: getPercent=" + getPercent);
        }
    }

    /**
     * Parses a workload as the command line gives it.
     *
     * @param text {@code set}, {@code get}, {@code get-miss} or {@code mix:P} with P a whole percentage of GETs.
     * @return the workload.
     * @throws IllegalArgumentException if the text is none of these.
     */
    public static Workload parse(final String text)
    {
        final String t = text.trim().toLowerCase(Locale.ROOT);
        switch (t)
        {
            case "set":
                return SET;
            case "get":
                return GET;
            case "get-miss":
                return GET_MISS;
            default:
                break;
        }
        if (t.startsWith("mix:"))
        {
            final int percent;
            try
            {
                percent = Integer.parseInt(t.substring(4));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("mix needs a whole percentage of GETs, e.g. mix:90: " + text, ex);
            }
            return new Workload("mix:" + percent, percent, false);
        }
        throw new IllegalArgumentException("unknown workload: " + text + " (expected set, get, get-miss or mix:P)");
    }

    /**
     * @return true if some requests are GETs of keys that should be present, so the keys must be written first.
     */
    public boolean needsFill()
    {
        return getPercent > 0 && !miss;
    }
}
