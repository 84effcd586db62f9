package io.agni.bench.net;

import io.agni.bench.net.load.KeyFill;
import io.agni.bench.net.load.LoadRun;
import io.agni.bench.net.load.RunMeasurement;
import io.agni.bench.net.load.RunSettings;
import io.agni.bench.net.load.Workload;
import io.agni.bench.net.report.BenchmarkResults;
import io.agni.bench.net.report.Environment;
import io.agni.bench.net.report.Format;
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

/**
 * Runs a {@link BenchmarkPlan}: starts every target, then for each round, each workload and each target in turn
 * (A/B/A/B: the targets alternate within every round, so drift of the machine falls on all of them alike) fills the
 * key space if the workload reads it and measures one run; stops every server it started, whatever happens; and
 * returns the results, with the reason if it stopped early.
 *
 * <h2>Servers stay up</h2>
 * Each server is started once and serves all its rounds: a restart per run would measure a cold JIT and empty caches
 * every time. Between its runs a server is idle while the others are measured.
 */
public final class BenchmarkRunner
{
    private final BenchmarkPlan plan;
    private final Targets targets;
    private final Path outputDirectory;
    private final PrintStream console;
    private final boolean progressLine;

    /**
     * @param plan            what to run.
     * @param targets         how to make and start targets.
     * @param outputDirectory where server logs go.
     * @param console         where progress and per-run lines go.
     * @param progressLine    whether to redraw a progress line (on a terminal).
     */
    public BenchmarkRunner(
        final BenchmarkPlan plan,
        final Targets targets,
        final Path outputDirectory,
        final PrintStream console,
        final boolean progressLine)
    {
        this.plan = plan;
        this.targets = targets;
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
        try
        {
            for (final Target target : made)
            {
                console.println("starting " + target.name() + " (" + target.spec().describe() + ")");
                final InetSocketAddress address = target.start(outputDirectory, plan.startTimeout());
                addresses.add(address);
                infos.add(new TargetInfo(target.name(), target.spec().describe(), target.command(),
                    (address.isUnresolved() ? address.getHostString() : address.getAddress().getHostAddress()) + ":" +
                        address.getPort(), target.pid()));
            }
            int index = 0;
            for (int round = 1; round <= plan.rounds(); round++)
            {
                for (final Workload workload : plan.workloads())
                {
                    for (int t = 0; t < made.size(); t++)
                    {
                        index++;
                        runs.add(runOne(made.get(t), addresses.get(t), workload, round, index));
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
        }
        return new BenchmarkResults(environment, arguments, flags, infos,
            plan.workloads().stream().map(Workload::name).toList(), plan.rounds(), runs, started, Instant.now(),
            failure);
    }

    private RunResult runOne(
        final Target target,
        final InetSocketAddress address,
        final Workload workload,
        final int round,
        final int index) throws IOException, InterruptedException
    {
        if (!target.alive())
        {
            throw new IOException(target.name() + " has exited; its log is in " + outputDirectory);
        }
        if (plan.fill() && workload.needsFill())
        {
            KeyFill.fill(address, plan.keys(), plan.valueSize());
        }
        final RunSettings settings = plan.settings(address, workload, round);
        final String label = String.format(Locale.ROOT, "[%d/%d] round %d/%d %s %s", index, plan.runCount(), round,
            plan.rounds(), workload.name(), target.name());
        final Instant started = Instant.now();
        final Progress progress = new Progress(console, label, progressLine);
        final RunMeasurement m;
        try
        {
            m = LoadRun.execute(settings, progress);
        }
        catch (final IOException ex)
        {
            throw new IOException(target.name() + ", " + workload.name() + ", round " + round + ": " +
                ex.getMessage(), ex);
        }
        finally
        {
            progress.clear();
        }
        console.println(String.format(Locale.ROOT, "%s: %s req/s, p50 %s us, p99 %s us, p99.9 %s us, max %s us%s%s",
            label, Format.rate(m.throughput()), Format.micros(m.latency().p50()), Format.micros(m.latency().p99()),
            Format.micros(m.latency().p999()), Format.micros(m.latency().max()),
            m.errors() > 0 ? ", " + m.errors() + " errors" : "",
            m.late() > 0 ? ", " + m.late() + " requests late (the rate was not reached)" : ""));
        if (m.errors() > 0 && !plan.allowErrors())
        {
            throw new IOException(target.name() + ", " + workload.name() + ", round " + round + ": " + m.errors() +
                " error replies, the first: " + m.firstError() + " (--allow-errors to go on regardless)");
        }
        return new RunResult(target.name(), workload.name(), round, started, m);
    }

    private void clearProgress()
    {
        if (progressLine)
        {
            console.print("\r\033[K");
        }
    }
}
