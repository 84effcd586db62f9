package io.agni.bench.net.report;

import io.agni.bench.net.cpu.CpuUse;
import io.agni.bench.net.load.Latency;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The figures that count, computed from the runs: per tool, case and target the median and range over rounds (speed,
 * and requests per server CPU-second: what a request costs the server); per tool, case and pair of targets the
 * median of the round-by-round ratios (see {@link Stats}); and, where redis-benchmark ran too, each pair's ratio by
 * both tools side by side.
 *
 * @param targets     per tool, case and target, in run order.
 * @param pairs       per tool, case and pair (A before B in the target order), in run order.
 * @param crossChecks per case and pair that both tools measured.
 */
public record Summary(List<TargetSummary> targets, List<PairRatio> pairs, List<CrossCheck> crossChecks)
{
    /**
     * Two tools' ratios that differ by more than this share disagree: a finding about the method.
     */
    public static final double DISAGREEMENT = 0.10;

    private static final List<String> TOOLS = List.of(RunResult.LOADGEN, RunResult.REDIS_BENCHMARK);

    /**
     * One target's figures for one case, by one tool, over the rounds.
     *
     * @param tool                  the client.
     * @param workload              the case.
     * @param target                the target.
     * @param rounds                rounds with a result.
     * @param throughput            requests per second in each round (NaN where missing).
     * @param medianThroughput      the median of those.
     * @param minThroughput         the smallest.
     * @param maxThroughput         the largest.
     * @param p50                   the median over rounds of each round's p50, in microseconds.
     * @param p99                   likewise p99.
     * @param p999                  likewise p99.9.
     * @param max                   likewise the maximum.
     * @param errors                error replies over all rounds.
     * @param perCpuSecond          requests per server CPU-second in each round (NaN where not known).
     * @param medianPerCpuSecond    the median of those.
     * @param serverUtilisation     the median over rounds of the server's CPU-seconds per second.
     * @param generatorUtilisation  the median over rounds of the load generator's use of its CPUs (NaN for a tool
     *                              whose process time is not read).
     * @param clientBoundRounds     rounds in which the load's CPUs were saturated.
     * @param serverSaturatedRounds rounds in which the server used at least {@link CpuUse#SERVER_SATURATED} of its
     *                              CPUs
     *                              (it, not the load, may have set the pace).
     */
    public record TargetSummary(
        String tool,
        String workload,
        String target,
        int rounds,
        double[] throughput,
        double medianThroughput,
        double minThroughput,
        double maxThroughput,
        double p50,
        double p99,
        double p999,
        double max,
        long errors,
        double[] perCpuSecond,
        double medianPerCpuSecond,
        double serverUtilisation,
        double generatorUtilisation,
        int clientBoundRounds,
        int serverSaturatedRounds)
    {
    }

    /**
     * A over B for one case, by one tool.
     *
     * @param tool             the client.
     * @param workload         the case.
     * @param a                the first target.
     * @param b                the second target.
     * @param throughputRatios A's throughput / B's, per round.
     * @param throughputRatio  the median of those.
     * @param p99Ratios        A's p99 / B's, per round.
     * @param p99Ratio         the median of those.
     * @param cpuRatios        A's requests per server CPU-second / B's, per round.
     * @param cpuRatio         the median of those.
     */
    public record PairRatio(
        String tool,
        String workload,
        String a,
        String b,
        double[] throughputRatios,
        double throughputRatio,
        double[] p99Ratios,
        double p99Ratio,
        double[] cpuRatios,
        double cpuRatio)
    {
    }

    /**
     * One pair's ratios by both tools.
     *
     * @param workload         the case.
     * @param a                the first target.
     * @param b                the second target.
     * @param loadgenRatio     agni-loadgen's median throughput ratio.
     * @param benchmarkRatio   redis-benchmark's.
     * @param loadgenCpuRatio  agni-loadgen's median ratio of requests per server CPU-second.
     * @param benchmarkCpuRatio redis-benchmark's.
     */
    public record CrossCheck(
        String workload,
        String a,
        String b,
        double loadgenRatio,
        double benchmarkRatio,
        double loadgenCpuRatio,
        double benchmarkCpuRatio)
    {
        /**
         * @return agni-loadgen's throughput ratio over redis-benchmark's: 1.0 when the tools agree.
         */
        public double agreement()
        {
            return loadgenRatio / benchmarkRatio;
        }

        /**
         * @return true if the two tools' throughput ratios differ by more than {@link #DISAGREEMENT}.
         */
        public boolean differs()
        {
            final double agreement = agreement();
            return !Double.isNaN(agreement) && Math.abs(agreement - 1) > DISAGREEMENT;
        }

        /**
         * @return the disagreement in words, e.g. {@code set: agni / redis is 1.29 by agni-loadgen but 0.98 by
         * redis-benchmark (31 % apart)}.
         */
        public String sentence()
        {
            return String.format(Locale.ROOT,
                "%s: %s / %s is %.2f by agni-loadgen but %.2f by redis-benchmark (%.0f %% apart)",
                workload, a, b, loadgenRatio, benchmarkRatio, Math.abs(agreement() - 1) * 100);
        }
    }

    /**
     * Computes the summary.
     *
     * @param results the benchmark's results.
     * @return its summary.
     */
    public static Summary of(final BenchmarkResults results)
    {
        final List<TargetSummary> targets = new ArrayList<>();
        final List<PairRatio> pairs = new ArrayList<>();
        for (final String tool : TOOLS)
        {
            for (final String workload : results.workloads())
            {
                for (final TargetInfo target : results.targets())
                {
                    final TargetSummary summary = target(results, tool, workload, target.name(),
                        results.method().placement().server().size());
                    if (summary != null)
                    {
                        targets.add(summary);
                    }
                }
                for (int i = 0; i < results.targets().size(); i++)
                {
                    for (int j = i + 1; j < results.targets().size(); j++)
                    {
                        final PairRatio pair = pair(results, tool, workload, results.targets().get(i).name(),
                            results.targets().get(j).name());
                        if (pair != null)
                        {
                            pairs.add(pair);
                        }
                    }
                }
            }
        }
        final List<CrossCheck> crossChecks = new ArrayList<>();
        for (final PairRatio loadgen : pairs)
        {
            if (!loadgen.tool().equals(RunResult.LOADGEN))
            {
                continue;
            }
            for (final PairRatio benchmark : pairs)
            {
                if (benchmark.tool().equals(RunResult.REDIS_BENCHMARK) &&
                    benchmark.workload().equals(loadgen.workload()) && benchmark.a().equals(loadgen.a()) &&
                    benchmark.b().equals(loadgen.b()))
                {
                    crossChecks.add(new CrossCheck(loadgen.workload(), loadgen.a(), loadgen.b(),
                        loadgen.throughputRatio(), benchmark.throughputRatio(), loadgen.cpuRatio(),
                        benchmark.cpuRatio()));
                }
            }
        }
        return new Summary(List.copyOf(targets), List.copyOf(pairs), List.copyOf(crossChecks));
    }

    /**
     * A figure of one target and case in each round, by agni-loadgen, NaN in rounds without a result.
     *
     * @param results  the results.
     * @param target   the target.
     * @param workload the case.
     * @param figure   the figure of a run.
     * @return one value per planned round.
     */
    public static double[] perRound(
        final BenchmarkResults results,
        final String target,
        final String workload,
        final ToDoubleFunction<RunResult> figure)
    {
        return perRound(results, RunResult.LOADGEN, target, workload, figure);
    }

    /**
     * A figure of one tool's runs of one target and case in each round, NaN in rounds without a result.
     *
     * @param results  the results.
     * @param tool     the tool.
     * @param target   the target.
     * @param workload the case.
     * @param figure   the figure of a run.
     * @return one value per planned round.
     */
    public static double[] perRound(
        final BenchmarkResults results,
        final String tool,
        final String target,
        final String workload,
        final ToDoubleFunction<RunResult> figure)
    {
        final double[] values = new double[results.rounds()];
        Arrays.fill(values, Double.NaN);
        for (final RunResult run : results.runs(tool, target, workload))
        {
            if (run.round() >= 1 && run.round() <= values.length)
            {
                values[run.round() - 1] = figure.applyAsDouble(run);
            }
        }
        return values;
    }

    private static TargetSummary target(
        final BenchmarkResults results,
        final String tool,
        final String workload,
        final String target,
        final int serverCpus)
    {
        final List<RunResult> runs = results.runs(tool, target, workload);
        if (runs.isEmpty())
        {
            return null;
        }
        final double[] throughput = perRound(results, tool, target, workload, r -> r.measurement().throughput());
        final double[] perCpu = perRound(results, tool, target, workload, RunResult::perServerCpuSecond);
        return new TargetSummary(tool, workload, target, runs.size(), throughput,
            Stats.median(throughput), Stats.min(throughput), Stats.max(throughput),
            Stats.median(perRound(results, tool, target, workload, r -> latency(r).p50())),
            Stats.median(perRound(results, tool, target, workload, r -> latency(r).p99())),
            Stats.median(perRound(results, tool, target, workload, r -> latency(r).p999())),
            Stats.median(perRound(results, tool, target, workload, r -> latency(r).max())),
            runs.stream().mapToLong(r -> r.measurement().errors()).sum(),
            perCpu, Stats.median(perCpu),
            Stats.median(perRound(results, tool, target, workload, r -> r.cpu().serverUtilisation())),
            Stats.median(perRound(results, tool, target, workload, r -> r.cpu().generatorUtilisation())),
            (int)runs.stream().filter(r -> r.cpu().clientBound()).count(),
            (int)runs.stream()
                .filter(r -> r.cpu().serverUtilisation() >= CpuUse.SERVER_SATURATED * serverCpus).count());
    }

    private static PairRatio pair(
        final BenchmarkResults results,
        final String tool,
        final String workload,
        final String a,
        final String b)
    {
        if (results.runs(tool, a, workload).isEmpty() || results.runs(tool, b, workload).isEmpty())
        {
            return null;
        }
        final double[] throughput = Stats.ratios(
            perRound(results, tool, a, workload, r -> r.measurement().throughput()),
            perRound(results, tool, b, workload, r -> r.measurement().throughput()));
        final double[] p99 = Stats.ratios(
            perRound(results, tool, a, workload, r -> latency(r).p99()),
            perRound(results, tool, b, workload, r -> latency(r).p99()));
        final double[] cpu = Stats.ratios(
            perRound(results, tool, a, workload, RunResult::perServerCpuSecond),
            perRound(results, tool, b, workload, RunResult::perServerCpuSecond));
        return new PairRatio(tool, workload, a, b, throughput, Stats.median(throughput), p99, Stats.median(p99), cpu,
            Stats.median(cpu));
    }

    private static Latency latency(final RunResult run)
    {
        return run.measurement().latency();
    }
}
