package io.agni.bench.net;

import io.agni.bench.net.cpu.Affinity;
import io.agni.bench.net.cpu.CpuProbe;
import io.agni.bench.net.cpu.CpuSet;
import io.agni.bench.net.cpu.CpuUse;
import io.agni.bench.net.cpu.ProcStat;
import io.agni.bench.net.crosscheck.RedisBenchmark;
import io.agni.bench.net.load.KeyFill;
import io.agni.bench.net.load.LoadRun;
import io.agni.bench.net.load.RunMeasurement;
import io.agni.bench.net.load.RunSettings;
import io.agni.bench.net.report.BenchmarkResults;
import io.agni.bench.net.report.Environment;
import io.agni.bench.net.report.Format;
import io.agni.bench.net.report.Method;
import io.agni.bench.net.report.Quietness;
import io.agni.bench.net.report.RunResult;
import io.agni.bench.net.report.TargetInfo;
import io.agni.bench.net.target.Target;
import io.agni.bench.net.target.TargetSpec;
import io.agni.bench.net.target.Targets;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a {@link BenchmarkPlan}: pins itself to the load's CPUs, starts every target on the servers' CPUs, runs the
 * uncounted warm-up round, then for each round, each case and each target in turn (A/B/A/B: the targets alternate
 * within every round, so drift of the machine falls on all of them alike) fills the key space if the workload reads
 * it and measures one run with agni-loadgen, reading the server's CPU time over the measured window; then, if the
 * cross-check is on, the same case with redis-benchmark on every target. It stops every server it started and gives
 * back the CPUs it had, whatever happens, and returns the results, with the reason if it stopped early.
 *
 * <h2>Servers stay up</h2>
 * Each server is started once and serves all its rounds: a restart per run would measure a cold JIT and empty caches
 * every time. Between its runs a server is idle while the others are measured.
 *
 * <h2>redis-benchmark's request count</h2>
 * redis-benchmark runs a number of requests, not a time: the count is what agni-loadgen served on the same target in
 * the same round over the measured duration (at least {@link #MIN_CROSS_CHECK_REQUESTS}), so redis-benchmark runs
 * about as long when it is as fast, and longer when it is slower (on 2 CPUs at pipeline 1, about twice as long).
 */
public final class BenchmarkRunner
{
    /**
     * The fewest requests of a redis-benchmark run.
     */
    public static final long MIN_CROSS_CHECK_REQUESTS = 10_000;

    private final BenchmarkPlan plan;
    private final Targets targets;
    private final Method method;
    private final Path redisBenchmark;
    private final Path outputDirectory;
    private final PrintStream console;
    private final boolean progressLine;

    /**
     * @param plan            what to run.
     * @param targets         how to make and start targets (pinned as {@code method} says).
     * @param method          the CPU placement, warm-up round and cross-check, as the reports state them.
     * @param redisBenchmark  the redis-benchmark executable, or null if the cross-check is off.
     * @param outputDirectory where server logs go.
     * @param console         where progress and per-run lines go.
     * @param progressLine    whether to redraw a progress line (on a terminal).
     */
    public BenchmarkRunner(
        final BenchmarkPlan plan,
        final Targets targets,
        final Method method,
        final Path redisBenchmark,
        final Path outputDirectory,
        final PrintStream console,
        final boolean progressLine)
    {
        this.plan = plan;
        this.targets = targets;
        this.method = method;
        this.redisBenchmark = redisBenchmark;
        this.outputDirectory = outputDirectory;
        this.console = console;
        this.progressLine = progressLine;
    }

    /**
     * Runs the benchmark.
     *
     * @param arguments the command line, for the record.
     * @param flags     every option's effective value, for the record.
     * @return the results; {@link BenchmarkResults#failure()} says why if it stopped early.
     * @throws IllegalArgumentException if a target cannot be made (before any server is started).
     * @throws InterruptedException     if interrupted; the servers are stopped first.
     */
    public BenchmarkResults run(final List<String> arguments, final Map<String, String> flags)
        throws InterruptedException
    {
        final Environment environment = Environment.capture(Targets.buildRepository().orElse(null));
        final ProcStat.MachineTicks beforeStart = ProcStat.machineTicks();
        // Not a wait for anything: the measuring window of Quietness.busyAtStartPercent, a second in which nothing
        // of the run goes on, so what the CPUs do meanwhile is other work.
        Thread.sleep(1_000);
        final ProcStat.MachineTicks atStart = ProcStat.machineTicks();
        final Instant started = Instant.now();
        final List<Target> made = new ArrayList<>();
        for (final TargetSpec spec : plan.targets())
        {
            made.add(targets.create(spec));
        }
        final List<TargetInfo> infos = new ArrayList<>();
        final List<InetSocketAddress> addresses = new ArrayList<>();
        final List<RunResult> runs = new ArrayList<>();
        String failure = null;
        final long self = ProcessHandle.current().pid();
        final CpuSet ownCpus = Affinity.available();
        boolean pinnedSelf = false;
        try
        {
            console.println(method.placement().describe());
            if (method.placement().pinned())
            {
                Affinity.pin(self, method.placement().client());
                pinnedSelf = true;
            }
            for (final Target target : made)
            {
                console.println("starting " + target.name() + " (" + target.spec().describe() + ")");
                final InetSocketAddress address = target.start(outputDirectory, plan.startTimeout());
                addresses.add(address);
                infos.add(new TargetInfo(target.name(), target.spec().describe(), target.command(),
                    (address.isUnresolved() ? address.getHostString() : address.getAddress().getHostAddress()) + ":" +
                        address.getPort(), target.pid()));
            }
            warmupRound(made, addresses);
            int index = 0;
            for (int round = 1; round <= plan.rounds(); round++)
            {
                for (final BenchmarkPlan.Case run : plan.cases())
                {
                    final List<RunResult> measured = new ArrayList<>();
                    for (int t = 0; t < made.size(); t++)
                    {
                        index++;
                        final RunResult result = runOne(made.get(t), addresses.get(t), run, round, index);
                        measured.add(result);
                        runs.add(result);
                    }
                    final Optional<String> test = RedisBenchmark.test(run.workload());
                    if (redisBenchmark != null && test.isPresent())
                    {
                        for (int t = 0; t < made.size(); t++)
                        {
                            crossCheck(made.get(t), addresses.get(t), run, round, test.get(), measured.get(t))
                                .ifPresent(runs::add);
                        }
                    }
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            failure = ex.getMessage() == null ? ex.toString() : ex.getMessage();
            clearProgress();
            console.println("FAILED: " + failure);
        }
        finally
        {
            for (final Target target : made)
            {
                target.close();
            }
            if (pinnedSelf)
            {
                restore(self, ownCpus);
            }
        }
        final ProcStat.MachineTicks atEnd = ProcStat.machineTicks();
        final int cpus = ProcStat.machineCpus();
        final Quietness quietness = new Quietness(cpus > 0 ? cpus : environment.cores(), environment.loadAverage1(),
            beforeStart != null && atStart != null ? atStart.busyPercentSince(beforeStart) : -1,
            atStart != null && atEnd != null ? atEnd.stealPercentSince(atStart) : -1);
        return new BenchmarkResults(environment, arguments, flags, method, infos,
            plan.cases().stream().map(BenchmarkPlan.Case::name).toList(), plan.rounds(), runs, started, Instant.now(),
            failure, quietness);
    }

    private void warmupRound(final List<Target> made, final List<InetSocketAddress> addresses)
        throws IOException, InterruptedException
    {
        if (plan.warmupRound().isZero())
        {
            return;
        }
        for (final BenchmarkPlan.Case run : plan.cases())
        {
            for (int t = 0; t < made.size(); t++)
            {
                final Target target = made.get(t);
                fill(target, addresses.get(t), run);
                final String label = "warm-up " + run.name() + " " + target.name();
                final Progress progress = new Progress(console, label, progressLine);
                final RunMeasurement m;
                try
                {
                    m = LoadRun.execute(plan.warmupSettings(addresses.get(t), run), progress);
                }
                catch (final IOException ex)
                {
                    throw new IOException(target.name() + ", " + run.name() + ", warm-up round: " + ex.getMessage(),
                        ex);
                }
                finally
                {
                    progress.clear();
                }
                console.println(String.format(Locale.ROOT, "%s: %s req/s (not counted)", label,
                    Format.rate(m.throughput())));
            }
        }
    }

    private RunResult runOne(
        final Target target,
        final InetSocketAddress address,
        final BenchmarkPlan.Case run,
        final int round,
        final int index) throws IOException, InterruptedException
    {
        fill(target, address, run);
        final RunSettings settings = plan.settings(address, run, round);
        final String label = String.format(Locale.ROOT, "[%d/%d] round %d/%d %s %s", index, plan.runCount(), round,
            plan.rounds(), run.name(), target.name());
        final Instant started = Instant.now();
        final Progress progress = new Progress(console, label, progressLine);
        final CpuProbe probe = new CpuProbe(target.pid(), ProcessHandle.current().pid(), false,
            method.placement().client(), method.placement().shared());
        final Window window = new Window(probe);
        final RunMeasurement m;
        try
        {
            m = LoadRun.execute(settings, progress, window);
        }
        catch (final IOException ex)
        {
            throw new IOException(target.name() + ", " + run.name() + ", round " + round + ": " +
                ex.getMessage(), ex);
        }
        finally
        {
            progress.clear();
        }
        final CpuUse cpu = window.use();
        final RunResult result = new RunResult(RunResult.LOADGEN, target.name(), run.name(), round, started, m, cpu);
        console.println(String.format(Locale.ROOT, "%s: %s req/s, %s req/server-CPU-s, p50 %s us, p99 %s us, " +
                "p99.9 %s us, max %s us%s%s%s",
            label, Format.rate(m.throughput()), Format.rate(result.perServerCpuSecond()),
            Format.micros(m.latency().p50()), Format.micros(m.latency().p99()), Format.micros(m.latency().p999()),
            Format.micros(m.latency().max()), m.errors() > 0 ? ", " + m.errors() + " errors" : "",
            m.late() > 0 ? ", " + m.late() + " requests late (the rate was not reached)" : "",
            cpu.clientBound() ? ", client-bound (load CPUs " + Format.percent(cpu.clientCpusBusy()) + " busy)" : ""));
        if (m.errors() > 0 && !plan.allowErrors())
        {
            throw new IOException(target.name() + ", " + run.name() + ", round " + round + ": " + m.errors() +
                " error replies, the first: " + m.firstError() + " (--allow-errors to go on regardless)");
        }
        return result;
    }

    /**
     * Runs one case on one target with redis-benchmark. A failure of redis-benchmark itself (it exits with an error,
     * prints nothing readable, times out) leaves the row out with a line that says why, rather than ending the
     * benchmark: the cross-check is a second opinion, and agni-loadgen's runs stand without it.
     */
    private Optional<RunResult> crossCheck(
        final Target target,
        final InetSocketAddress address,
        final BenchmarkPlan.Case run,
        final int round,
        final String test,
        final RunResult loadgen) throws IOException, InterruptedException
    {
        if (!target.alive())
        {
            throw new IOException(target.name() + " has exited; its log is in " + outputDirectory);
        }
        final long requests = plan.requests() > 0 ? plan.requests() : Math.max(MIN_CROSS_CHECK_REQUESTS,
            (long)Math.ceil(loadgen.measurement().throughput() * plan.duration().toNanos() / 1e9));
        final List<String> command = method.placement().clientCommand(RedisBenchmark.command(redisBenchmark,
            address, test, plan.connections(), plan.keys(), plan.valueSize(), run.pipeline(), requests,
            plan.threads()));
        final String label = String.format(Locale.ROOT, "round %d/%d %s %s, redis-benchmark", round, plan.rounds(),
            run.name(), target.name());
        if (progressLine)
        {
            console.print("\r\033[K" + label + ": " + requests + " requests ...");
        }
        final CpuProbe probe = new CpuProbe(target.pid(), ProcessHandle.current().pid(), true,
            method.placement().client(), method.placement().shared());
        final Instant started = Instant.now();
        final CpuProbe.Reading before = probe.read();
        final RunMeasurement m;
        try
        {
            m = RedisBenchmark.run(command, test,
                outputDirectory.resolve("redis-benchmark-" + target.spec().fileName() + ".log"));
        }
        catch (final IOException ex)
        {
            clearProgress();
            console.println(label + ": no result, left out of the cross-check: " + ex.getMessage());
            return Optional.empty();
        }
        finally
        {
            clearProgress();
        }
        final CpuUse cpu = probe.between(before, probe.read());
        final RunResult result = new RunResult(RunResult.REDIS_BENCHMARK, target.name(), run.name(), round, started,
            m, cpu);
        console.println(String.format(Locale.ROOT, "%s: %s req/s, %s req/server-CPU-s, p50 %s us, p99 %s us%s",
            label, Format.rate(m.throughput()), Format.rate(result.perServerCpuSecond()),
            Format.micros(m.latency().p50()), Format.micros(m.latency().p99()),
            cpu.clientBound() ? ", client-bound (load CPUs " + Format.percent(cpu.clientCpusBusy()) + " busy)" : ""));
        return Optional.of(result);
    }

    private void fill(final Target target, final InetSocketAddress address, final BenchmarkPlan.Case run)
        throws IOException
    {
        if (!target.alive())
        {
            throw new IOException(target.name() + " has exited; its log is in " + outputDirectory);
        }
        if (plan.fill() && run.workload().needsFill())
        {
            KeyFill.fill(address, plan.keys(), plan.valueSize());
        }
    }

    private void restore(final long self, final CpuSet cpus)
    {
        try
        {
            Affinity.pin(self, cpus);
        }
        catch (final IOException ex)
        {
            console.println("could not give back CPUs " + cpus + ": " + ex.getMessage());
        }
    }

    private void clearProgress()
    {
        if (progressLine)
        {
            console.print("\r\033[K");
        }
    }

    /**
     * Reads the CPU time at the edges of a run's measured window.
     */
    private static final class Window implements LoadRun.WindowListener
    {
        private final CpuProbe probe;
        private CpuProbe.Reading start;
        private CpuProbe.Reading end;

        Window(final CpuProbe probe)
        {
            this.probe = probe;
        }

        @Override
        public void onWindowStart()
        {
            start = probe.read();
        }

        @Override
        public void onWindowEnd()
        {
            end = probe.read();
        }

        CpuUse use()
        {
            return start == null || end == null ? CpuUse.UNKNOWN : probe.between(start, end);
        }
    }
}
