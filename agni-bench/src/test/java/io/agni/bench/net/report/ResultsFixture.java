package io.agni.bench.net.report;

import io.agni.bench.net.cpu.CpuPlacement;
import io.agni.bench.net.cpu.CpuSet;
import io.agni.bench.net.cpu.CpuUse;
import io.agni.bench.net.load.Latency;
import io.agni.bench.net.load.RunMeasurement;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds {@link BenchmarkResults} by hand for the report tests: runs with a given throughput and p99, everything
 * else derived from them.
 */
final class ResultsFixture
{
    /**
     * Servers on CPU 1, load on CPU 0, a 5-second warm-up round, cross-checked.
     */
    static final Method METHOD = new Method(new CpuPlacement(CpuSet.of(0, 1), CpuSet.of(1), CpuSet.of(0), true,
        null), Duration.ofSeconds(5), true, null);

    private final List<TargetInfo> targets = new ArrayList<>();
    private Method method = METHOD;
    private final List<String> workloads = new ArrayList<>();
    private final List<RunResult> runs = new ArrayList<>();
    private Quietness quietness = Quietness.UNKNOWN;
    private final int rounds;

    ResultsFixture(final int rounds)
    {
        this.rounds = rounds;
    }

    ResultsFixture target(final String name)
    {
        targets.add(new TargetInfo(name, "redis", List.of("redis-server", "--port", "1234", "--save", ""),
            "127.0.0.1:1234", 42));
        return this;
    }

    ResultsFixture method(final Method method)
    {
        this.method = method;
        return this;
    }

    /**
     * A server the harness did not start: given as HOST:PORT, no process id.
     */
    ResultsFixture addressTarget(final String name)
    {
        targets.add(new TargetInfo(name, "127.0.0.1:6379", List.of(), "127.0.0.1:6379", -1));
        return this;
    }

    ResultsFixture run(final String target, final String workload, final int round, final double throughput,
        final double p99)
    {
        return run(RunResult.LOADGEN, target, workload, round, throughput, p99, 0.5, 0.5);
    }

    /**
     * A run whose server used {@code serverUtilisation} CPU-seconds per second and whose load's CPUs were
     * {@code clientBusy} busy, over a 5-second window.
     */
    ResultsFixture run(final String tool, final String target, final String workload, final int round,
        final double throughput, final double p99, final double serverUtilisation, final double clientBusy)
    {
        if (!workloads.contains(workload))
        {
            workloads.add(workload);
        }
        final Latency latency = new Latency(1000, p99 / 3, p99 / 4, p99 / 2, p99, p99 * 2, p99 * 3, p99 * 5);
        runs.add(new RunResult(tool, target, workload, round, Instant.parse("2026-11-30T10:00:00Z"),
            new RunMeasurement((long)throughput * 5, 0, 3, null, 5_000_000_000L, throughput, latency,
                new long[]{(long)throughput, (long)throughput + 1, (long)throughput - 1, (long)throughput,
                    (long)throughput}, 0), new CpuUse(5, 5 * serverUtilisation, 5 * clientBusy, clientBusy, 1)));
        return this;
    }

    ResultsFixture quietness(final Quietness quietness)
    {
        this.quietness = quietness;
        return this;
    }

    BenchmarkResults build(final String failure)
    {
        final Map<String, String> flags = new LinkedHashMap<>();
        flags.put("--connections", "50");
        flags.put("--target", "a,b=redis:--io-threads 2");
        flags.put("--agni-jvm-opts", "-Xmx1g \"quoted\", <tag> & more");
        return new BenchmarkResults(new Environment(2, 24L << 30, "AMD EPYC", "Linux 6 amd64", "1.00 2.00 3.00",
            "Debian 17.0.15", "abc1234"), List.of("-c", "50", "--agni-jvm-opts", "-Xmx1g \"quoted\", <tag> & more"),
            flags, method, targets, workloads, rounds, runs, Instant.parse("2026-11-30T10:00:00Z"),
            Instant.parse("2026-11-30T10:02:00Z"), failure, quietness);
    }
}
