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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A twemproxy ({@code nutcracker}) process for tests: started on a configuration file, on loopback, with its
 * statistics port on a free loopback port too (its default, 22222, would collide between runs), stopped by its
 * process id. {@code .ci/run} installs it (Debian/Ubuntu package {@code nutcracker}, which puts it in
 * {@code /usr/sbin}); without it a test is skipped with a message, or failed when {@code CI} is set.
 */
final class NutcrackerProcess implements AutoCloseable
{
    private static final long READY_TIMEOUT_MS = 10_000;
    private static final long POLL_NS = 10_000_000;
    private static final List<String> SYSTEM_DIRECTORIES = List.of("/usr/sbin", "/usr/local/sbin", "/usr/local/bin");

    private final Process process;
    private final Path directory;
    private final Thread shutdownHook;

    private NutcrackerProcess(final Process process, final Path directory)
    {
        this.process = process;
        this.directory = directory;
        this.shutdownHook = new Thread(process::destroyForcibly, "stop nutcracker " + process.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Finds {@code nutcracker} on the {@code PATH} or in the system directories Debian installs it in; fails the
     * test if it is missing and {@code CI} is set, else skips it.
     *
     * @return its path.
     */
    static Path requireNutcracker()
    {
        final List<String> directories = new ArrayList<>();
        final String path = System.getenv("PATH");
        if (path != null)
        {
            directories.addAll(List.of(path.split(java.io.File.pathSeparator)));
        }
        directories.addAll(SYSTEM_DIRECTORIES);
        for (final String directory : directories)
        {
            if (directory.isEmpty())
            {
                continue;
            }
            final Path candidate = Path.of(directory, "nutcracker");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        final String message = "nutcracker (twemproxy) is not installed: install it (Debian/Ubuntu: apt-get " +
            "install nutcracker; .ci/run does it) to run this test";
        if (System.getenv(RedisServerProcess.CI_VARIABLE) != null)
        {
            fail(message + " (failing, not skipping, because " + RedisServerProcess.CI_VARIABLE + " is set)");
        }
        throw new TestAbortedException(message);
    }

    /**
     * Starts nutcracker on a configuration, and waits until it answers {@code PING} on its listening port.
     *
     * @param configuration the YAML configuration, listening on {@code 127.0.0.1:listenPort}.
     * @param listenPort    the port the configuration listens on.
     * @param password      the {@code redis_auth} password, sent before {@code PING}; {@code null} for none.
     * @return the running proxy.
     * @throws IllegalStateException if it exits or does not answer within 10 s (e.g. its port was taken).
     */
    static NutcrackerProcess start(final String configuration, final int listenPort, final String password)
    {
        final Path executable = requireNutcracker();
        final Path directory;
        try
        {
            directory = Files.createTempDirectory("agni-nutcracker-");
            Files.writeString(directory.resolve("agni.yml"), configuration, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final Path log = directory.resolve("nutcracker.log");
        final List<String> command = List.of(executable.toString(),
            "-c", directory.resolve("agni.yml").toString(),
            "-s", Integer.toString(freePort()), "-a", "127.0.0.1",
            "-o", log.toString(), "-p", directory.resolve("nutcracker.pid").toString());
        final Process process;
        try
        {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(directory.resolve("stdout.log").toFile()).start();
        }
        catch (final IOException ex)
        {
            RedisServerProcess.deleteRecursively(directory);
            throw new UncheckedIOException("cannot start " + command, ex);
        }
        final NutcrackerProcess proxy = new NutcrackerProcess(process, directory);
        try
        {
            proxy.awaitPong(listenPort, password, log);
            return proxy;
        }
        catch (final RuntimeException | Error ex)
        {
            proxy.close();
            throw ex;
        }
    }

    /**
     * A free loopback port now (another process may take it before it is bound).
     *
     * @return the port.
     */
    static int freePort()
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

    private void awaitPong(final int port, final String password, final Path log)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        String last = "no attempt";
        while (System.nanoTime() - deadline < 0)
        {
            if (!process.isAlive())
            {
                // most likely another process took the listening port: the caller may try another
                throw new IllegalStateException("nutcracker exited with " + process.exitValue() + ": " + read(log) +
                    read(directory.resolve("stdout.log")));
            }
            try (Socket socket = new Socket())
            {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
                socket.setSoTimeout(1_000);
                final OutputStream out = socket.getOutputStream();
                final InputStream in = socket.getInputStream();
                if (password != null)
                {
                    out.write(RawRespConnection.encode("AUTH", password));
                }
                out.write(RawRespConnection.encode("PING"));
                out.flush();
                final String replies = readReplies(in, password != null ? 2 : 1);
                if (replies.endsWith("+PONG\r\n"))
                {
                    return;
                }
                last = replies;
            }
            catch (final IOException ex)
            {
                last = ex.toString();
            }
            LockSupport.parkNanos(POLL_NS);
        }
        throw new IllegalStateException(
            "nutcracker did not answer PING within " + READY_TIMEOUT_MS + " ms (" + last + "): " + read(log));
    }

    private static String readReplies(final InputStream in, final int lines) throws IOException
    {
        final StringBuilder text = new StringBuilder();
        int seen = 0;
        int b;
        while (seen < lines && (b = in.read()) >= 0)
        {
            text.append((char)b);
            if (b == '\n')
            {
                seen++;
            }
        }
        return text.toString();
    }

    /**
     * Returns the process id.
     *
     * @return the process id.
     */
    long pid()
    {
        return process.pid();
    }

    /**
     * Stops nutcracker by its process id (SIGTERM, then SIGKILL after 10 s) and deletes its directory. Idempotent.
     */
    @Override
    public void close()
    {
        RedisServerProcess.stop(process, shutdownHook, directory);
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        }
        catch (final IOException ex)
        {
            return "(cannot read " + file.getFileName() + ": " + ex + ")";
        }
    }
}
