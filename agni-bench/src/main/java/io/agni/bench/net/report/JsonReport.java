package io.agni.bench.net.report;

import io.agni.bench.net.cpu.CpuPlacement;
import io.agni.bench.net.cpu.CpuUse;
import io.agni.bench.net.load.Latency;
import io.agni.bench.net.load.RunMeasurement;

import java.util.Map;

/**
 * The results as one JSON document ({@code results.json}): environment, command line, every flag, the targets, each
 * run with its latency percentiles (microseconds), per-second throughput and CPU use, the summary with the
 * round-by-round ratios, and both clients' ratios side by side. Format 2 added the method (CPU placement, warm-up
 * round, cross-check), the tool and CPU use of each run, requests per server CPU-second, and the cross-checks. Made to be read by a program; the field names are the report's vocabulary.
 */
public final class JsonReport
{
    /**
     * The version of the document's layout, raised when a field changes meaning.
     */
    public static final int FORMAT = 2;

    private JsonReport()
    {
    }

    /**
     * @param results what to write.
     * @return the JSON text.
     */
    public static String render(final BenchmarkResults results)
    {
        final JsonWriter json = new JsonWriter().beginObject();
        json.field("tool", "agni-loadgen").field("format", FORMAT);
        json.field("status", results.failure() == null ? "completed" : "failed").field("failure", results.failure());
        json.field("started", results.started().toString()).field("finished", results.finished().toString());
        environment(json, results.environment());
        quietness(json, results.quietness());
        json.name("arguments").beginArray();
        results.arguments().forEach(json::value);
        json.endArray();
        json.name("flags").beginObject();
        for (final Map.Entry<String, String> flag : results.flags().entrySet())
        {
            json.field(flag.getKey(), flag.getValue());
        }
        json.endObject();
        json.name("workloads").beginArray();
        results.workloads().forEach(json::value);
        json.endArray();
        json.field("rounds", results.rounds());
        method(json, results.method());
        targets(json, results);
        runs(json, results);
        summary(json, Summary.of(results), results.method().placement().shared());
        return json.endObject().toString();
    }

    private static void quietness(final JsonWriter json, final Quietness quietness)
    {
        json.name("quietness").beginObject()
            .field("loadAverage1", quietness.loadAverage())
            .field("busyBeforeStartPercent", quietness.busyAtStartPercent())
            .field("stealPercent", quietness.stealPercent())
            .field("quiet", quietness.warnings().isEmpty());
        json.name("warnings").beginArray();
        quietness.warnings().forEach(json::value);
        json.endArray();
        json.endObject();
    }

    private static void environment(final JsonWriter json, final Environment env)
    {
        json.name("machine").beginObject()
            .field("cores", env.cores())
            .field("memoryBytes", env.memoryBytes())
            .field("cpu", env.cpuModel())
            .field("os", env.os())
            .field("loadAverageAtStart", env.loadAverage())
            .endObject();
        json.field("jdk", env.jdk()).field("agniCommit", env.agniCommit());
    }

    private static void method(final JsonWriter json, final Method method)
    {
        final CpuPlacement placement = method.placement();
        json.name("method").beginObject()
            .field("description", method.describe())
            .field("pinned", placement.pinned())
            .field("sharedCpus", placement.shared())
            .field("serverCpus", placement.server().toString())
            .field("clientCpus", placement.client().toString())
            .field("availableCpus", placement.available().toString())
            .field("placementNote", placement.note())
            .field("warmupRoundSeconds", method.warmupRound().toMillis() / 1000.0)
            .field("crossCheck", method.crossCheck())
            .field("crossCheckNote", method.crossCheckNote())
            .endObject();
    }

    private static void targets(final JsonWriter json, final BenchmarkResults results)
    {
        json.name("targets").beginArray();
        for (final TargetInfo target : results.targets())
        {
            json.beginObject().field("name", target.name()).field("spec", target.description())
                .field("address", target.address()).field("pid", target.pid());
            json.name("command").beginArray();
            target.command().forEach(json::value);
            json.endArray().endObject();
        }
        json.endArray();
    }

    private static void runs(final JsonWriter json, final BenchmarkResults results)
    {
        json.name("runs").beginArray();
        for (final RunResult run : results.runs())
        {
            final RunMeasurement m = run.measurement();
            json.beginObject()
                .field("tool", run.tool())
                .field("target", run.target())
                .field("workload", run.workload())
                .field("round", run.round())
                .field("started", run.started().toString())
                .field("requests", m.requests())
                .field("errors", m.errors())
                .field("nullReplies", m.nulls())
                .field("firstError", m.firstError())
                .field("windowSeconds", m.windowNanos() / 1e9)
                .field("throughput", m.throughput())
                .field("late", m.late());
            cpu(json, run);
            latency(json, m.latency());
            json.name("perSecond").beginArray();
            for (final long count : m.perSecond())
            {
                json.value(count);
            }
            json.endArray().endObject();
        }
        json.endArray();
    }

    private static void cpu(final JsonWriter json, final RunResult run)
    {
        final CpuUse cpu = run.cpu();
        json.name("cpu").beginObject()
            .field("wallSeconds", cpu.wallSeconds())
            .field("serverCpuSeconds", cpu.serverCpuSeconds())
            .field("serverUtilisation", cpu.serverUtilisation())
            .field("requestsPerServerCpuSecond", run.perServerCpuSecond())
            .field("generatorCpuSeconds", cpu.generatorCpuSeconds())
            .field("generatorUtilisation", cpu.generatorUtilisation())
            .field("clientCpusBusy", cpu.clientCpusBusy())
            .field("clientBound", cpu.clientBound())
            .endObject();
    }

    private static void latency(final JsonWriter json, final Latency latency)
    {
        json.name("latencyMicros").beginObject()
            .field("count", latency.count())
            .field("mean", latency.mean())
            .field("p50", latency.p50())
            .field("p90", latency.p90())
            .field("p99", latency.p99())
            .field("p999", latency.p999())
            .field("p9999", latency.p9999())
            .field("max", latency.max())
            .endObject();
    }

    private static void summary(final JsonWriter json, final Summary summary, final boolean shared)
    {
        json.name("summary").beginArray();
        for (final Summary.TargetSummary t : summary.targets())
        {
            json.beginObject()
                .field("tool", t.tool())
                .field("workload", t.workload())
                .field("target", t.target())
                .field("rounds", t.rounds())
                .field("medianThroughput", t.medianThroughput())
                .field("minThroughput", t.minThroughput())
                .field("maxThroughput", t.maxThroughput())
                .field("medianP50Micros", t.p50())
                .field("medianP99Micros", t.p99())
                .field("medianP999Micros", t.p999())
                .field("medianMaxMicros", t.max())
                .field("errors", t.errors())
                .field("medianRequestsPerServerCpuSecond", t.medianPerCpuSecond())
                .field("medianServerUtilisation", t.serverUtilisation())
                .field("medianGeneratorUtilisation", t.generatorUtilisation())
                .field("clientBoundRounds", t.clientBoundRounds())
                .field("serverSaturatedRounds", t.serverSaturatedRounds())
                .field("sharedCpus", shared);
            array(json, "throughputPerRound", t.throughput());
            array(json, "requestsPerServerCpuSecondPerRound", t.perCpuSecond());
            json.endObject();
        }
        json.endArray();
        json.name("ratios").beginArray();
        for (final Summary.PairRatio p : summary.pairs())
        {
            json.beginObject()
                .field("tool", p.tool())
                .field("workload", p.workload())
                .field("a", p.a())
                .field("b", p.b())
                .field("medianThroughputRatio", p.throughputRatio())
                .field("medianP99Ratio", p.p99Ratio())
                .field("medianPerServerCpuSecondRatio", p.cpuRatio());
            array(json, "throughputRatioPerRound", p.throughputRatios());
            array(json, "p99RatioPerRound", p.p99Ratios());
            array(json, "perServerCpuSecondRatioPerRound", p.cpuRatios());
            json.endObject();
        }
        json.endArray();
        json.name("crossChecks").beginArray();
        for (final Summary.CrossCheck c : summary.crossChecks())
        {
            json.beginObject()
                .field("workload", c.workload())
                .field("a", c.a())
                .field("b", c.b())
                .field("loadgenThroughputRatio", c.loadgenRatio())
                .field("redisBenchmarkThroughputRatio", c.benchmarkRatio())
                .field("agreement", c.agreement())
                .field("differs", c.differs())
                .field("loadgenPerServerCpuSecondRatio", c.loadgenCpuRatio())
                .field("redisBenchmarkPerServerCpuSecondRatio", c.benchmarkCpuRatio())
                .endObject();
        }
        json.endArray();
        if (!summary.crossChecks().isEmpty())
        {
            json.field("crossCheckAgreement", TerminalTable.agreement(summary));
        }
    }

    private static void array(final JsonWriter json, final String name, final double[] values)
    {
        json.name(name).beginArray();
        for (final double value : values)
        {
            json.value(value);
        }
        json.endArray();
    }
}
