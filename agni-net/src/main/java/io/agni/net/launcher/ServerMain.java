package io.agni.net.launcher;

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
 * Agrona's {@code --add-opens}, which the jar's manifest supplies).
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
     * What {@link #run} returns when the server is running.
     */
    static final int RUNNING = -1;

    private static final String NAME = "agni-server";

    private ServerMain()
    {
    }

    /**
     * Starts the server and returns, leaving it running on its own (non-daemon) threads until the JVM is told to
     * stop; or prints help, the version or an error and exits.
     *
     * @param args the command line; see {@code --help}.
     */
    public static void main(final String[] args)
    {
        final int status = run(args, System.out, System.err,
            server -> Runtime.getRuntime().addShutdownHook(new Thread(server::close, "agni-shutdown")));
        if (status != RUNNING)
        {
            System.exit(status);
        }
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
            final StandaloneServer server = StandaloneServer.open(options);
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
