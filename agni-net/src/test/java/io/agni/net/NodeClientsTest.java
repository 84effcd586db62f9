package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.opentest4j.TestAbortedException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The two most used Node.js clients against agni and against redis-server, both with a password: the scenario
 * {@code src/test/node/scenario.mjs} (connect with a wrong password and the right one, string commands, expiry,
 * pipelining, a transaction, binary values, SCAN, errors as the client's error types, reconnecting after the server
 * restarts) run with node-redis (its defaults: RESP3), ioredis with its defaults (RESP3 in 6.x) and ioredis told to
 * speak RESP2, and the results against agni compared with those against Redis, step by step.
 * <p>
 * The clients' versions are pinned by {@code package.json} and {@code package-lock.json}; {@code npm ci} installs
 * them from the npm registry into {@code target/node-clients} once (again when the lock file changes). Node.js and
 * npm are pinned too ({@code .node-version} and {@code .npm-version} beside the scenario; {@code .ci/run} puts those
 * versions on the PATH). Skipped without {@code redis-server} or the pinned {@code node} and {@code npm}, failed
 * then when {@code CI} is set.
 */
@Tag("redis")
@Tag("socket")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NodeClientsTest
{
    private static final Path SOURCES = Path.of("src", "test", "node");
    private static final Path WORK = Path.of("target", "node-clients");
    private static final List<String> FILES = List.of("package.json", "package-lock.json", "scenario.mjs");
    private static final String NODE_HINT = "put the pinned Node.js and npm on the PATH (src/test/node/.node-version " +
        "and .npm-version; .ci/run fetches them from the npm registry when the machine has others)";
    private static final String PASSWORD = "node-secret";
    private static final long NPM_TIMEOUT_S = 240;
    private static final long SCENARIO_TIMEOUT_S = 90;

    private static Path node;
    private static RedisServerProcess redis;
    private static int redisPort;
    private static AgniStore store;
    private static AgniServer agni;

    @BeforeAll
    static void installClientsAndStartServers() throws IOException
    {
        node = RedisServerProcess.requireTool("node", NODE_HINT);
        final Path npm = RedisServerProcess.requireTool("npm", NODE_HINT);
        requirePinnedVersion(node, "v" + Files.readString(SOURCES.resolve(".node-version")).strip());
        requirePinnedVersion(npm, Files.readString(SOURCES.resolve(".npm-version")).strip());
        installClients(npm);
        redis = RedisServerProcess.start("--requirepass", PASSWORD);
        redisPort = redis.port();
        store = newStore();
        agni = serverOn(store).password(PASSWORD).build().start();
    }

    @AfterAll
    static void stopServers()
    {
        closeQuietly(agni);
        closeQuietly(store);
        closeQuietly(redis);
    }

    @ParameterizedTest
    @ValueSource(strings = { "node-redis", "ioredis", "ioredis-resp2" })
    void theScenarioGivesTheSameResultsAgainstAgniAsAgainstRedis(final String client) throws IOException
    {
        final List<String> fromRedis = runScenario(client, redisPort, NodeClientsTest::restartRedis);
        final List<String> fromAgni = runScenario(client, agni.port(), NodeClientsTest::restartAgni);
        assertTrue(fromRedis.size() > 40, () -> "the scenario stopped early against redis-server: " + fromRedis);
        assertEquals(fromRedis.stream().filter(line -> line.contains("\"step\":\"protocol\"")).toList(),
            List.of("{\"step\":\"protocol\",\"result\":" + (client.equals("ioredis-resp2") ? 2 : 3) + "}"),
            client + " did not speak the protocol expected of it");
        final List<String> differences = new ArrayList<>();
        for (int i = 0; i < Math.max(fromRedis.size(), fromAgni.size()); i++)
        {
            final String expected = i < fromRedis.size() ? fromRedis.get(i) : "(nothing)";
            final String actual = i < fromAgni.size() ? fromAgni.get(i) : "(nothing)";
            if (!expected.equals(actual))
            {
                differences.add("redis: " + cut(expected) + "\n    agni:  " + cut(actual));
            }
        }
        assertEquals(List.of(), differences, client + ": steps whose results differ");
    }

    private static String cut(final String line)
    {
        return line.length() > 400 ? line.substring(0, 400) + "..." : line;
    }

    private static void restartRedis()
    {
        redis.close();
        redis = RedisServerProcess.startOn(redisPort, "--requirepass", PASSWORD);
    }

    private static void restartAgni()
    {
        final int port = agni.port();
        agni.close();
        agni = serverOn(store).port(port).password(PASSWORD).build().start();
    }

    /**
     * Runs the scenario to its end: its output lines, each step's result, in order. When it asks for the restart,
     * restarts the server and tells it to go on.
     */
    private static List<String> runScenario(final String client, final int port, final Runnable restart)
        throws IOException
    {
        final Path errors = Files.createTempFile("agni-node-scenario-", ".log");
        final Process process = new ProcessBuilder(node.toString(), WORK.resolve("scenario.mjs").toString(),
            client, Integer.toString(port), PASSWORD)
            .redirectError(errors.toFile())
            .start();
        final List<String> results = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            OutputStream in = process.getOutputStream())
        {
            String line;
            boolean done = false;
            while (!done && (line = out.readLine()) != null)
            {
                if (line.equals("{\"restart\":true}"))
                {
                    restart.run();
                    in.write("go\n".getBytes(StandardCharsets.US_ASCII));
                    in.flush();
                }
                else if (line.equals("{\"done\":true}"))
                {
                    done = true;
                }
                else
                {
                    results.add(line);
                }
            }
            if (!done)
            {
                fail(client + " on port " + port + ": the scenario ended early after " + results + "\n" +
                    Files.readString(errors));
            }
            if (!process.waitFor(SCENARIO_TIMEOUT_S, TimeUnit.SECONDS))
            {
                fail(client + ": the scenario did not exit after its last step");
            }
            return results;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        finally
        {
            process.destroyForcibly();
            Files.deleteIfExists(errors);
        }
    }

    /**
     * Fails (with {@code CI} set) or skips the test unless the tool reports the pinned version.
     */
    private static void requirePinnedVersion(final Path tool, final String pinned)
    {
        final ExternalTool.Result result = ExternalTool.run(30, "", List.of(tool.toString(), "--version"));
        final String version = result.output().strip();
        if (!version.equals(pinned))
        {
            final String message = tool + " reports version " + version + ", the tests pin " + pinned + ": " +
                NODE_HINT;
            if (System.getenv(RedisServerProcess.CI_VARIABLE) != null)
            {
                fail(message + " (failing, not skipping, because CI is set)");
            }
            throw new TestAbortedException(message);
        }
    }

    /**
     * Copies the scenario and its package files to {@code target/node-clients} and runs {@code npm ci} there, unless
     * the same lock file was installed before.
     */
    private static void installClients(final Path npm) throws IOException
    {
        Files.createDirectories(WORK);
        final Path installedLock = WORK.resolve("node_modules").resolve(".agni-installed-lock.json");
        final boolean installed = Files.exists(installedLock) &&
            Files.mismatch(installedLock, SOURCES.resolve("package-lock.json")) == -1;
        for (final String file : FILES)
        {
            Files.copy(SOURCES.resolve(file), WORK.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        if (installed)
        {
            return;
        }
        final ExternalTool.Result result = ExternalTool.run(NPM_TIMEOUT_S, "", List.of(npm.toString(), "ci",
            "--prefix", WORK.toAbsolutePath().toString(), "--no-audit", "--no-fund", "--loglevel=error"));
        if (result.exitCode() != 0)
        {
            throw new UncheckedIOException(new IOException("npm ci failed: " + result));
        }
        Files.copy(SOURCES.resolve("package-lock.json"), installedLock, StandardCopyOption.REPLACE_EXISTING);
    }
}
