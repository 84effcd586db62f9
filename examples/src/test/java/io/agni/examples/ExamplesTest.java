package io.agni.examples;

import io.agni.api.AgniStore;
import io.agni.net.AgniClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The examples run and say what the README says they say: the quickstart in-process, and the same walk-through
 * through {@link RemoteClient} against {@link ServeOverTcp}, twice, since it tidies up after itself.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("socket")
class ExamplesTest
{
    @Test
    void quickstartWalksThroughAndDeletesItsKeys()
    {
        final String output = captureOutput(() -> EmbeddedQuickstart.main(new String[0]));
        assertWalkThrough(output);
        assertTrue(output.endsWith("closed the store: its off-heap memory is freed" + System.lineSeparator()), output);
    }

    @Test
    void durableQuickstartCountsItsRunsAcrossRestarts(@TempDir final Path directory)
    {
        final String[] args = {directory.resolve("data").toString()};
        final String first = captureOutput(() -> DurableQuickstart.main(args));
        assertTrue(first.contains("run 1 written") && first.contains("reopened: runs = 1, greeting = hello"), first);
        final String second = captureOutput(() -> DurableQuickstart.main(args));
        assertTrue(second.contains("run 2 written") && second.contains("reopened: runs = 2, greeting = hello"),
            second);
    }

    @Test
    void remoteClientRunsTheSameWalkThroughAgainstServeOverTcp() throws Exception
    {
        final CountDownLatch stop = new CountDownLatch(1);
        final CompletableFuture<Integer> port = new CompletableFuture<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread serving = new Thread(() ->
        {
            try
            {
                ServeOverTcp.serve(0, 0, stop, port::complete);
            }
            catch (final Throwable ex)
            {
                failure.set(ex);
                port.completeExceptionally(ex);
            }
        }, "serve-over-tcp");
        serving.start();
        try
        {
            final String[] args = {"127.0.0.1", Integer.toString(port.get(30, TimeUnit.SECONDS))};
            for (int run = 0; run < 2; run++)
            {
                final String output = captureOutput(() -> RemoteClient.main(args));
                assertWalkThrough(output);
                assertTrue(output.contains("closed the client"), output);
            }
            try (AgniStore remote = AgniClient.connect(args[0], Integer.parseInt(args[1])))
            {
                assertArrayEquals("hello from the JVM that embeds agni".getBytes(StandardCharsets.UTF_8),
                    remote.get("welcome".getBytes(StandardCharsets.UTF_8)), "the server's own key is still there");
                assertNull(remote.get("visits".getBytes(StandardCharsets.UTF_8)));
            }
        }
        finally
        {
            stop.countDown();
            serving.join(30_000);
        }
        assertFalse(serving.isAlive(), "ServeOverTcp did not stop");
        assertNull(failure.get());
    }

    private static void assertWalkThrough(final String output)
    {
        for (final String line : new String[]{
            "get greeting -> \"hello, agni\"",
            "set session:42 = \"alice\" if absent, expiring in 60 s -> true",
            "set session:42 = \"mallory\" if absent, expiring in 60 s -> false (value is still \"alice\")",
            "incrementBy visits 1 -> 1",
            "incrementBy visits 41 -> 42 (stored as the text \"42\")",
            "zero-copy get greeting -> 11 bytes: \"hello, agni\"",
            "zero-copy get no-such-key -> -1 (NOT_FOUND)",
            "deleted the 3 keys this walk-through set"})
        {
            assertTrue(output.contains(line), () -> "missing \"" + line + "\" in:\n" + output);
        }
    }

    /**
     * Runs the code with {@code System.out} captured; the examples print there, as a reader's terminal would.
     */
    private static String captureOutput(final ThrowingRunnable code)
    {
        final PrintStream original = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            code.run();
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
        finally
        {
            System.setOut(original);
        }
        final String output = captured.toString(StandardCharsets.UTF_8);
        original.print(output);
        return output;
    }

    @FunctionalInterface
    private interface ThrowingRunnable
    {
        void run() throws Exception;
    }
}
