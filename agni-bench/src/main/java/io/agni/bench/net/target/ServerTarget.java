package io.agni.bench.net.target;

import io.agni.bench.net.load.KeyFill;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A server the harness starts as a process of its own on a free loopback port, with its output in a log file, and
 * stops by process id (through {@link ProcessReaper}, so also on Ctrl-C).
 *
 * <h2>Free port</h2>
 * The port is found by binding port 0 on 127.0.0.1 and closing the socket; another process could take it before the
 * server binds it, in which case the server exits and the start fails with its log, rather than measuring the wrong
 * server.
 */
final class ServerTarget implements Target
{
    private static final int LOG_TAIL_LINES = 20;

    private final TargetSpec spec;
    private final IntFunction<List<String>> commandForPort;
    private List<String> command = List.of();
    private Process process;

    /**
     * @param spec           the target.
     * @param commandForPort the command that starts the server on a given port.
     */
    ServerTarget(final TargetSpec spec, final IntFunction<List<String>> commandForPort)
    {
        this.spec = spec;
        this.commandForPort = commandForPort;
    }

    @Override
    public TargetSpec spec()
    {
        return spec;
    }

    @Override
    public InetSocketAddress start(final Path logDirectory, final Duration timeout)
        throws IOException, InterruptedException
    {
        if (process != null)
        {
            throw new IllegalStateException("already started: " + spec.name());
        }
        final int port = freePort();
        command = commandForPort.apply(port);
        Files.createDirectories(logDirectory);
        final Path log = logDirectory.resolve("server-" + spec.fileName() + ".log");
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ProcessReaper.register(process.pid());
        final InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!KeyFill.ping(address))
        {
            if (!process.isAlive())
            {
                final int status = process.exitValue();
                close();
                throw new IOException(spec.name() + " exited with status " + status + " before answering PING: " +
                    String.join(" ", command) + "\nlog " + log + ":\n" + tail(log));
            }
            if (System.nanoTime() > deadline)
            {
                close();
                throw new IOException(spec.name() + " did not answer PING within " + timeout.toMillis() + " ms: " +
                    String.join(" ", command) + "\nlog " + log + ":\n" + tail(log));
            }
            Thread.sleep(50);
        }
        return address;
    }

    @Override
    public List<String> command()
    {
        return command;
    }

    @Override
    public long pid()
    {
        return process == null ? -1 : process.pid();
    }

    @Override
    public boolean alive()
    {
        return process != null && process.isAlive();
    }

    @Override
    public void close()
    {
        if (process != null)
        {
            ProcessReaper.stop(process.pid());
        }
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    private static String tail(final Path log)
    {
        try
        {
            final List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        }
        catch (final IOException ex)
        {
            return "(cannot read the log: " + ex.getMessage() + ")";
        }
    }
}
