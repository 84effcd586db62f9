package io.agni.bench.net.report;

import io.agni.bench.net.cpu.CpuUse;
import io.agni.bench.net.load.Latency;
import io.agni.bench.net.load.RunMeasurement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The results as one self-contained HTML page ({@code report.html}): the summary and ratio tables first, then per
 * workload a chart of throughput by round, one of latency percentiles (median over rounds bold, each round faint),
 * and one of throughput per second of every run; then every run, the flags and the environment. Charts are inline
 * SVG made by {@link SvgChart}; the page loads nothing from anywhere, so it can be mailed, archived and opened
 * offline.
 */
public final class HtmlReport
{
    private static final String[] DASHES = {"", "7 4", "2 3"};
    private static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "p99.9", "p99.99", "max");

    private static final String STYLE = "body{font-family:sans-serif;margin:24px;color:#222;max-width:1100px}" +
        "table{border-collapse:collapse;margin:8px 0 20px}th,td{border:1px solid #ccc;padding:4px 8px;" +
        "text-align:right;font-size:13px}th{background:#f2f2f2}td.l,th.l{text-align:left}" +
        "code,pre{font-family:monospace;font-size:12px}pre{background:#f6f6f6;padding:8px;white-space:pre-wrap}" +
        ".fail{color:#b00;font-weight:bold}.chart{display:block;margin:8px 0 16px;border:1px solid #eee}" +
        "h2{margin-top:32px;border-bottom:1px solid #ddd}";

    private HtmlReport()
    {
    }

    /**
     * @param results what to show.
     * @return the HTML text.
     */
    public static String render(final BenchmarkResults results)
    {
        final Summary summary = Summary.of(results);
        final StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .append("<title>agni load generator report</title>\n<style>").append(STYLE).append("</style>\n")
            .append("</head>\n<body>\n<h1>agni load generator report</h1>\n");
        final Environment env = results.environment();
        html.append("<p>").append(Html.escape(results.started().toString())).append(" to ")
            .append(Html.escape(results.finished().toString())).append(", agni commit <code>")
            .append(Html.escape(env.agniCommit())).append("</code>, ").append(env.cores()).append(" cores, ")
            .append(Html.escape(env.jdk())).append(".</p>\n");
        if (results.failure() != null)
        {
            html.append("<p class=\"fail\">The benchmark failed: ").append(Html.escape(results.failure()))
                .append("</p>\n");
        }
        final String warning = results.quietness().warning();
        if (warning != null)
        {
            html.append("<p class=\"fail\" id=\"not-quiet\">").append(Html.escape(warning)).append("</p>\n");
        }
        html.append("<p>").append(Html.escape(results.method().describe())).append("</p>\n");
        html.append("<p>Targets run interleaved in each round; ratios are taken round by round (A / B within a ")
            .append("round) and the median of them is shown. Requests per server CPU-second is what a request ")
            .append("costs the server (its user + system time from /proc over the measured window), whatever the ")
            .append("load. A row is client-bound when the load's CPUs were ")
            .append(Format.percent(CpuUse.CLIENT_BOUND)).append(" busy or more, and its server saturated when the ")
            .append("server used ").append(Format.percent(CpuUse.SERVER_SATURATED))
            .append(" of its CPUs or more; a client that cannot saturate a server measures its own ")
            .append("limit, not the server's. Latencies in microseconds.</p>\n");
        summaryTables(html, results, summary);
        for (final String workload : results.workloads())
        {
            charts(html, results, workload);
        }
        runsTable(html, results);
        setup(html, results);
        return html.append("</body>\n</html>\n").toString();
    }

    private static void summaryTables(final StringBuilder html, final BenchmarkResults results, final Summary summary)
    {
        html.append("<h2>Summary</h2>\n<table>\n<tr><th class=\"l\">workload</th><th class=\"l\">target</th>")
            .append("<th class=\"l\">tool</th><th>rounds</th><th>median req/s</th><th>min&ndash;max req/s</th>")
            .append("<th>req / server CPU-s</th><th>server CPU</th><th>load CPU</th><th>p50</th><th>p99</th>")
            .append("<th>p99.9</th><th>max</th><th>errors</th><th>CPUs (server | load)</th>")
            .append("<th class=\"l\">note</th></tr>\n");
        for (final Summary.TargetSummary t : summary.targets())
        {
            html.append("<tr><td class=\"l\">").append(Html.escape(t.workload())).append("</td><td class=\"l\">")
                .append(Html.escape(t.target())).append("</td><td class=\"l\">").append(Html.escape(t.tool()))
                .append("</td>").append(cell(Integer.toString(t.rounds())))
                .append(cell(Format.rate(t.medianThroughput())))
                .append(cell(Format.rate(t.minThroughput()) + " \u2013 " + Format.rate(t.maxThroughput())))
                .append(cell(Format.rate(t.medianPerCpuSecond()))).append(cell(Format.percent(t.serverUtilisation())))
                .append(cell(Format.percent(t.generatorUtilisation())))
                .append(cell(Format.micros(t.p50()))).append(cell(Format.micros(t.p99())))
                .append(cell(Format.micros(t.p999()))).append(cell(Format.micros(t.max())))
                .append(cell(Long.toString(t.errors()))).append(cell(TerminalTable.cpus(results, t.target())))
                .append("<td class=\"l\">")
                .append(Html.escape(TerminalTable.note(t))).append("</td></tr>\n");
        }
        html.append("</table>\n");
        if (summary.pairs().isEmpty())
        {
            return;
        }
        html.append("<table>\n<tr><th class=\"l\">workload</th><th class=\"l\">A / B</th><th class=\"l\">tool</th>")
            .append("<th>throughput ratio (median)</th><th>per round</th><th>per server CPU-s ratio (median)</th>")
            .append("<th>per round</th><th>p99 ratio (median)</th><th>per round</th></tr>\n");
        for (final Summary.PairRatio p : summary.pairs())
        {
            html.append("<tr><td class=\"l\">").append(Html.escape(p.workload())).append("</td><td class=\"l\">")
                .append(Html.escape(p.a() + " / " + p.b())).append("</td><td class=\"l\">")
                .append(Html.escape(p.tool())).append("</td>")
                .append(cell(Format.ratio(p.throughputRatio()))).append(cell(Format.ratios(p.throughputRatios())))
                .append(cell(Format.ratio(p.cpuRatio()))).append(cell(Format.ratios(p.cpuRatios())))
                .append(cell(Format.ratio(p.p99Ratio()))).append(cell(Format.ratios(p.p99Ratios())))
                .append("</tr>\n");
        }
        html.append("</table>\n");
        if (summary.crossChecks().isEmpty())
        {
            return;
        }
        html.append("<h2>Cross-check: both clients' ratios</h2>\n<table>\n<tr><th class=\"l\">workload</th>")
            .append("<th class=\"l\">A / B</th><th>req/s ratio, agni-loadgen</th><th>req/s ratio, redis-benchmark")
            .append("</th><th>apart</th><th>per CPU-s ratio, agni-loadgen</th><th>per CPU-s ratio, ")
            .append("redis-benchmark</th></tr>\n");
        for (final Summary.CrossCheck c : summary.crossChecks())
        {
            html.append("<tr").append(c.differs() ? " class=\"fail\"" : "").append("><td class=\"l\">")
                .append(Html.escape(c.workload())).append("</td><td class=\"l\">")
                .append(Html.escape(c.a() + " / " + c.b())).append("</td>")
                .append(cell(Format.ratio(c.loadgenRatio()))).append(cell(Format.ratio(c.benchmarkRatio())))
                .append(cell(Format.percent(Math.abs(c.agreement() - 1))))
                .append(cell(Format.ratio(c.loadgenCpuRatio()))).append(cell(Format.ratio(c.benchmarkCpuRatio())))
                .append("</tr>\n");
        }
        html.append("</table>\n<p>").append(Html.escape(TerminalTable.agreement(summary))).append("</p>\n");
    }

    private static void charts(final StringBuilder html, final BenchmarkResults results, final String workload)
    {
        html.append("<h2>Workload ").append(Html.escape(workload)).append("</h2>\n");
        final List<TargetInfo> targets = results.targets();
        final List<String> names = new ArrayList<>();
        final List<String> colors = new ArrayList<>();
        final List<String> groups = new ArrayList<>();
        for (int r = 1; r <= results.rounds(); r++)
        {
            groups.add("round " + r);
        }
        groups.add("median");
        final double[][] values = new double[targets.size()][];
        for (int t = 0; t < targets.size(); t++)
        {
            names.add(targets.get(t).name());
            colors.add(color(t));
            final double[] perRound = Summary.perRound(results, targets.get(t).name(), workload,
                r -> r.measurement().throughput());
            values[t] = Arrays.copyOf(perRound, perRound.length + 1);
            values[t][perRound.length] = Stats.median(perRound);
        }
        html.append(SvgChart.bars("Throughput by round: " + workload, "requests per second", groups, names, colors,
            values)).append('\n');
        final double[][] perCpu = new double[targets.size()][];
        boolean anyCpu = false;
        for (int t = 0; t < targets.size(); t++)
        {
            final double[] perRound = Summary.perRound(results, targets.get(t).name(), workload,
                RunResult::perServerCpuSecond);
            perCpu[t] = Arrays.copyOf(perRound, perRound.length + 1);
            perCpu[t][perRound.length] = Stats.median(perRound);
            anyCpu |= !Double.isNaN(perCpu[t][perRound.length]);
        }
        if (anyCpu)
        {
            html.append(SvgChart.bars("Requests per server CPU-second by round: " + workload,
                "requests per server CPU-second", groups, names, colors, perCpu)).append('\n');
        }

        final List<SvgChart.Series> latency = new ArrayList<>();
        final double[] positions = new double[PERCENTILES.size()];
        for (int i = 0; i < positions.length; i++)
        {
            positions[i] = i;
        }
        for (int t = 0; t < targets.size(); t++)
        {
            final List<RunResult> runs = results.runs(targets.get(t).name(), workload);
            final double[][] byRound = new double[runs.size()][];
            for (int r = 0; r < runs.size(); r++)
            {
                byRound[r] = percentiles(runs.get(r).measurement().latency());
                latency.add(new SvgChart.Series(targets.get(t).name() + " round " + runs.get(r).round(), color(t),
                    positions, byRound[r], 1, 0.35, false, ""));
            }
            final double[] median = new double[positions.length];
            for (int i = 0; i < median.length; i++)
            {
                final double[] column = new double[byRound.length];
                for (int r = 0; r < byRound.length; r++)
                {
                    column[r] = byRound[r][i];
                }
                median[i] = Stats.median(column);
            }
            latency.add(new SvgChart.Series(targets.get(t).name(), color(t), positions, median, 2.5, 1, true, ""));
        }
        html.append(SvgChart.lines("Latency percentiles: " + workload + " (median over rounds bold, rounds faint)",
            "percentile", "microseconds (log)", latency, true, PERCENTILES)).append('\n');

        final List<SvgChart.Series> perSecond = new ArrayList<>();
        for (int t = 0; t < targets.size(); t++)
        {
            for (final RunResult run : results.runs(targets.get(t).name(), workload))
            {
                final long[] counts = run.measurement().perSecond();
                final double[] x = new double[counts.length];
                final double[] y = new double[counts.length];
                for (int i = 0; i < counts.length; i++)
                {
                    x[i] = i + 1;
                    y[i] = counts[i];
                }
                perSecond.add(new SvgChart.Series(targets.get(t).name() + " round " + run.round(), color(t), x, y,
                    1.5, 0.8, false, DASHES[(run.round() - 1) % DASHES.length]));
            }
            perSecond.add(new SvgChart.Series(targets.get(t).name(), color(t), new double[0], new double[0], 1, 1,
                true, ""));
        }
        html.append(SvgChart.lines("Throughput per second of each run: " + workload +
            " (round 1 solid, 2 dashed, 3 dotted, then again)", "second of the measured window",
            "requests per second", perSecond, false, null)).append('\n');
    }

    private static void runsTable(final StringBuilder html, final BenchmarkResults results)
    {
        html.append("<h2>Runs</h2>\n<table>\n<tr><th>round</th><th class=\"l\">workload</th><th class=\"l\">target</th>")
            .append("<th class=\"l\">tool</th><th>requests</th><th>req/s</th><th>server CPU-s</th>")
            .append("<th>req / server CPU-s</th><th>load CPUs busy</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th>")
            .append("<th>p99.99</th><th>max</th><th>errors</th><th>null replies</th><th>late</th>")
            .append("<th class=\"l\">started</th></tr>\n");
        for (final RunResult run : results.runs())
        {
            final RunMeasurement m = run.measurement();
            final Latency l = m.latency();
            html.append("<tr>").append(cell(Integer.toString(run.round()))).append("<td class=\"l\">")
                .append(Html.escape(run.workload())).append("</td><td class=\"l\">").append(Html.escape(run.target()))
                .append("</td><td class=\"l\">").append(Html.escape(run.tool())).append("</td>")
                .append(cell(Long.toString(m.requests()))).append(cell(Format.rate(m.throughput())))
                .append(cell(Double.isNaN(run.cpu().serverCpuSeconds()) ? "-" :
                    String.format(Locale.ROOT, "%.2f", run.cpu().serverCpuSeconds())))
                .append(cell(Format.rate(run.perServerCpuSecond()))).append(cell(Format.percent(run.cpu().clientCpusBusy())))
                .append(cell(Format.micros(l.p50()))).append(cell(Format.micros(l.p90())))
                .append(cell(Format.micros(l.p99()))).append(cell(Format.micros(l.p999())))
                .append(cell(Format.micros(l.p9999()))).append(cell(Format.micros(l.max())))
                .append(cell(Long.toString(m.errors()))).append(cell(Long.toString(m.nulls())))
                .append(cell(Long.toString(m.late()))).append("<td class=\"l\">")
                .append(Html.escape(run.started().toString())).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    private static void setup(final StringBuilder html, final BenchmarkResults results)
    {
        html.append("<h2>Targets</h2>\n<table>\n<tr><th class=\"l\">name</th><th class=\"l\">given as</th>")
            .append("<th class=\"l\">address</th><th>pid</th><th class=\"l\">command</th></tr>\n");
        for (final TargetInfo t : results.targets())
        {
            html.append("<tr><td class=\"l\">").append(Html.escape(t.name())).append("</td><td class=\"l\">")
                .append(Html.escape(t.description())).append("</td><td class=\"l\">").append(Html.escape(t.address()))
                .append("</td>").append(cell(t.pid() < 0 ? "" : Long.toString(t.pid()))).append("<td class=\"l\"><code>")
                .append(Html.escape(String.join(" ", t.command()))).append("</code></td></tr>\n");
        }
        html.append("</table>\n<h2>Flags</h2>\n<pre>").append(Html.escape("agni-loadgen " +
            String.join(" ", results.arguments()))).append("</pre>\n<table>\n");
        for (final Map.Entry<String, String> flag : results.flags().entrySet())
        {
            html.append("<tr><td class=\"l\"><code>").append(Html.escape(flag.getKey())).append("</code></td>")
                .append("<td class=\"l\">").append(Html.escape(flag.getValue())).append("</td></tr>\n");
        }
        final Environment env = results.environment();
        html.append("</table>\n<h2>Environment</h2>\n<table>\n");
        row(html, "cores", Integer.toString(env.cores()));
        row(html, "memory", env.memoryBytes() < 0 ? "unknown" :
            String.format(Locale.ROOT, "%.1f GiB", env.memoryBytes() / (double)(1L << 30)));
        row(html, "cpu", env.cpuModel());
        row(html, "os", env.os());
        row(html, "load average at start (1, 5, 15 min)", env.loadAverage());
        row(html, "jdk", env.jdk());
        row(html, "agni commit", env.agniCommit());
        html.append("</table>\n");
    }

    private static void row(final StringBuilder html, final String name, final String value)
    {
        html.append("<tr><th class=\"l\">").append(Html.escape(name)).append("</th><td class=\"l\">")
            .append(Html.escape(value)).append("</td></tr>\n");
    }

    private static double[] percentiles(final Latency l)
    {
        return new double[]{l.p50(), l.p90(), l.p99(), l.p999(), l.p9999(), l.max()};
    }

    private static String color(final int index)
    {
        return SvgChart.PALETTE[index % SvgChart.PALETTE.length];
    }

    private static String cell(final String text)
    {
        return "<td>" + Html.escape(text) + "</td>";
    }
}
