package io.agni.net;

import io.agni.api.AgniStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.agni.net.ServerFixture.closeQuietly;
import static io.agni.net.ServerFixture.newStore;
import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real {@code redis-benchmark} (7.x) against an {@link AgniServer} on an ephemeral loopback port: it aborts on
 * any error reply, so a run that exits 0 with a result line per test means every request was answered as Redis
 * would. Small runs (20,000 requests) to stay within seconds on a busy machine; the counter it increments proves no
 * INCR was lost.
 * <p>
 * Needs {@code redis-benchmark} on the PATH: skipped with a message when missing, failed when the {@code CI}
 * environment variable is set.
 */
@Tag("redis")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@Tag("socket")
class RedisBenchmarkCompatibilityTest
{
    private static final long TOOL_TIMEOUT_S = 150;
    private static final int REQUESTS = 20_000;

    private Path redisBenchmark;
    private AgniStore store;
    private AgniServer server;

    @BeforeEach
    void startServer()
    {
        redisBenchmark = RedisServerProcess.requireTool("redis-benchmark");
        store = newStore();
        server = serverOn(store).build().start();
    }

    @AfterEach
    void stopServer()
    {
        closeQuietly(server);
        closeQuietly(store);
    }

    private ExternalTool.Result benchmark(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of(
            redisBenchmark.toString(), "-h", "127.0.0.1", "-p", Integer.toString(server.port())));
        command.addAll(List.of(args));
        final ExternalTool.Result result = ExternalTool.run(TOOL_TIMEOUT_S, null, command);
        assertEquals(0, result.exitCode(), result::toString);
        for (final String line : result.lines())
        {
            // any error reply aborts redis-benchmark with "Error from server: ..."; a failed CONFIG GET warns
            assertFalse(line.toLowerCase().contains("error"), () -> "error line: " + line + "\n" + result);
            assertFalse(line.startsWith("WARNING"), () -> "warning line: " + line + "\n" + result);
        }
        return result;
    }

    private static void assertResultLine(final ExternalTool.Result result, final String test)
    {
        assertTrue(result.lines().stream().anyMatch(
            line -> line.startsWith(test + ": ") && line.contains(" requests per second")),
            () -> "no result for " + test + ":\n" + result);
    }

    @Test
    void stringsWorkloadCompletesWithoutErrors()
    {
        final ExternalTool.Result result = benchmark(
            "-t", "ping,set,get,incr,mset", "-n", Integer.toString(REQUESTS), "-c", "50", "-q");
        for (final String test : List.of("PING_INLINE", "PING_MBULK", "SET", "GET", "INCR", "MSET (10 keys)"))
        {
            assertResultLine(result, test);
        }
        // without -r every INCR hits the one key "counter:__rand_int__": none may be lost
        assertArrayEquals(bytes(Integer.toString(REQUESTS)), store.get(bytes("counter:__rand_int__")));
        assertEquals(3, store.get(bytes("key:__rand_int__")).length, "the default 3-byte value of SET and MSET");
    }

    @Test
    void pipelinedRandomKeysCompleteWithoutErrors()
    {
        final ExternalTool.Result result = benchmark(
            "-t", "set,get", "-n", Integer.toString(REQUESTS), "-c", "10", "-P", "16", "-r", "1000", "-d", "100",
            "-q");
        assertResultLine(result, "SET");
        assertResultLine(result, "GET");
        final long keys = store.size();
        assertTrue(keys > 900 && keys <= 1000, "keys " + keys);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
