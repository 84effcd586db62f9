package io.agni.bench.net.target;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A server the load generator measures: one it starts and stops itself, or one already running at an address.
 *
 * <h2>Threads</h2>
 * Used by the harness's main thread; {@link #close()} may also run from the shutdown hook through
 * {@link ProcessReaper}.
 */
public interface Target extends AutoCloseable
{
    /**
     * @return how the target was given.
     */
    TargetSpec spec();

    /**
     * @return its label in the report.
     */
    default String name()
    {
        return spec().name();
    }

    /**
     * Starts the server if the harness owns it, and waits until it answers {@code PING} with {@code +PONG}.
     *
     * @param logDirectory where a started server's output goes ({@code server-NAME.log}).
     * @param timeout      how long the server may take to answer.
     * @return where to connect.
     * @throws IOException          if it cannot be started or does not answer in time (the message says why and
     *                              where its log is).
     * @throws InterruptedException if interrupted while waiting.
     */
    InetSocketAddress start(Path logDirectory, Duration timeout) throws IOException, InterruptedException;

    /**
     * @return the command that started the server, or an empty list if the harness did not start it.
     */
    List<String> command();

    /**
     * @return the server's process id, or -1 if the harness did not start it (or has not yet).
     */
    long pid();

    /**
     * @return true unless the harness started the server and it has exited.
     */
    boolean alive();

    /**
     * Stops the server if the harness started it; otherwise does nothing. Idempotent.
     */
    @Override
    void close();
}
