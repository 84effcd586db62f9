package io.agni.bench.net.report;

import io.agni.bench.net.load.Latency;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The figures that count, computed from the runs: per workload and target the median and range over rounds, and per
 * workload and pair of targets the median of the round-by-round ratios (see {@link Stats}).
 *
 * @param targets per workload and target, in run order.
 * @param pairs   per workload and pair (A before B in the target order), in run order.
 */
public record Summary(List<TargetSummary> targets, List<PairRatio> pairs)
{
    /**
     * One target's figures for one workload over the rounds.
     *
     * @param workload       the workload.
     * @param target         the target.
     * @param rounds         rounds with a result.
     * @param throughput     requests per second in each round (NaN where missing).
     * @param medianThroughput the median of those.
     * @param minThroughput  the smallest.
     * @param maxThroughput  the largest.
     * @param p50            the median over rounds of each round's p50, in microseconds.
     * @param p99            likewise p99.
     * @param p999           likewise p99.9.
     * @param max            likewise the maximum.
     * @param errors         error replies over all rounds.
     */
    public record TargetSummary(
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
        long errors)
    {
    }

    /**
     * A over B for one workload.
     *
     * @param workload         the workload.
     * @param a                the first target.
     * @param b                the second target.
     * @param throughputRatios A's throughput / B's, per round.
     * @param throughputRatio  the median of those.
     * @param p99Ratios        A's p99 / B's, per round.
     * @param p99Ratio         the median of those.
     */
    public record PairRatio(
        String workload,
        String a,
        String b,
        double[] throughputRatios,
        double throughputRatio,
        double[] p99Ratios,
        double p99Ratio)
    {
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
        for (final String workload : results.workloads())
        {
            for (final TargetInfo target : results.targets())
            {
                final List<RunResult> runs = results.runs(target.name(), workload);
                if (runs.isEmpty())
                {
                    continue;
                }
                final double[] throughput = perRound(results, target.name(), workload, r -> r.measurement().throughput());
                targets.add(new TargetSummary(workload, target.name(), runs.size(), throughput,
                    Stats.median(throughput), Stats.min(throughput), Stats.max(throughput),
                    Stats.median(perRound(results, target.name(), workload, r -> latency(r).p50())),
                    Stats.median(perRound(results, target.name(), workload, r -> latency(r).p99())),
                    Stats.median(perRound(results, target.name(), workload, r -> latency(r).p999())),
                    Stats.median(perRound(results, target.name(), workload, r -> latency(r).max())),
                    runs.stream().mapToLong(r -> r.measurement().errors()).sum()));
            }
            for (int i = 0; i < results.targets().size(); i++)
            {
                for (int j = i + 1; j < results.targets().size(); j++)
                {
                    final String a = results.targets().get(i).name();
                    final String b = results.targets().get(j).name();
                    if (results.runs(a, workload).isEmpty() || results.runs(b, workload).isEmpty())
                    {
                        continue;
                    }
                    final double[] throughput = Stats.ratios(
                        perRound(results, a, workload, r -> r.measurement().throughput()),
                        perRound(results, b, workload, r -> r.measurement().throughput()));
                    final double[] p99 = Stats.ratios(
                        perRound(results, a, workload, r -> latency(r).p99()),
                        perRound(results, b, workload, r -> latency(r).p99()));
                    pairs.add(new PairRatio(workload, a, b, throughput, Stats.median(throughput), p99,
                        Stats.median(p99)));
                }
            }
        }
        return new Summary(List.copyOf(targets), List.copyOf(pairs));
    }

    /**
     * A figure of one target and workload in each round, NaN in rounds without a result.
     *
     * @param results  the results.
     * @param target   the target.
     * @param workload the workload.
     * @param figure   the figure of a run.
     * @return one value per planned round.
     */
    public static double[] perRound(
        final BenchmarkResults results,
        final String target,
        final String workload,
        final ToDoubleFunction<RunResult> figure)
    {
        final double[] values = new double[results.rounds()];
        Arrays.fill(values, Double.NaN);
        for (final RunResult run : results.runs(target, workload))
        {
            if (run.round() >= 1 && run.round() <= values.length)
            {
                values[run.round() - 1] = figure.applyAsDouble(run);
            }
        }
        return values;
    }

    private static Latency latency(final RunResult run)
    {
        return run.measurement().latency();
    }
}
