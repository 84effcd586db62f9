package io.agni.bench.net;

import io.agni.bench.net.load.RunSettings;
import io.agni.bench.net.load.Workload;
import io.agni.bench.net.target.TargetSpec;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * What a benchmark runs: the targets, the workloads, the rounds, and the load of each run. Every run of round 1
 * warms up for at least {@code firstWarmup}, so that a freshly started server's JIT has compiled its hot path before
 * anything is measured; later runs warm up for {@code warmup}.
 *
 * @param targets      the targets, run in this order within a round.
 * @param workloads    the workloads, run in this order within a round, each over all targets before the next.
 * @param rounds       rounds, at least 1.
 * @param connections  connections per run.
 * @param threads      load generator threads.
 * @param pipeline     requests in flight per connection.
 * @param keys         the key space.
 * @param valueSize    bytes per SET value.
 * @param warmup       warm-up of every run after round 1.
 * @param firstWarmup  the least warm-up of a run in round 1.
 * @param duration     the measured time of a run, unless {@code requests > 0}.
 * @param requests     if more than 0, measured requests per run instead of a duration.
 * @param rate         0 for closed loop, else the open-loop rate in requests per second.
 * @param seed         seeds key choices.
 * @param fill         whether to write the key space before a workload that reads it.
 * @param allowErrors  whether error replies are tolerated (otherwise the first run with one ends the benchmark).
 * @param startTimeout how long a server may take to answer PING.
 * @param stallTimeout how long a run may go without any reply before it fails.
 */
public record BenchmarkPlan(
    List<TargetSpec> targets,
    List<Workload> workloads,
    int rounds,
    int connections,
    int threads,
    int pipeline,
    long keys,
    int valueSize,
    Duration warmup,
    Duration firstWarmup,
    Duration duration,
    long requests,
    double rate,
    long seed,
    boolean fill,
    boolean allowErrors,
    Duration startTimeout,
    Duration stallTimeout)
{
    /**
     * Validates the plan.
     */
    public BenchmarkPlan
    {
        targets = List.copyOf(targets);
        workloads = List.copyOf(workloads);
        if (targets.isEmpty() || workloads.isEmpty() || rounds < 1)
        {
            throw new IllegalArgumentException("need at least one target, one workload and one round: targets=" +
                targets.size() + ", workloads=" + workloads.size() + ", rounds=" + rounds);
        }
        final long names = targets.stream().map(TargetSpec::name).distinct().count();
        if (names != targets.size())
        {
            throw new IllegalArgumentException("target names must differ; name them with NAME=SPEC: " +
                targets.stream().map(TargetSpec::name).toList());
        }
        new RunSettings(new InetSocketAddress(0), workloads.get(0), connections, threads, pipeline, keys, valueSize,
            warmup.toNanos(), requests > 0 ? 0 : duration.toNanos(), requests, rate, seed, stallTimeout.toNanos());
    }

    /**
     * The settings of one run.
     *
     * @param address  the target's address.
     * @param workload the workload.
     * @param round    the round, from 1.
     * @return the validated settings.
     */
    public RunSettings settings(final InetSocketAddress address, final Workload workload, final int round)
    {
        final Duration warm = round == 1 && firstWarmup.compareTo(warmup) > 0 ? firstWarmup : warmup;
        return new RunSettings(address, workload, connections, threads, pipeline, keys, valueSize, warm.toNanos(),
            requests > 0 ? 0 : duration.toNanos(), requests, rate, seed + round, stallTimeout.toNanos());
    }

    /**
     * @return the number of runs: targets x workloads x rounds.
     */
    public int runCount()
    {
        return targets.size() * workloads.size() * rounds;
    }
}
