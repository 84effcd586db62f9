package io.agni.bench.net.report;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a benchmark produced, as every report writer reads it: where and how it was run, the targets, and one
 * {@link RunResult} per target, workload and round, in the order run.
 *
 * @param environment the machine, JDK and commit.
 * @param arguments   the command line as given.
 * @param flags       every option with its effective value, defaults included, in the order of {@code --help}.
 * @param method      where servers and load ran, the warm-up round and the cross-check.
 * @param targets     the targets, in the order run within a round.
 * @param workloads   the cases' names (workload, and pipeline depth if several), in the order run within a round.
 * @param rounds      the rounds planned.
 * @param runs        the runs done.
 * @param started     when the benchmark began.
 * @param finished    when it ended.
 * @param failure     why it stopped early, or null if it completed.
 * @param quietness   whether the machine was quiet: the load and steal that make the figures less reliable.
 */
public record BenchmarkResults(
    Environment environment,
    List<String> arguments,
    Map<String, String> flags,
    Method method,
    List<TargetInfo> targets,
    List<String> workloads,
    int rounds,
    List<RunResult> runs,
    Instant started,
    Instant finished,
    String failure,
    Quietness quietness)
{
    /**
     * Copies the collections.
     */
    public BenchmarkResults
    {
        arguments = List.copyOf(arguments);
        flags = Collections.unmodifiableMap(new LinkedHashMap<>(flags));
        targets = List.copyOf(targets);
        workloads = List.copyOf(workloads);
        runs = List.copyOf(runs);
    }

    /**
     * @param target   a target's name.
     * @param workload a case's name.
     * @return that target's agni-loadgen runs of that case, in the order run (by round).
     */
    public List<RunResult> runs(final String target, final String workload)
    {
        return runs(RunResult.LOADGEN, target, workload);
    }

    /**
     * @param tool     the client: {@link RunResult#LOADGEN} or {@link RunResult#REDIS_BENCHMARK}.
     * @param target   a target's name.
     * @param workload a case's name.
     * @return that tool's runs of that case on that target, in the order run (by round).
     */
    public List<RunResult> runs(final String tool, final String target, final String workload)
    {
        return runs.stream().filter(r -> r.tool().equals(tool) && r.target().equals(target) &&
            r.workload().equals(workload)).toList();
    }
}
