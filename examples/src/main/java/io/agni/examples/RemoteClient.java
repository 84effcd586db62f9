package io.agni.examples;

import io.agni.api.AgniStore;
import io.agni.net.AgniClient;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;

/**
 * {@link EmbeddedQuickstart}'s walk-through against a store on a server, agni's or Redis's: the code is the same,
 * the line that opens the store is the one that changed. Start a server first, e.g. {@link ServeOverTcp}, then,
 * from the repository root:
 * <pre>
 * java -jar examples/target/agni-examples.jar ServeOverTcp        # in one terminal
 * java -jar examples/target/agni-examples.jar RemoteClient        # in another: localhost 6380
 * java -jar examples/target/agni-examples.jar RemoteClient localhost 6379   # or against redis-server
 * </pre>
 * {@link AgniClient} is thread-safe (a small pool of connections); each call is one command and one round trip.
 * Expiry times are compared with the <em>server's</em> clock, so the two machines' clocks should agree.
 */
public final class RemoteClient
{
    /**
     * The port {@link ServeOverTcp} listens on by default.
     */
    static final int PORT_DEFAULT = ServeOverTcp.PORT_DEFAULT;

    private RemoteClient()
    {
    }

    /**
     * Runs the walk-through on a remote store.
     *
     * @param args {@code [host [port]]}: default {@code localhost} and {@value #PORT_DEFAULT}.
     */
    public static void main(final String[] args)
    {
        final String host = args.length > 0 ? args[0] : "localhost";
        final int port = args.length > 1 ? Integer.parseInt(args[1]) : PORT_DEFAULT;
        final EpochClock clock = SystemEpochClock.INSTANCE;

        // The one changed line: EmbeddedQuickstart opens OffHeapStore.builder()...build() here.
        try (AgniStore store = AgniClient.connect(host, port))
        {
            EmbeddedQuickstart.walkThrough(store, clock);
        }
        System.out.println("closed the client: its connections are closed, the data stays on the server");
    }
}
