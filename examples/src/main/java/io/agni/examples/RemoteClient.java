package io.agni.examples;

import io.agni.api.AgniStore;
import io.agni.net.AgniClient;

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
 * Expiry runs on the <em>server's</em> clock: the walk-through's relative expiry ({@code ExpiryMode.AFTER}) is sent
 * as a duration ({@code PX}) that the server adds to its own clock, so the client's clock plays no part.
 */
public final class RemoteClient
{
    /**
     * The port {@link ServeOverTcp} listens on by default.
     */
    static final int DEFAULT_PORT = ServeOverTcp.DEFAULT_PORT;

    private RemoteClient()
    {
    }

    /**
     * Runs the walk-through on a remote store.
     *
     * @param args {@code [host [port]]}: default {@code localhost} and {@value #DEFAULT_PORT}.
     */
    public static void main(final String[] args)
    {
        final String host = args.length > 0 ? args[0] : "localhost";
        final int port = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_PORT;

        // The one changed line: EmbeddedQuickstart opens OffHeapStore.builder()...build() here.
        try (AgniStore store = AgniClient.connect(host, port))
        {
            EmbeddedQuickstart.walkThrough(store);
        }
        System.out.println("closed the client: its connections are closed, the data stays on the server");
    }
}
