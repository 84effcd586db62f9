package io.agni.net.launcher;

import io.agni.net.AgniServer;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/**
 * The standalone agni server: an in-process {@link io.agni.store.OffHeapStore} served on a TCP port by an
 * {@link io.agni.net.AgniServer}, configured from the command line ({@code --help} lists the flags;
 * {@code docs/operations.md} explains them).
 * <pre>
 * java -jar agni-net/target/agni-server.jar --port 6380 --max-memory 1gb
 * redis-cli -p 6380 ping
 * </pre>
 * SIGTERM or Ctrl-C runs a shutdown hook that closes the server (stop accepting, flush replies already computed)
 * and then the store. Exit status: 0 after {@code --help}, {@code --version} or a shutdown, {@value #EXIT_USAGE}
 * for a bad command line, {@value #EXIT_FAILURE} when the server cannot start (the port is taken, the JVM lacks
 * Agrona's {@code --add-opens}, which the jar's manifest supplies), {@value #EXIT_SERVER_FAILED} when the running
 * server stopped itself after a failure it could not serve on (see {@link io.agni.net.AgniServer}, "Failures"):
 * the server logs it at ERROR, the launcher closes the store and prints one line to standard error.
 */
public final class ServerMain
{
    /**
     * Exit status when the server cannot start although the command line is valid.
     */
    public static final int EXIT_FAILURE = 1;

    /**
     * Exit status for a bad command line, as most Unix tools.
     */
    public static final int EXIT_USAGE = 2;

    /**
     * Exit status when the running server stopped itself after a failure (a thread of it failed in a way it could
     * not serve on after).
     */
    public static final int EXIT_SERVER_FAILED = 3;

    /**
     * What {@link #run} returns when the server is running.
     */
    static final int RUNNING = -1;

    /**
     * What {@link #runUntilStopped} returns when the server was closed (a shutdown): the JVM is exiting already.
     */
    static final int STOPPED = -2;

    private static final String NAME = "agni-server";

    private ServerMain()
    {
    }

    /**
     * Starts the server and waits until it stops: returns after a shutdown (SIGTERM, Ctrl-C), exits with
     * {@value #EXIT_SERVER_FAILED} if the server stopped itself after a failure; or prints help, the version or an
     * error and exits.
     *
     * @param args the command line; see {@code --help}.
     */
    public static void main(final String[] args)
    {
        launch(args, server ->
        {
        });
    }

    /**
     * What {@link #main} does, with a hook into the server before it starts (tests make its threads fail there).
     *
     * @param args        the command line.
     * @param beforeStart given the server before it starts.
     */
    static void launch(final String[] args, final Consumer<AgniServer> beforeStart)
    {
        final int status = runUntilStopped(args, System.out, System.err, beforeStart,
            server -> Runtime.getRuntime().addShutdownHook(new Thread(server::close, "agni-shutdown")));
        if (status != STOPPED)
        {
            System.exit(status);
        }
    }

    /**
     * Runs the server until it stops.
     *
     * @param args        the command line.
     * @param out         where help and the version go.
     * @param err         where errors go.
     * @param beforeStart given the server before it starts.
     * @param started     given the server once it runs.
     * @return {@link #STOPPED} once the server was closed, or the status to exit with.
     */
    static int runUntilStopped(
        final String[] args, final PrintStream out, final PrintStream err, final Consumer<AgniServer> beforeStart,
        final Consumer<StandaloneServer> started)
    {
        final StandaloneServer[] running = new StandaloneServer[1];
        final int status = run(args, out, err, beforeStart, server ->
        {
            started.accept(server);
            running[0] = server;
        });
        return status == RUNNING ? awaitStop(running[0], err) : status;
    }

    /**
     * Waits until the server stops. After a failure, closes the store and says so on {@code err}.
     *
     * @param server the running server.
     * @param err    where the failure is reported.
     * @return {@link #STOPPED} if the server was closed, {@link #EXIT_SERVER_FAILED} if it failed.
     */
    static int awaitStop(final StandaloneServer server, final PrintStream err)
    {
        final Throwable failure = server.awaitStop();
        if (failure == null)
        {
            return STOPPED;
        }
        server.close();
        err.println(NAME + ": the server stopped after a failure: " + failure + "; exiting with status " +
            EXIT_SERVER_FAILED);
        return EXIT_SERVER_FAILED;
    }

    /**
     * @param args    the command line.
     * @param out     where help and the version go.
     * @param err     where errors go.
     * @param started given the server once it runs.
     * @return {@link #RUNNING}, or the status to exit with.
     */
    static int run(
        final String[] args, final PrintStream out, final PrintStream err, final Consumer<StandaloneServer> started)
    {
        return run(args, out, err, server ->
        {
        }, started);
    }

    private static int run(
        final String[] args, final PrintStream out, final PrintStream err, final Consumer<AgniServer> beforeStart,
        final Consumer<StandaloneServer> started)
    {
        try
        {
            final LauncherOptions options = LauncherOptions.parse(args);
            if (options.help)
            {
                out.print(LauncherOptions.usage());
                return 0;
            }
            if (options.version)
            {
                out.println(NAME + " " + version());
                return 0;
            }
            final StandaloneServer server = StandaloneServer.open(options, beforeStart);
            try
            {
                started.accept(server);
            }
            catch (final RuntimeException ex)
            {
                server.close();
                throw ex;
            }
            return RUNNING;
        }
        catch (final UsageException ex)
        {
            err.println(NAME + ": " + ex.getMessage());
            err.println("Try '" + NAME + " --help' for the options.");
            return EXIT_USAGE;
        }
        catch (final UncheckedIOException | IllegalStateException ex)
        {
            err.println(NAME + ": cannot start: " + ex.getMessage());
            return EXIT_FAILURE;
        }
    }

    /**
     * @return the version from the jar's manifest, or {@code "dev"} when not run from the jar.
     */
    static String version()
    {
        final String version = ServerMain.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
