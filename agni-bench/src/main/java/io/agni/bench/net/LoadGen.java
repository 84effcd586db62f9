package io.agni.bench.net;

import io.agni.bench.net.cpu.Affinity;
import io.agni.bench.net.cpu.CpuPlacement;
import io.agni.bench.net.cpu.CpuSet;
import io.agni.bench.net.crosscheck.RedisBenchmark;
import io.agni.bench.net.load.Workload;
import io.agni.bench.net.report.BenchmarkResults;
import io.agni.bench.net.report.Method;
import io.agni.bench.net.report.ReportFiles;
import io.agni.bench.net.report.TerminalTable;
import io.agni.bench.net.target.TargetSpec;
import io.agni.bench.net.target.Targets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * The network load generator's command line: one RESP load generator for every server, several targets run
 * interleaved over rounds, results as a terminal table, CSV, JSON and an HTML report. With no arguments it runs the
 * default comparison: agni with default shards, agni with one shard, and Redis if {@code redis-server} is installed;
 * 50 connections on 1,000 keys, 100-byte values, SET and GET at pipeline 1 and 16, a warm-up round and 3 measured
 * rounds, servers and load on disjoint CPUs, each run cross-checked with {@code redis-benchmark} when it is installed
 * (about nine minutes on 2 CPUs).
 *
 * <p>Exit status: 0 if every run completed without error replies, 1 if the benchmark failed (the reports are still
 * written, with the reason), 2 for a usage error.
 */
@Command(
    name = "agni-loadgen",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    version = "agni-loadgen 0.1.0",
    usageHelpWidth = 110,
    description = {
        "A RESP load generator for any server (agni, Redis, or any host:port), running several targets interleaved " +
            "A/B/A/B over rounds and reporting medians and round-by-round ratios.",
        "",
        "Without --target it runs the default comparison: agni (default shards), agni-1shard (agni:--shards 1) and " +
            "redis (if redis-server is installed), 50 connections, 1,000 keys, 100-byte values, SET and GET at " +
            "pipeline 1 and 16, a warm-up round and 3 rounds, cross-checked with redis-benchmark if installed: " +
            "about nine minutes on 2 CPUs.",
        "",
        "Servers and load run on disjoint CPUs (taskset): by default the servers on the upper half of the CPUs, " +
            "the load on the rest; an agni server on k CPUs gets k event loops. For every run the report gives the " +
            "server's CPU time (/proc) as requests per server CPU-second beside requests per second.",
        ""},
    footer = {
        "",
        "Targets ([NAME=]SPEC):",
        "  agni                     start agni-net/target/agni-server.jar in its own JVM on a free loopback port",
        "  agni-1shard=agni:--shards 1   the same with server flags (split at spaces), named agni-1shard",
        "  redis                    start redis-server --port P --bind 127.0.0.1 --save '' --appendonly no",
        "  redis:--io-threads 2     the same with more flags",
        "  HOST:PORT                a server already running (not started, not stopped)",
        "",
        "Workloads: set, get (key space filled first), get-miss (keys never written), mix:P (P%% GET, rest SET).",
        "",
        "Examples:",
        "  java -jar agni-bench/target/agni-loadgen.jar",
        "  java -jar agni-bench/target/agni-loadgen.jar -t redis -t localhost:6380 -w set,get -P 16",
        "  java -jar agni-bench/target/agni-loadgen.jar -t agni -w mix:90 --rate 20000 --duration 10s",
        "",
        "Output: <out>/report.html, results.json, runs.csv, summary.csv, server-NAME.log and " +
            "redis-benchmark-NAME.log.",
        "Exit status: 0 completed, 1 failed (reports still written), 2 usage error."})
public final class LoadGen implements Callable<Integer>
{
    /**
     * The targets run when none is given.
     */
    public static final List<String> DEFAULT_TARGETS = List.of("agni", "agni-1shard=agni:--shards 1", "redis");

    @Spec
    private CommandSpec spec;

    @Option(names = {"-t", "--target"}, paramLabel = "[NAME=]SPEC",
        description = "A server to measure; repeat for several, run in the order given. Default: agni, " +
            "agni-1shard=agni:--shards 1, and redis if redis-server is installed.")
    private List<String> targetTexts = new ArrayList<>();

    @Option(names = {"-w", "--workload"}, split = ",", paramLabel = "WORKLOAD", defaultValue = "set,get",
        description = "Workloads, comma-separated, each run on every target in turn: set, get, get-miss, mix:P. " +
            "Default: ${DEFAULT-VALUE}.")
    private List<String> workloadTexts;

    @Option(names = {"-c", "--connections"}, paramLabel = "N", defaultValue = "50",
        description = "Connections per run. Default: ${DEFAULT-VALUE}.")
    private int connections;

    @Option(names = {"-k", "--keys"}, paramLabel = "N", defaultValue = "1000",
        description = "Key space: keys key:000000000000 .. key:<keys-1>, as redis-benchmark -r makes them. " +
            "Default: ${DEFAULT-VALUE}.")
    private long keys;

    @Option(names = {"-d", "--value-size"}, defaultValue = "100", paramLabel = "BYTES",
        description = "Bytes per SET value. Default: ${DEFAULT-VALUE}.")
    private int valueSize;

    @Option(names = {"-P", "--pipeline"}, split = ",", defaultValue = "1,16", paramLabel = "DEPTH",
        description = "Requests in flight per connection; several, comma-separated, run every workload at each. " +
            "Default: ${DEFAULT-VALUE}.")
    private List<Integer> pipelines;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
        description = "Measured time per run (after the warm-up), e.g. 500ms, 5s, 2m. Default: ${DEFAULT-VALUE}.")
    private Duration duration;

    @Option(names = {"-n", "--requests"}, paramLabel = "N", defaultValue = "0",
        description = "Measure this many requests per run instead of a duration (0: use --duration). " +
            "Default: ${DEFAULT-VALUE}.")
    private long requests;

    @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.class,
        description = "Load before measuring, in every run. Default: ${DEFAULT-VALUE}.")
    private Duration warmup;

    @Option(names = "--warmup-round", paramLabel = "DURATION", defaultValue = "5s",
        converter = DurationConverter.class,
        description = "Before round 1, every target runs every case this long, not counted (a JVM compiles its hot " +
            "path then); 0s for none. Default: ${DEFAULT-VALUE}.")
    private Duration warmupRound;

    @Option(names = {"-r", "--rounds"}, paramLabel = "N", defaultValue = "3",
        description = "Rounds; each runs every workload on every target in turn. Default: ${DEFAULT-VALUE}.")
    private int rounds;

    @Option(names = "--rate", defaultValue = "0", paramLabel = "REQ/S",
        description = "Open loop at this total request rate, latency measured from each request's intended " +
            "send time; 0 is closed loop (each connection keeps --pipeline requests in flight, maximum " +
            "throughput). Default: ${DEFAULT-VALUE}.")
    private double rate;

    @Option(names = "--threads", paramLabel = "N",
        description = "Load generator threads, each an NIO selector over its share of the connections (and " +
            "redis-benchmark's --threads). Default: the number of load CPUs.")
    private Integer threads;

    @Option(names = "--server-cpus", paramLabel = "LIST",
        description = "CPUs of the servers the harness starts, e.g. 1 or 2-3. Default: the upper half of the " +
            "CPUs this process may use (at least one).")
    private String serverCpus;

    @Option(names = "--client-cpus", paramLabel = "LIST",
        description = "CPUs of the load (this process and redis-benchmark), e.g. 0 or 0-1. Default: the CPUs " +
            "the servers do not get.")
    private String clientCpus;

    @Option(names = "--no-pin",
        description = "Do not pin: servers and load share every CPU (the report says so).")
    private boolean noPin;

    @Option(names = "--cross-check", negatable = true, paramLabel = "BOOLEAN",
        description = "Run every set and get case with redis-benchmark too, pinned the same way, in the same " +
            "rounds. Default: on when redis-benchmark is installed and the load is closed-loop (no --rate).")
    private Boolean crossCheck;

    @Option(names = "--redis-benchmark", paramLabel = "PATH",
        description = "The redis-benchmark executable. Default: redis-benchmark on the PATH.")
    private Path redisBenchmarkPath;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
        description = "Where reports and server logs go. Default: target/agni-bench-report/<timestamp>.")
    private Path out;

    @Option(names = "--allow-errors",
        description = "Go on when a server replies with errors (they are counted and reported); by default the " +
            "first run with an error reply ends the benchmark as failed.")
    private boolean allowErrors;

    @Option(names = "--no-fill",
        description = "Do not write the key space before a workload that reads it (GETs may then miss).")
    private boolean noFill;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Seeds the key choices. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--agni-jar", paramLabel = "JAR",
        description = "agni's server jar. Default: " + Targets.AGNI_JAR + " under the working directory or the " +
            "repository this jar was built in.")
    private Path agniJar;

    @Option(names = "--agni-jvm-opts", paramLabel = "OPTS",
        description = "JVM options for agni servers, split at spaces, e.g. '-Xmx1g -XX:+UseParallelGC'. " +
            "Default: none.")
    private String agniJvmOptions;

    @Option(names = "--redis-server", paramLabel = "PATH",
        description = "The redis-server executable. Default: redis-server on the PATH.")
    private Path redisServer;

    @Option(names = "--start-timeout", paramLabel = "DURATION", defaultValue = "60s", converter = DurationConverter.class,
        description = "How long a started server may take to answer PING. Default: ${DEFAULT-VALUE}.")
    private Duration startTimeout;

    @Option(names = "--stall-timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
        description = "A run fails if no reply arrives for this long. Default: ${DEFAULT-VALUE}.")
    private Duration stallTimeout;

    @Option(names = "--no-progress", description = "No progress line, even on a terminal.")
    private boolean noProgress;

    private final List<String> arguments = new ArrayList<>();
    private PrintStream console = System.out;

    /**
     * Runs the command line and exits with its status.
     *
     * @param args the arguments; {@code --help} lists them.
     */
    public static void main(final String[] args)
    {
        System.exit(execute(args, System.out));
    }

    /**
     * Runs the command line without exiting.
     *
     * @param args    the arguments.
     * @param console where the output goes.
     * @return the exit status.
     */
    public static int execute(final String[] args, final PrintStream console)
    {
        final LoadGen command = new LoadGen();
        command.arguments.addAll(Arrays.asList(args));
        command.console = console;
        final CommandLine line = new CommandLine(command);
        line.setOut(new PrintWriter(console, true));
        return line.execute(args);
    }

    @Override
    public Integer call() throws IOException, InterruptedException
    {
        final Path redis = redisServer != null ? redisServer : Targets.onPath("redis-server").orElse(null);
        final List<TargetSpec> targetSpecs = new ArrayList<>();
        for (final String text : targetTexts.isEmpty() ? DEFAULT_TARGETS : targetTexts)
        {
            final TargetSpec target = parse(text, TargetSpec::parse);
            if (targetTexts.isEmpty() && target.kind() == TargetSpec.Kind.REDIS && redis == null)
            {
                console.println("redis-server is not installed: the default comparison runs without redis");
                continue;
            }
            targetSpecs.add(target);
        }
        final List<Workload> workloads = new ArrayList<>();
        for (final String text : workloadTexts)
        {
            workloads.add(parse(text, Workload::parse));
        }
        final CpuSet available = Affinity.available();
        final CpuPlacement placement = parse(null, ignore -> CpuPlacement.decide(available, serverCpus,
            clientCpus, noPin, !noPin && Affinity.canPin(available)));
        final Path benchmark = redisBenchmarkPath != null ? redisBenchmarkPath :
            Targets.onPath("redis-benchmark").orElse(null);
        if (Boolean.TRUE.equals(crossCheck) && benchmark == null)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cross-check needs redis-benchmark " +
                "(apt-get install -y redis-tools, or --redis-benchmark PATH)");
        }
        if (Boolean.TRUE.equals(crossCheck) && rate > 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cross-check cannot go with --rate: " +
                "redis-benchmark has no open loop, so it would measure another load");
        }
        final boolean crossChecking = benchmark != null && !Boolean.FALSE.equals(crossCheck) && rate == 0;
        final int loadThreads = threads != null ? threads : placement.client().size();
        final BenchmarkPlan plan = parse(null, ignore -> new BenchmarkPlan(targetSpecs, workloads, pipelines,
            rounds, connections, loadThreads, keys, valueSize, warmup, warmupRound, duration, requests, rate, seed,
            !noFill, allowErrors, crossChecking, startTimeout, stallTimeout));
        final Method method = new Method(placement, warmupRound, crossChecking, crossCheckNote(crossChecking,
            benchmark, rate > 0, workloads));
        final Targets factory = new Targets(Targets.locateAgniJar(agniJar),
            agniJvmOptions == null || agniJvmOptions.isBlank() ? List.of() :
                Arrays.asList(agniJvmOptions.trim().split("\\s+")), redis, placement);
        final Path directory = (out != null ? out : Path.of("target", "agni-bench-report",
            LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))).toAbsolutePath();
        console.println("agni-loadgen: " + plan.runCount() + " runs (" + targetSpecs.size() + " targets x " +
            plan.cases().size() + " cases x " + rounds + " rounds)" + (crossChecking ? ", each set and get run " +
            "again with redis-benchmark" : "") + ", reports in " + directory);

        final BenchmarkRunner runner = new BenchmarkRunner(plan, factory, method, crossChecking ? benchmark : null,
            directory, console, !noProgress && System.console() != null);
        final BenchmarkResults results;
        try
        {
            final Map<String, String> flags = flags();
            flags.put("--threads", Integer.toString(loadThreads));
            flags.put("--cross-check", Boolean.toString(crossChecking));
            results = runner.run(arguments, flags);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
        console.println();
        console.print(TerminalTable.render(results));
        final Path html = ReportFiles.write(directory, results);
        console.println();
        console.println("Report: " + html);
        return results.failure() == null ? 0 : 1;
    }

    private Map<String, String> flags()
    {
        final Map<String, String> flags = new LinkedHashMap<>();
        for (final OptionSpec option : spec.options())
        {
            if (option.usageHelp() || option.versionHelp())
            {
                continue;
            }
            final Object value = option.getValue();
            final String text;
            if (value == null)
            {
                text = "";
            }
            else if (value instanceof Duration d)
            {
                text = d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
            }
            else if (value instanceof Collection<?> values)
            {
                text = String.join(",", values.stream().map(String::valueOf).toList());
            }
            else
            {
                text = String.valueOf(value);
            }
            flags.put(option.longestName(), text);
        }
        return flags;
    }

    private static String crossCheckNote(
        final boolean on,
        final Path benchmark,
        final boolean openLoop,
        final List<Workload> workloads)
    {
        if (!on)
        {
            return benchmark == null ? "redis-benchmark is not installed" :
                openLoop ? "--rate: redis-benchmark has no open loop" : "--no-cross-check";
        }
        final List<String> cannot = workloads.stream().filter(w -> RedisBenchmark.test(w).isEmpty())
            .map(Workload::name).toList();
        return cannot.isEmpty() ? null : "redis-benchmark has no workload like " + String.join(", ", cannot);
    }

    private <T> T parse(final String text, final Function<String, T> parser)
    {
        try
        {
            return parser.apply(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
    }
}
