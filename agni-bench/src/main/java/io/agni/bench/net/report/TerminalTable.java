package io.agni.bench.net.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The summary as plain-text tables for the terminal: first how the run was made (CPUs, warm-up, cross-check); then
 * per tool, case and target the median throughput, its range over the rounds, requests per server CPU-second and the
 * median latencies, with a note where client and server shared CPUs or the load's CPUs were saturated; then each
 * pair's round-by-round ratios and their median; then both tools' ratios side by side, and in words where they
 * disagree.
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
        final StringBuilder out = new StringBuilder();
        final String warning = results.quietness().warning();
        if (warning != null)
        {
            out.append("WARNING: ").append(warning).append("\n\n");
        }
        out.append(results.method().describe()).append("\n\n");
        final List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"workload", "target", "tool", "rounds", "median req/s", "min - max req/s",
            "req/server-CPU-s", "server CPU", "load CPU", "p50 us", "p99 us", "p99.9 us", "max us", "errors", "CPUs",
            "note"});
        for (final Summary.TargetSummary t : summary.targets())
        {
            rows.add(new String[]{t.workload(), t.target(), t.tool(), Integer.toString(t.rounds()),
                Format.rate(t.medianThroughput()), Format.rate(t.minThroughput()) + " - " +
                Format.rate(t.maxThroughput()), Format.rate(t.medianPerCpuSecond()),
                Format.percent(t.serverUtilisation()), Format.percent(t.generatorUtilisation()),
                Format.micros(t.p50()), Format.micros(t.p99()), Format.micros(t.p999()), Format.micros(t.max()),
                Long.toString(t.errors()), cpus(results, t.target()), note(t)});
        }
        table(out, rows, 3);
        if (!summary.pairs().isEmpty())
        {
            final List<String[]> ratios = new ArrayList<>();
            ratios.add(new String[]{"workload", "A / B", "tool", "throughput A/B", "per round", "per CPU-s A/B",
                "per round", "p99 A/B", "per round"});
            for (final Summary.PairRatio p : summary.pairs())
            {
                ratios.add(new String[]{p.workload(), p.a() + " / " + p.b(), p.tool(),
                    Format.ratio(p.throughputRatio()), Format.ratios(p.throughputRatios()), Format.ratio(p.cpuRatio()),
                    Format.ratios(p.cpuRatios()), Format.ratio(p.p99Ratio()), Format.ratios(p.p99Ratios())});
            }
            out.append('\n');
            table(out, ratios, 3);
        }
        if (!summary.crossChecks().isEmpty())
        {
            final List<String[]> checks = new ArrayList<>();
            checks.add(new String[]{"workload", "A / B", "req/s A/B agni-loadgen", "redis-benchmark", "apart",
                "per CPU-s A/B agni-loadgen", "redis-benchmark"});
            for (final Summary.CrossCheck c : summary.crossChecks())
            {
                checks.add(new String[]{c.workload(), c.a() + " / " + c.b(), Format.ratio(c.loadgenRatio()),
                    Format.ratio(c.benchmarkRatio()), Format.percent(Math.abs(c.agreement() - 1)),
                    Format.ratio(c.loadgenCpuRatio()), Format.ratio(c.benchmarkCpuRatio())});
            }
            out.append('\n');
            table(out, checks, 2);
            out.append('\n').append(agreement(summary)).append('\n');
        }
        return out.toString();
    }

    /**
     * @param summary a summary with cross-checks.
     * @return whether the two tools' throughput ratios agree within {@link Summary#DISAGREEMENT}, in words, naming
     * every pair where they do not.
     */
    public static String agreement(final Summary summary)
    {
        final List<String> differ = summary.crossChecks().stream().filter(Summary.CrossCheck::differs)
            .map(Summary.CrossCheck::sentence).toList();
        if (differ.isEmpty())
        {
            return "agni-loadgen and redis-benchmark agree within 10 % on every ratio.";
        }
        return "agni-loadgen and redis-benchmark differ by more than 10 % on " + differ.size() + " of " +
            summary.crossChecks().size() + " ratios, a finding about the method rather than the servers: " +
            String.join("; ", differ) + ".";
    }

    /**
     * @param results the results.
     * @param target  a target's name.
     * @return its CPUs for a table cell: the placement's label ({@code 1 | 0}: server | load, or {@code shared}), or
     * {@code not placed} for a server the harness did not start (it runs wherever it runs, perhaps on the load's CPUs).
     */
    static String cpus(final BenchmarkResults results, final String target)
    {
        final boolean started = results.targets().stream().anyMatch(t -> t.name().equals(target) && t.pid() > 0);
        return started ? results.method().placement().label() : "not placed";
    }

    /**
     * @param t a row.
     * @return what to say of it: the rounds in which the load's CPUs were saturated (client-bound) and those in which
     * the server's were, if any; where both were, neither side had CPU to spare.
     */
    static String note(final Summary.TargetSummary t)
    {
        final List<String> notes = new ArrayList<>();
        if (t.clientBoundRounds() > 0)
        {
            notes.add("client-bound " + t.clientBoundRounds() + "/" + t.rounds());
        }
        if (t.serverSaturatedRounds() > 0)
        {
            notes.add("server saturated " + t.serverSaturatedRounds() + "/" + t.rounds());
        }
        return String.join(", ", notes);
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
