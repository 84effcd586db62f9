package io.agni.bench.net.report;

import io.agni.bench.net.cpu.CpuPlacement;
import io.agni.bench.net.cpu.CpuUse;
import io.agni.bench.net.load.Latency;
import io.agni.bench.net.load.RunMeasurement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The results as CSV for spreadsheets: {@code runs.csv}, one row per run, and {@code summary.csv}, one row per
 * target and workload followed by one per pair. Every row of {@code runs.csv} carries the environment and every
 * flag, so a row copied elsewhere still says how it was measured. RFC 4180 quoting; latencies in microseconds.
 */
public final class CsvReport
{
    private CsvReport()
    {
    }

    /**
     * @param results what to write.
     * @return the text of {@code runs.csv}.
     */
    public static String runs(final BenchmarkResults results)
    {
        final StringBuilder out = new StringBuilder();
        final List<String> header = new ArrayList<>(List.of("tool", "target", "workload", "round", "started", "requests",
            "errors", "null_replies", "window_s", "throughput_per_s", "p50_us", "p90_us", "p99_us", "p99.9_us",
            "p99.99_us", "max_us", "mean_us", "late", "per_second", "server_cpu_s", "requests_per_server_cpu_s",
            "generator_cpu_s", "client_cpus_busy", "client_bound", "shared_cpus", "server_cpus", "client_cpus", "cores",
            "memory_bytes", "cpu", "os", "jdk", "agni_commit"));
        for (final String flag : results.flags().keySet())
        {
            header.add(flag.replaceFirst("^-+", ""));
        }
        row(out, header);
        final Environment env = results.environment();
        final CpuPlacement placement = results.method().placement();
        for (final RunResult run : results.runs())
        {
            final RunMeasurement m = run.measurement();
            final Latency l = m.latency();
            final StringBuilder perSecond = new StringBuilder();
            for (final long count : m.perSecond())
            {
                perSecond.append(perSecond.length() == 0 ? "" : " ").append(count);
            }
            final CpuUse cpu = run.cpu();
            final List<String> cells = new ArrayList<>(List.of(run.tool(), run.target(), run.workload(),
                Integer.toString(run.round()), run.started().toString(), Long.toString(m.requests()),
                Long.toString(m.errors()), Long.toString(m.nulls()), number(m.windowNanos() / 1e9),
                number(m.throughput()), number(l.p50()), number(l.p90()), number(l.p99()), number(l.p999()),
                number(l.p9999()), number(l.max()), number(l.mean()), Long.toString(m.late()), perSecond.toString(),
                number(cpu.serverCpuSeconds()), number(run.perServerCpuSecond()), number(cpu.generatorCpuSeconds()),
                number(cpu.clientCpusBusy()), Boolean.toString(cpu.clientBound()),
                Boolean.toString(placement.shared()), placement.server().toString(), placement.client().toString(),
                Integer.toString(env.cores()), Long.toString(env.memoryBytes()), env.cpuModel(), env.os(), env.jdk(),
                env.agniCommit()));
            for (final Map.Entry<String, String> flag : results.flags().entrySet())
            {
                cells.add(flag.getValue());
            }
            row(out, cells);
        }
        return out.toString();
    }

    /**
     * @param results what to write.
     * @return the text of {@code summary.csv}.
     */
    public static String summary(final BenchmarkResults results)
    {
        final Summary summary = Summary.of(results);
        final StringBuilder out = new StringBuilder();
        final String shared = Boolean.toString(results.method().placement().shared());
        row(out, List.of("kind", "tool", "workload", "target", "versus", "rounds", "median_throughput_per_s",
            "min_throughput_per_s", "max_throughput_per_s", "median_requests_per_server_cpu_s",
            "median_server_utilisation", "client_bound_rounds", "server_saturated_rounds", "shared_cpus", "median_p50_us", "median_p99_us",
            "median_p99.9_us", "median_max_us", "errors", "median_throughput_ratio", "median_p99_ratio",
            "median_per_server_cpu_s_ratio", "throughput_ratio_per_round", "p99_ratio_per_round",
            "per_server_cpu_s_ratio_per_round"));
        for (final Summary.TargetSummary t : summary.targets())
        {
            row(out, List.of("target", t.tool(), t.workload(), t.target(), "", Integer.toString(t.rounds()),
                number(t.medianThroughput()), number(t.minThroughput()), number(t.maxThroughput()),
                number(t.medianPerCpuSecond()), number(t.serverUtilisation()), Integer.toString(t.clientBoundRounds()),
                Integer.toString(t.serverSaturatedRounds()), shared, number(t.p50()), number(t.p99()),
                number(t.p999()), number(t.max()),
                Long.toString(t.errors()), "", "", "", "", "", ""));
        }
        for (final Summary.PairRatio p : summary.pairs())
        {
            row(out, List.of("ratio", p.tool(), p.workload(), p.a(), p.b(),
                Integer.toString(p.throughputRatios().length), "", "", "", "", "", "", "", shared, "", "", "", "", "",
                number(p.throughputRatio()), number(p.p99Ratio()), number(p.cpuRatio()),
                numbers(p.throughputRatios()), numbers(p.p99Ratios()), numbers(p.cpuRatios())));
        }
        return out.toString();
    }

    static String number(final double value)
    {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value).replaceAll("\\.?0+$", "");
    }

    private static String numbers(final double[] values)
    {
        final StringBuilder out = new StringBuilder();
        for (final double value : values)
        {
            out.append(out.length() == 0 ? "" : " ").append(number(value));
        }
        return out.toString();
    }

    private static void row(final StringBuilder out, final List<String> cells)
    {
        for (int i = 0; i < cells.size(); i++)
        {
            if (i > 0)
            {
                out.append(',');
            }
            out.append(quote(cells.get(i) == null ? "" : cells.get(i)));
        }
        out.append("\r\n");
    }

    private static String quote(final String cell)
    {
        if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0)
        {
            return cell;
        }
        return '"' + cell.replace("\"", "\"\"") + '"';
    }
}
