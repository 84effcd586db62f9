package io.agni.bench.net.report;

import io.agni.bench.net.load.RunMeasurement;

import java.time.Instant;

/**
 * One measured run: one target, one workload, one round.
 *
 * @param target      the target's name.
 * @param workload    the workload's name.
 * @param round       the round, from 1.
 * @param started     when the run began (wall clock).
 * @param measurement what it measured.
 */
public record RunResult(String target, String workload, int round, Instant started, RunMeasurement measurement)
{
}
