package io.agni.net;

import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real {@code redis-server} for a test: started on a free loopback port with no persistence
 * ({@code --port P --bind 127.0.0.1 --save '' --appendonly no}, its working directory a fresh temporary one), ready
 * once it answers {@code PING}, and stopped by its process id on {@link #close()} and, should the JVM exit first,
 * by a shutdown hook.
 * <pre>{@code
 * @BeforeAll static void startRedis() { redis = RedisServerProcess.start(); }
 * @AfterAll static void stopRedis() { if (redis != null) redis.close(); }
 * }</pre>
 *
 * <h2>When Redis is not installed</h2>
 * {@link #requireTool(String)} (which {@link #start} calls for {@code redis-server}) makes the test <em>fail</em>
 * when the environment variable {@code CI} is set, since CI installs Redis (see {@code .ci/run}), and skips it with
 * a message saying what to install otherwise.
 */
final class RedisServerProcess implements AutoCloseable
{
    /**
     * The environment variable whose presence means "this is CI: a missing tool is a failure".
     */
    static final String CI_VARIABLE = "CI";

    private static final long READY_TIMEOUT_MS = 10_000;
    private static final long STOP_TIMEOUT_MS = 10_000;
    private static final int START_ATTEMPTS = 3;

    private final Process process;
    private final int port;
    private final Path directory;
    private final Thread shutdownHook;

    private RedisServerProcess(final Process process, final int port, final Path directory)
    {
        this.process = process;
        this.port = port;
        this.directory = directory;
        this.shutdownHook = new Thread(process::destroyForcibly, "stop redis-server " + process.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Finds an executable on the {@code PATH}; fails the test if it is missing and {@code CI} is set, else skips it.
     *
     * @param name e.g. {@code "redis-server"}, {@code "redis-cli"}, {@code "redis-benchmark"}.
     * @return its path.
     */
    static Path requireTool(final String name)
    {
        return requireTool(name, "install Redis (Debian/Ubuntu: apt-get install redis-server redis-tools; " +
            ".ci/run does it)");
    }

    /**
     * Finds an executable on the {@code PATH}; fails the test if it is missing and {@code CI} is set, else skips it.
     *
     * @param name        e.g. {@code "node"}.
     * @param installHint what to do about it, e.g. {@code "install Node.js (...)"}.
     * @return its path.
     */
    static Path requireTool(final String name, final String installHint)
    {
        final Optional<Path> found = findOnPath(name);
        if (found.isPresent())
        {
            return found.get();
        }
        final String message = name + " is not on the PATH: " + installHint + " to run this test";
        if (System.getenv(CI_VARIABLE) != null)
        {
            fail(message + " (failing, not skipping, because " + CI_VARIABLE + " is set)");
        }
        throw new TestAbortedException(message);
    }

    /**
     * Starts a {@code redis-server} and waits until it answers {@code PING}.
     *
     * @param extraArguments more configuration, e.g. {@code "--requirepass", "secret"}.
     * @return the running server.
     */
    static RedisServerProcess start(final String... extraArguments)
    {
        final Path executable = requireTool("redis-server");
        IllegalStateException lastFailure = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++)
        {
            try
            {
                return startOnce(executable, freePort(), extraArguments);
            }
            catch (final IllegalStateException ex)
            {
                // most likely another process took the port between probing and binding it: try another
                lastFailure = ex;
            }
        }
        throw lastFailure;
    }

    /**
     * Starts a {@code redis-server} on a given port (another's, stopped: a restart) and waits until it answers
     * {@code PING}.
     *
     * @param port           the loopback port.
     * @param extraArguments more configuration, e.g. {@code "--requirepass", "secret"}.
     * @return the running server.
     */
    static RedisServerProcess startOn(final int port, final String... extraArguments)
    {
        return startOnce(requireTool("redis-server"), port, extraArguments);
    }

    /**
     * @return the port the server listens on, on 127.0.0.1.
     */
    int port()
    {
        return port;
    }

    /**
     * @return the server's process id.
     */
    long pid()
    {
        return process.pid();
    }

    /**
     * @return whether the process is still running.
     */
    boolean isAlive()
    {
        return process.isAlive();
    }

    /**
     * Stops the server by its process id (SIGTERM, then SIGKILL if it has not exited within 10 s) and deletes its
     * directory. Idempotent.
     */
    @Override
    public void close()
    {
        stop(process, shutdownHook, directory);
    }

    @Override
    public String toString()
    {
        return "redis-server{pid=" + process.pid() + ", port=" + port + "}";
    }

    private static RedisServerProcess startOnce(final Path executable, final int port, final String... extraArguments)
    {
        final Path directory;
        try
        {
            directory = Files.createTempDirectory("agni-redis-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final List<String> command = new ArrayList<>(List.of(executable.toString(),
            "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", directory.toString(), "--logfile", ""));
        command.addAll(Arrays.asList(extraArguments));
        final Path log = directory.resolve("redis.log");
        final Process process;
        try
        {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }
        catch (final IOException ex)
        {
            deleteRecursively(directory);
            throw new UncheckedIOException("cannot start " + command, ex);
        }
        final RedisServerProcess server = new RedisServerProcess(process, port, directory);
        try
        {
            server.awaitPong(log);
            return server;
        }
        catch (final RuntimeException | Error ex)
        {
            server.close();
            throw ex;
        }
    }

    private void awaitPong(final Path log)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        while (System.nanoTime() - deadline < 0)
        {
            if (!process.isAlive())
            {
                throw new IllegalStateException(
                    "redis-server exited with " + process.exitValue() + " before answering PING:\n" + read(log));
            }
            if (answersPing())
            {
                return;
            }
            try
            {
                Thread.sleep(20);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for redis-server", ex);
            }
        }
        throw new IllegalStateException(
            "redis-server did not answer PING on port " + port + " within " + READY_TIMEOUT_MS + " ms:\n" + read(log));
    }

    /**
     * Stops a server process by its id (SIGTERM, then SIGKILL if it has not exited within 10 s), drops its shutdown
     * hook and deletes its directory: what closing every server a test starts does.
     *
     * @param process      the process.
     * @param shutdownHook the hook that would stop it at JVM exit.
     * @param directory    its working directory.
     */
    static void stop(final Process process, final Thread shutdownHook, final Path directory)
    {
        final Optional<ProcessHandle> handle = ProcessHandle.of(process.pid());
        handle.ifPresent(ProcessHandle::destroy);
        try
        {
            if (!process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS))
            {
                handle.ifPresent(ProcessHandle::destroyForcibly);
                process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            handle.ifPresent(ProcessHandle::destroyForcibly);
            Thread.currentThread().interrupt();
        }
        try
        {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (final IllegalStateException ex)
        {
            // the JVM is shutting down already; the hook runs anyway
        }
        deleteRecursively(directory);
    }

    /**
     * Whether the server answers {@code PING}: {@code +PONG}, or {@code -NOAUTH} when it was started with a
     * password, both mean it is ready.
     */
    private boolean answersPing()
    {
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            socket.setSoTimeout(1000);
            final OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();
            final StringBuilder line = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0 && b != '\r' && line.length() < 256)
            {
                line.append((char)b);
            }
            return "+PONG".equals(line.toString()) || line.toString().startsWith("-NOAUTH");
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private static int freePort()
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no free loopback port", ex);
        }
    }

    private static Optional<Path> findOnPath(final String name)
    {
        final String path = System.getenv("PATH");
        if (path == null)
        {
            return Optional.empty();
        }
        for (final String directory : path.split(java.io.File.pathSeparator))
        {
            if (directory.isEmpty())
            {
                continue;
            }
            final Path candidate = Path.of(directory, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
            {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static String read(final Path log)
    {
        try
        {
            return Files.readString(log);
        }
        catch (final IOException ex)
        {
            return "(no log: " + ex + ")";
        }
    }

    static void deleteRecursively(final Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ex)
        {
            // a leftover temporary directory is harmless
        }
    }
}
