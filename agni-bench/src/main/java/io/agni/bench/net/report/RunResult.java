package io.agni.bench.net.report;

import io.agni.bench.net.cpu.CpuUse;
import io.agni.bench.net.load.RunMeasurement;

import java.time.Instant;

/**
 * One measured run: one tool, one target, one case (workload and pipeline depth), one round.
 *
 * @param tool        the client that made the load: {@link #LOADGEN} or {@link #REDIS_BENCHMARK}.
 * @param target      the target's name.
 * @param workload    the case's name.
 * @param round       the round, from 1.
 * @param started     when the run began (wall clock).
 * @param measurement what the client measured.
 * @param cpu         the CPU used over the measured window.
 */
public record RunResult(
    String tool,
    String target,
    String workload,
    int round,
    Instant started,
    RunMeasurement measurement,
    CpuUse cpu)
{
    /**
     * agni's own load generator.
     */
    public static final String LOADGEN = "agni-loadgen";

    /**
     * Redis's benchmark client, the cross-check.
     */
    public static final String REDIS_BENCHMARK = "redis-benchmark";

    /**
     * @return requests per server CPU-second in this run, NaN if the server's CPU time is not known.
     */
    public double perServerCpuSecond()
    {
        return cpu.perServerCpuSecond(measurement.throughput());
    }
}
