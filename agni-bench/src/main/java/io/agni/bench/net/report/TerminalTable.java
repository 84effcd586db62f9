package io.agni.bench.net.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The summary as plain-text tables for the terminal: per workload, each target's median throughput, its range over
 * the rounds and its median latencies; then each pair's round-by-round ratios and their median.
 */
public final class TerminalTable
{
    private TerminalTable()
    {
    }

    /**
     * @param results what to show.
     * @return the tables, lines ending in {@code \n}.
     */
    public static String render(final BenchmarkResults results)
    {
        final Summary summary = Summary.of(results);
        final List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"workload", "target", "rounds", "median req/s", "min - max req/s", "p50 us", "p99 us",
            "p99.9 us", "max us", "errors"});
        for (final Summary.TargetSummary t : summary.targets())
        {
            rows.add(new String[]{t.workload(), t.target(), Integer.toString(t.rounds()),
                Format.rate(t.medianThroughput()), Format.rate(t.minThroughput()) + " - " +
                Format.rate(t.maxThroughput()), Format.micros(t.p50()), Format.micros(t.p99()),
                Format.micros(t.p999()), Format.micros(t.max()), Long.toString(t.errors())});
        }
        final StringBuilder out = new StringBuilder();
        table(out, rows, 2);
        if (!summary.pairs().isEmpty())
        {
            final List<String[]> ratios = new ArrayList<>();
            ratios.add(new String[]{"workload", "A / B", "throughput A/B", "per round", "p99 A/B", "per round"});
            for (final Summary.PairRatio p : summary.pairs())
            {
                ratios.add(new String[]{p.workload(), p.a() + " / " + p.b(), Format.ratio(p.throughputRatio()),
                    Format.ratios(p.throughputRatios()), Format.ratio(p.p99Ratio()), Format.ratios(p.p99Ratios())});
            }
            out.append('\n');
            table(out, ratios, 2);
        }
        return out.toString();
    }

    /**
     * Lays out rows in columns; the first {@code leftColumns} are left-aligned, the rest right-aligned.
     */
    static void table(final StringBuilder out, final List<String[]> rows, final int leftColumns)
    {
        final int columns = rows.get(0).length;
        final int[] widths = new int[columns];
        for (final String[] row : rows)
        {
            for (int c = 0; c < columns; c++)
            {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (int r = 0; r < rows.size(); r++)
        {
            final String[] row = rows.get(r);
            final StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++)
            {
                final String pad = " ".repeat(widths[c] - row[c].length());
                line.append(c == 0 ? "" : "  ").append(c < leftColumns ? row[c] + pad : pad + row[c]);
            }
            out.append(line.toString().stripTrailing()).append('\n');
            if (r == 0)
            {
                int total = 0;
                for (final int w : widths)
                {
                    total += w;
                }
                out.append("-".repeat(total + 2 * (columns - 1))).append('\n');
            }
        }
    }
}
