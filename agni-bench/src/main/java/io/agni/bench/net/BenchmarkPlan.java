package io.agni.bench.net;

import io.agni.bench.net.load.RunSettings;
import io.agni.bench.net.load.Workload;
import io.agni.bench.net.target.TargetSpec;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a benchmark runs: the targets, the workloads at each pipeline depth (the cases), the rounds, and the load of
 * each run.
 *
 * <h2>The warm-up round</h2>
 * Before round 1, every target runs every case for {@code warmupRound}, and nothing of it is counted: a freshly
 * started JVM server compiles its hot path then (Redis needs no such round, and gets the same one, so that both are
 * measured in the same state). Every measured run also warms up for {@code warmup} before its window opens.
 *
 * @param targets      the targets, run in this order within a round.
 * @param workloads    the workloads.
 * @param pipelines    the pipeline depths (requests in flight per connection); each workload runs at each.
 * @param rounds       rounds, at least 1.
 * @param connections  connections per run.
 * @param threads      load generator threads.
 * @param keys         the key space.
 * @param valueSize    bytes per SET value.
 * @param warmup       load before the measured window of every run.
 * @param warmupRound  the uncounted run of every case on every target before round 1; zero for none.
 * @param duration     the measured time of a run, unless {@code requests > 0}.
 * @param requests     if more than 0, measured requests per run instead of a duration.
 * @param rate         0 for closed loop, else the open-loop rate in requests per second.
 * @param seed         seeds key choices.
 * @param fill         whether to write the key space before a workload that reads it.
 * @param allowErrors  whether error replies are tolerated (otherwise the first run with one ends the benchmark).
 * @param crossCheck   whether redis-benchmark also runs each case it can, in the same rounds.
 * @param startTimeout how long a server may take to answer PING.
 * @param stallTimeout how long a run may go without any reply before it fails.
 */
public record BenchmarkPlan(
    List<TargetSpec> targets,
    List<Workload> workloads,
    List<Integer> pipelines,
    int rounds,
    int connections,
    int threads,
    long keys,
    int valueSize,
    Duration warmup,
    Duration warmupRound,
    Duration duration,
    long requests,
    double rate,
    long seed,
    boolean fill,
    boolean allowErrors,
    boolean crossCheck,
    Duration startTimeout,
    Duration stallTimeout)
{
    /**
     * One workload at one pipeline depth.
     *
     * @param workload the workload.
     * @param pipeline requests in flight per connection.
     * @param name     its label in the reports: the workload's name, followed by {@code  P<depth>} when a benchmark
     *                 runs several depths (e.g. {@code set P16}).
     */
    public record Case(Workload workload, int pipeline, String name)
    {
    }

    /**
     * Validates the plan.
     */
    public BenchmarkPlan
    {
        targets = List.copyOf(targets);
        workloads = List.copyOf(workloads);
        pipelines = List.copyOf(pipelines);
        if (targets.isEmpty() || workloads.isEmpty() || pipelines.isEmpty() || rounds < 1)
        {
            throw new IllegalArgumentException("need at least one target, one workload, one pipeline depth and one " +
                "round: targets=" + targets.size() + ", workloads=" + workloads.size() + ", pipelines=" +
                pipelines.size() + ", rounds=" + rounds);
        }
        if (pipelines.stream().distinct().count() != pipelines.size())
        {
            throw new IllegalArgumentException("pipeline depths must differ: " + pipelines);
        }
        final long names = targets.stream().map(TargetSpec::name).distinct().count();
        if (names != targets.size())
        {
            throw new IllegalArgumentException("target names must differ; name them with NAME=SPEC: " +
                targets.stream().map(TargetSpec::name).toList());
        }
        if (warmupRound.isNegative())
        {
            throw new IllegalArgumentException("the warm-up round must not be negative: " + warmupRound);
        }
        for (final int pipeline : pipelines)
        {
            new RunSettings(new InetSocketAddress(0), workloads.get(0), connections, threads, pipeline, keys,
                valueSize, warmup.toNanos(), requests > 0 ? 0 : duration.toNanos(), requests, rate, seed,
                stallTimeout.toNanos());
        }
    }

    /**
     * @return every workload at every depth, depth by depth: the order in which a round runs them.
     */
    public List<Case> cases()
    {
        final List<Case> cases = new ArrayList<>();
        for (final int pipeline : pipelines)
        {
            for (final Workload workload : workloads)
            {
                cases.add(new Case(workload, pipeline,
                    pipelines.size() == 1 ? workload.name() : workload.name() + " P" + pipeline));
            }
        }
        return List.copyOf(cases);
    }

    /**
     * The settings of one measured run.
     *
     * @param address the target's address.
     * @param run     the case.
     * @param round   the round, from 1.
     * @return the validated settings.
     */
    public RunSettings settings(final InetSocketAddress address, final Case run, final int round)
    {
        return new RunSettings(address, run.workload(), connections, threads, run.pipeline(), keys, valueSize,
            warmup.toNanos(), requests > 0 ? 0 : duration.toNanos(), requests, rate, seed + round,
            stallTimeout.toNanos());
    }

    /**
     * The settings of a case's uncounted run in the warm-up round.
     *
     * @param address the target's address.
     * @param run     the case.
     * @return the validated settings: no warm-up of its own, {@link #warmupRound} long.
     */
    public RunSettings warmupSettings(final InetSocketAddress address, final Case run)
    {
        return new RunSettings(address, run.workload(), connections, threads, run.pipeline(), keys, valueSize, 0,
            warmupRound.toNanos(), 0, rate, seed, stallTimeout.toNanos());
    }

    /**
     * @return the number of measured agni-loadgen runs: targets x cases x rounds.
     */
    public int runCount()
    {
        return targets.size() * cases().size() * rounds;
    }
}
