package io.agni.net.launcher;

import io.agni.api.EvictionPolicy;
import io.agni.api.StoreClosedException;
import io.agni.net.ServerFaultInjection;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The launcher end to end: exit statuses and messages for help and bad command lines, a server that serves and
 * releases its port when closed, a separate JVM that shuts down gracefully on SIGTERM, and one whose server stops
 * itself after a failure, which exits with {@link ServerMain#EXIT_SERVER_FAILED}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("socket")
class ServerMainTest
{
    private static final Pattern READY = Pattern.compile("ready to accept connections on 127\\.0\\.0\\.1:(\\d+)");
    private static final String[] SMALL = {"--threads", "1", "--shards", "2", "--max-memory", "16mb"};

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<StandaloneServer> started = new ArrayList<>();

    private int run(final String... args)
    {
        final PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        return ServerMain.run(args, outStream, errStream, started::add);
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static String[] with(final String[] first, final String... more)
    {
        final String[] all = new String[first.length + more.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }

    @Test
    void helpPrintsTheUsageAndExitsWithZero()
    {
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("Usage: java -jar agni-server.jar [options]"));
        assertTrue(started.isEmpty());
    }

    @Test
    void unknownFlagExitsWithTheUsageStatusAndSaysWhich()
    {
        assertEquals(ServerMain.EXIT_USAGE, run("--prot", "yes"));
        assertTrue(err().startsWith("agni-server: unknown option: --prot"), err());
        assertTrue(err().contains("--help"), err());
        assertTrue(started.isEmpty());
    }

    @Test
    void valueTheBuilderRejectsExitsWithTheUsageStatusAndNamesTheFlag()
    {
        assertEquals(ServerMain.EXIT_USAGE, run(with(SMALL, "--port", "0", "--max-clients", "0")));
        assertTrue(err().startsWith("agni-server: --max-clients: maxClients must be from 1 to"), err());
        assertTrue(started.isEmpty());
    }

    @Test
    void aClientLimitAboveTheClientMemoryLimitExitsWithTheUsageStatus()
    {
        assertEquals(ServerMain.EXIT_USAGE,
            run(with(SMALL, "--port", "0", "--max-query-buffer", "16mb", "--max-client-memory", "8mb")));
        assertTrue(err().startsWith("agni-server: --max-client-memory: maxQueryBuffer must not exceed " +
            "maxClientMemory: maxQueryBuffer=16777216, maxClientMemory=8388608"), err());
        assertTrue(started.isEmpty());
    }

    @Test
    void storeSettingsThatConflictExitWithTheUsageStatus()
    {
        assertEquals(ServerMain.EXIT_USAGE, run("--port", "0", "--shards", "3"));
        assertTrue(err().startsWith("agni-server: --shards/--max-memory: shards must be a power of two"), err());
    }

    @Test
    void anUnknownMaxmemoryPolicyExitsWithTheUsageStatusAndListsRedisNames()
    {
        assertEquals(ServerMain.EXIT_USAGE, run(with(SMALL, "--port", "0", "--maxmemory-policy", "lru")));
        assertTrue(err().startsWith("agni-server: --maxmemory-policy: maxmemory-policy must be one of " +
            "volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, " +
            "noeviction: maxmemory-policy=lru"), err());
        assertTrue(started.isEmpty());
    }

    @Test
    void maxmemoryAndItsPolicyFromTheCommandLineReachTheStoreAndConfigGet() throws IOException
    {
        assertEquals(ServerMain.RUNNING, run("--threads", "1", "--shards", "2", "--port", "0", "--maxmemory", "16mb",
            "--maxmemory-policy", "ALLKEYS-LFU"));
        final StandaloneServer server = started.get(0);
        final int port = server.localAddress().getPort();
        try
        {
            assertEquals(EvictionPolicy.ALL_KEYS, server.store().evictionPolicy());
            assertEquals(16L << 20, server.store().maxMemory());
            assertEquals("allkeys-lfu", exchange(port, "CONFIG GET maxmemory-policy\r\n", 5));
            assertEquals("16777216", exchange(port, "CONFIG GET maxmemory\r\n", 5));
            assertEquals("+OK", exchange(port, "CONFIG SET maxmemory 8mb maxmemory-policy volatile-ttl\r\n"));
            assertEquals(8L << 20, server.store().maxMemory());
            assertEquals(EvictionPolicy.VOLATILE_TTL, server.store().evictionPolicy());
            assertEquals("volatile-ttl", exchange(port, "CONFIG GET maxmemory-policy\r\n", 5));
        }
        finally
        {
            server.close();
        }
    }

    @Test
    void portInUseExitsWithTheFailureStatus() throws IOException
    {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            assertEquals(ServerMain.EXIT_FAILURE,
                run(with(SMALL, "--port", Integer.toString(taken.getLocalPort()))));
        }
        assertTrue(err().startsWith("agni-server: cannot start: cannot listen on 127.0.0.1:"), err());
        assertTrue(started.isEmpty());
    }

    @Test
    void servesTheStoreAndReleasesThePortWhenClosed() throws IOException
    {
        assertEquals(ServerMain.RUNNING, run(with(SMALL, "--port", "0", "--requirepass", "pw")));
        final StandaloneServer server = started.get(0);
        final int port = server.localAddress().getPort();
        try
        {
            assertEquals("-NOAUTH Authentication required.", exchange(port, "GET k\r\n"));
            assertEquals("+OK", exchange(port, "AUTH pw\r\nSET k v\r\n", 2));
            assertEquals("v", new String(server.store().get("k".getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8));
        }
        finally
        {
            server.close();
        }
        server.close();
        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress()))
        {
            assertEquals(port, again.getLocalPort());
        }
    }

    @Test
    void separateJvmShutsDownGracefullyOnSigterm() throws Exception
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new ArrayList<>(List.of(
            java, "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), ServerMain.class.getName(), "--port", "0"));
        command.addAll(List.of(SMALL));
        final Path logFile = Files.createTempFile("agni-server-", ".log");
        final Process process = new ProcessBuilder(command)
            .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        try
        {
            final int port = awaitPort(process, logFile);
            assertEquals("+PONG", exchange(port, "PING\r\n"));

            process.toHandle().destroy(); // SIGTERM (Process.destroy would also close our end of its output)
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), () -> "still running after SIGTERM:\n" + read(logFile));
            final String log = read(logFile);
            assertTrue(log.contains("agni-server shutting down"), log);
            assertTrue(log.contains("agni-server stopped"), log);
            assertFalse(log.contains("Exception"), log);
            try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress()))
            {
                assertEquals(port, again.getLocalPort());
            }
        }
        finally
        {
            process.destroyForcibly();
            Files.deleteIfExists(logFile);
        }
    }

    @Test
    void aServerThatStopsItselfAfterAFailureEndsTheRunWithTheFailureStatusAndClosesTheStore() throws Exception
    {
        final List<StandaloneServer> running = new CopyOnWriteArrayList<>();
        final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        final CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> ServerMain.runUntilStopped(
            with(SMALL, "--port", "0"), System.out, errStream,
            server -> ServerFaultInjection.failAnEventLoopOnceAClientConnects(server, new OutOfMemoryError("injected")),
            running::add));
        final StandaloneServer server = awaitStarted(running, status);

        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.localAddress().getPort()))
        {
            assertTrue(client.isConnected(), "a client connected, which makes the event loop fail");
            assertEquals(ServerMain.EXIT_SERVER_FAILED, status.get(30, TimeUnit.SECONDS));
        }
        assertEquals("agni-server: the server stopped after a failure: java.lang.OutOfMemoryError: injected; " +
            "exiting with status 3", err().strip());
        assertThrows(StoreClosedException.class, () -> server.store().get(new byte[] {'k'}));
    }

    @Test
    void aServerClosedByItsShutdownHookEndsTheRunWithoutAStatus() throws Exception
    {
        final List<StandaloneServer> running = new CopyOnWriteArrayList<>();
        final CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> ServerMain.runUntilStopped(
            with(SMALL, "--port", "0"), System.out, System.err, server ->
            {
            }, running::add));
        final StandaloneServer server = awaitStarted(running, status);

        server.close();

        assertEquals(ServerMain.STOPPED, status.get(30, TimeUnit.SECONDS));
    }

    @Test
    void separateJvmExitsWithTheFailureStatusAndOneErrorLineWhenItsServerFails() throws Exception
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new ArrayList<>(List.of(
            java, "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), FailingServerMain.class.getName(), "--port", "0"));
        command.addAll(List.of(SMALL));
        final Path logFile = Files.createTempFile("agni-server-", ".log");
        final Process process = new ProcessBuilder(command)
            .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        try
        {
            final int port = awaitPort(process, logFile);
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port))
            {
                assertTrue(client.isConnected(), "a client connected, which makes the event loop fail");
                assertTrue(process.waitFor(30, TimeUnit.SECONDS), () -> "still running:\n" + read(logFile));
            }
            final String log = read(logFile);
            assertEquals(ServerMain.EXIT_SERVER_FAILED, process.exitValue(), log);
            final List<String> errors = log.lines().filter(line -> line.contains(" ERROR ")).toList();
            assertEquals(1, errors.size(), log);
            assertTrue(errors.get(0).contains("failed; stopping the server: java.lang.OutOfMemoryError: injected by " +
                "FailingServerMain"), log);
            assertTrue(log.contains("agni-server: the server stopped after a failure: java.lang.OutOfMemoryError: " +
                "injected by FailingServerMain; exiting with status 3"), log);
            assertTrue(log.contains("agni-server stopped"), "the store was closed too:\n" + log);
        }
        finally
        {
            process.destroyForcibly();
            Files.deleteIfExists(logFile);
        }
    }

    private static StandaloneServer awaitStarted(final List<StandaloneServer> running, final CompletableFuture<?> run)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (running.isEmpty())
        {
            if (run.isDone() || System.nanoTime() - deadline > 0)
            {
                fail("the server did not start: " + (run.isDone() ? "the run ended" : "timed out"));
            }
            Thread.sleep(5);
        }
        return running.get(0);
    }

    static int awaitPort(final Process process, final Path logFile) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - deadline < 0)
        {
            final Matcher matcher = READY.matcher(read(logFile));
            if (matcher.find())
            {
                return Integer.parseInt(matcher.group(1));
            }
            if (!process.isAlive())
            {
                fail("the server exited with " + process.exitValue() + ":\n" + read(logFile));
            }
            Thread.sleep(20);
        }
        return fail("the server did not log that it is ready within 30 s:\n" + read(logFile));
    }

    static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static String exchange(final int port, final String inline) throws IOException
    {
        return exchange(port, inline, 1);
    }

    /**
     * Sends inline commands on a new connection and returns the last of {@code replies} one-line replies.
     */
    static String exchange(final int port, final String inline, final int replies) throws IOException
    {
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(inline.getBytes(StandardCharsets.US_ASCII));
            final BufferedReader reader = new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String line = null;
            for (int i = 0; i < replies; i++)
            {
                line = reader.readLine();
                assertNotNull(line, "connection closed before reply " + (i + 1));
            }
            return line;
        }
    }
}
