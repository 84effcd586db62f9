package io.agni.bench.net;

import io.agni.bench.net.cpu.Affinity;
import io.agni.bench.net.cpu.CpuSet;
import io.agni.bench.net.load.LoadRun;
import io.agni.bench.net.load.RequestEncoder;
import io.agni.bench.net.load.RunMeasurement;
import io.agni.bench.net.load.RunSettings;
import io.agni.bench.net.load.Workload;
import io.agni.bench.net.report.MiniJson;
import io.agni.bench.net.target.ProcessReaper;
import io.agni.bench.net.target.Target;
import io.agni.bench.net.target.TargetSpec;
import io.agni.bench.net.target.Targets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The load generator end to end against a real redis-server: seconds-long runs, no timing asserted. Skipped with a
 * message when redis-server is not installed, except under CI (the CI variable set), where that is a failure.
 */
@Tag("redis")
@Tag("socket")
class LoadGenRedisTest
{
    private static Path redisServer;

    @BeforeAll
    static void findRedis()
    {
        final Optional<Path> found = Targets.onPath("redis-server");
        final String ci = System.getenv("CI");
        if (found.isEmpty() && ci != null && !ci.isEmpty())
        {
            fail("redis-server is not installed but CI is set: install it (apt-get install -y redis-server)");
        }
        assumeTrue(found.isPresent(), "redis-server is not installed: skipping the end-to-end load generator tests");
        redisServer = found.get();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    @SuppressWarnings("unchecked")
    void interleavedRunAgainstTwoRedisServersWritesEveryReportAndStopsBoth(@TempDir final Path dir) throws Exception
    {
        final CpuSet cpusBefore = Affinity.available();
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final int status = LoadGen.execute(new String[]{
            "-t", "redis", "-t", "again=redis", "-w", "set,get", "-r", "1", "-c", "8", "-P", "4", "--threads", "2",
            "--duration", "400ms", "--warmup", "200ms", "--warmup-round", "200ms", "--no-progress",
            "--redis-server", redisServer.toString(), "-o", dir.toString()}, new PrintStream(output, true));

        final String printed = output.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, printed);
        assertTrue(printed.contains("Report: " + dir.resolve("report.html")), printed);
        assertTrue(printed.contains("redis / again"), printed);
        for (final String name : List.of("report.html", "results.json", "runs.csv", "summary.csv",
            "server-redis.log", "server-again.log"))
        {
            assertTrue(Files.exists(dir.resolve(name)), name);
        }
        final Map<String, Object> json = (Map<String, Object>)MiniJson.parse(
            Files.readString(dir.resolve("results.json")));
        assertEquals("completed", json.get("status"));
        final List<Map<String, Object>> runs = (List<Map<String, Object>>)json.get("runs");
        final boolean crossChecked = Targets.onPath("redis-benchmark").isPresent();
        assertEquals(crossChecked ?
                List.of("agni-loadgen set redis", "agni-loadgen set again", "redis-benchmark set redis",
                    "redis-benchmark set again", "agni-loadgen get redis", "agni-loadgen get again",
                    "redis-benchmark get redis", "redis-benchmark get again") :
                List.of("agni-loadgen set redis", "agni-loadgen set again", "agni-loadgen get redis",
                    "agni-loadgen get again"),
            runs.stream().map(r -> r.get("tool") + " " + r.get("workload") + " " + r.get("target")).toList(),
            "interleaved in order, each case by agni-loadgen on every target, then by redis-benchmark");
        for (final Map<String, Object> run : runs)
        {
            assertTrue((Double)run.get("requests") > 0, run.toString());
            assertEquals(0.0, run.get("errors"), run.toString());
            assertEquals(0.0, run.get("nullReplies"), "GETs hit: the key space was filled: " + run);
            assertEquals(run.get("requests"), ((Map<String, Object>)run.get("latencyMicros")).get("count"));
            final Map<String, Object> cpu = (Map<String, Object>)run.get("cpu");
            if (Files.isReadable(Path.of("/proc/self/stat")))
            {
                assertTrue((Double)cpu.get("serverCpuSeconds") >= 0, "the server's CPU time was read: " + run);
                assertTrue((Double)cpu.get("wallSeconds") > 0, run.toString());
            }
        }
        final Map<String, Object> method = (Map<String, Object>)json.get("method");
        assertEquals(Affinity.available().size() >= 2 && Targets.onPath("taskset").isPresent(), method.get("pinned"));
        if (Boolean.TRUE.equals(method.get("pinned")))
        {
            assertEquals(false, method.get("sharedCpus"));
            assertTrue(printed.contains("servers on CPU " + method.get("serverCpus")), printed);
            final List<String> command = (List<String>)((List<Map<String, Object>>)json.get("targets")).get(0)
                .get("command");
            assertEquals(List.of("taskset", "-c", method.get("serverCpus")), command.subList(0, 3), command.toString());
        }
        assertEquals(cpusBefore, Affinity.available(), "the harness gave back the CPUs it had");
        assertEquals(crossChecked, !((List<Object>)json.get("crossChecks")).isEmpty());
        assertTrue(ProcessReaper.running().isEmpty(), "servers stopped");
        final List<Map<String, Object>> targets = (List<Map<String, Object>>)json.get("targets");
        assertEquals(2, targets.size());
        for (final Map<String, Object> target : targets)
        {
            final long pid = ((Double)target.get("pid")).longValue();
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "server " + pid + " runs");
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void errorRepliesFailTheBenchmarkWithTheServersText(@TempDir final Path dir) throws Exception
    {
        try (Target redis = redisTarget())
        {
            final InetSocketAddress address = redis.start(dir, Duration.ofSeconds(20));
            send(address, "RPUSH", "key:000000000000", "a");
            final CpuSet cpusBefore = Affinity.available();
            final ByteArrayOutputStream output = new ByteArrayOutputStream();

            final int status = LoadGen.execute(new String[]{
                "-t", "127.0.0.1:" + address.getPort(), "-w", "get", "-k", "1", "--no-fill", "-c", "2", "-r", "2",
                "--duration", "300ms", "--warmup", "0s", "--warmup-round", "0s", "--no-progress",
                "-o", dir.resolve("out").toString()}, new PrintStream(output, true));

            assertEquals(1, status, output.toString(StandardCharsets.UTF_8));
            assertEquals(cpusBefore, Affinity.available(), "the harness gave back its CPUs after a failed run too");
            final String json = Files.readString(dir.resolve("out").resolve("results.json"));
            assertTrue(json.contains("\"status\": \"failed\""), json);
            assertTrue(json.contains("error replies, the first: WRONGTYPE"), json);
            assertTrue(redis.alive(), "a server given as host:port is left running");
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void openLoopSendsExactlyTheScheduledRequests(@TempDir final Path dir) throws Exception
    {
        try (Target redis = redisTarget())
        {
            final InetSocketAddress address = redis.start(dir, Duration.ofSeconds(20));
            final RunSettings settings = new RunSettings(address, Workload.SET, 4, 2, 1, 100, 10,
                TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.MILLISECONDS.toNanos(500), 0, 2000, 1,
                TimeUnit.SECONDS.toNanos(10));

            final RunMeasurement m = LoadRun.execute(settings, null);

            final long scheduled = m.requests() + m.late();
            assertTrue(Math.abs(scheduled - 1000) <= 4, "2,000/s for 0.5 s over 4 connections: " + scheduled);
            assertEquals(m.requests(), m.latency().count());
            assertEquals(0, m.errors());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void requestCountModeMeasuresExactlyThatMany(@TempDir final Path dir) throws Exception
    {
        try (Target redis = redisTarget())
        {
            final InetSocketAddress address = redis.start(dir, Duration.ofSeconds(20));
            final RunSettings settings = new RunSettings(address, Workload.parse("mix:50"), 5, 2, 3, 50, 10,
                TimeUnit.MILLISECONDS.toNanos(100), 0, 3001, 0, 1, TimeUnit.SECONDS.toNanos(10));

            final RunMeasurement m = LoadRun.execute(settings, null);

            assertEquals(3001, m.requests());
            assertEquals(3001, m.latency().count());
            assertEquals(3001, Arrays.stream(m.perSecond()).sum());
        }
    }

    private static Target redisTarget()
    {
        return new Targets(null, List.of(), redisServer).create(TargetSpec.parse("redis"));
    }

    private static void send(final InetSocketAddress address, final String... args) throws Exception
    {
        final byte[][] parts = new byte[args.length][];
        for (int i = 0; i < args.length; i++)
        {
            parts[i] = args[i].getBytes(StandardCharsets.US_ASCII);
        }
        try (Socket socket = new Socket(address.getAddress(), address.getPort()))
        {
            final OutputStream out = socket.getOutputStream();
            out.write(RequestEncoder.command(parts));
            out.flush();
            final InputStream in = socket.getInputStream();
            final int first = in.read();
            assertEquals(':', first, "RPUSH answers with an integer");
        }
    }
}
