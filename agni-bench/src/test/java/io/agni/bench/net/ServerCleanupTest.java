package io.agni.bench.net;

import io.agni.bench.net.target.ProcessReaper;
import io.agni.bench.net.target.Target;
import io.agni.bench.net.target.TargetSpec;
import io.agni.bench.net.target.Targets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Servers the harness starts never outlive it: not when they fail to start, and not when the harness is stopped
 * from outside in the middle of a run (the shutdown hook, as on Ctrl-C).
 */
@Tag("redis")
@Tag("socket")
class ServerCleanupTest
{
    @Test
    void agniTargetWithoutItsJarSaysHowToBuildIt(@TempDir final Path dir)
    {
        final Targets targets = new Targets(dir.resolve("missing.jar"), List.of(), null);

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> targets.create(TargetSpec.parse("agni")));

        assertEquals("target agni: agni's server jar not found (" + dir.resolve("missing.jar") + "); build it with " +
            "'mvn -B -q package -DskipTests' or give --agni-jar", ex.getMessage());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void serverThatExitsBeforeAnsweringFailsTheStartWithItsLog(@TempDir final Path dir) throws Exception
    {
        final Path notAJar = Files.writeString(dir.resolve("agni-server.jar"), "not a jar");
        final Target agni = new Targets(notAJar, List.of(), null).create(TargetSpec.parse("broken=agni:--shards 1"));

        final IOException ex = assertThrows(IOException.class, () -> agni.start(dir, Duration.ofSeconds(30)));

        assertTrue(ex.getMessage().startsWith("broken exited with status 1 before answering PING: "), ex.getMessage());
        assertTrue(ex.getMessage().contains("-jar " + notAJar + " --port "), ex.getMessage());
        assertTrue(ex.getMessage().endsWith("--shards 1\nlog " + dir.resolve("server-broken.log") + ":\n" +
            Files.readString(dir.resolve("server-broken.log")).strip()), ex.getMessage());
        assertFalse(ProcessReaper.running().contains(agni.pid()));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void harnessStoppedMidRunStopsTheServersItStarted(@TempDir final Path dir) throws Exception
    {
        final Optional<Path> redis = Targets.onPath("redis-server");
        assumeTrue(redis.isPresent() || System.getenv("CI") != null,
            "redis-server is not installed: skipping the shutdown-hook test");
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Process harness = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
            LoadGen.class.getName(), "-t", "redis", "-w", "set", "-c", "2", "--duration", "60s", "--no-progress",
            "-o", dir.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("harness.out").toFile()).start();
        Optional<ProcessHandle> server = Optional.empty();
        try
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // Debian links redis-server to redis-check-rdb, which is what the process table shows.
            while (server.isEmpty() && System.nanoTime() < deadline && harness.isAlive())
            {
                Thread.sleep(100);
                server = harness.descendants().filter(p -> p.info().command().orElse("").contains("redis"))
                    .findFirst();
            }
            assertTrue(server.isPresent(), "the harness started redis-server: " +
                Files.readString(dir.resolve("harness.out")));
            // The harness registers the server right after starting it, long before the server is ready.
            final Path serverLog = dir.resolve("server-redis.log");
            while (!(Files.exists(serverLog) && Files.readString(serverLog).contains("Ready to accept connections")))
            {
                assertTrue(System.nanoTime() < deadline, "redis-server did not get ready: " +
                    (Files.exists(serverLog) ? Files.readString(serverLog) : "no log"));
                Thread.sleep(20);
            }

            harness.destroy();

            assertTrue(harness.waitFor(20, TimeUnit.SECONDS), "the harness exits on SIGTERM");
            assertTrue(server.get().onExit().get(10, TimeUnit.SECONDS).pid() > 0);
            assertFalse(server.get().isAlive(), "redis-server was stopped by the shutdown hook");
        }
        finally
        {
            harness.descendants().forEach(ProcessHandle::destroyForcibly);
            harness.destroyForcibly();
            server.ifPresent(ProcessHandle::destroyForcibly);
        }
    }
}
