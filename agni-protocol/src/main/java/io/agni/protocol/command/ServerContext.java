package io.agni.protocol.command;

import io.agni.protocol.ProtocolLimits;

import java.util.List;

/**
 * What the command layer needs from the server that hosts it: authentication, the connected clients, and facts
 * for {@code INFO}, {@code CONFIG GET} and {@code CLIENT LIST}. The network adapter implements it;
 * {@link LocalServerContext} serves tests and embedded use.
 *
 * <p>The settings below the first five methods have defaults (Redis's, or "not listening") so that a host only
 * overrides what it really has; each names the {@code CONFIG GET} parameter or {@code INFO} field that shows it.
 *
 * <p>Implementations are thread-safe: every connection's commands call them.
 */
public interface ServerContext
{
    /**
     * Redis's default {@code maxclients}, reported when a host does not override {@link #maxClients()}.
     */
    int MAX_CLIENTS_DEFAULT = 10_000;

    /**
     * @return whether clients must authenticate ({@code requirepass} is set).
     */
    boolean authenticationRequired();

    /**
     * Checks credentials in constant time with respect to the password's content.
     *
     * @param username the user name, {@code null} or {@code "default"} for the default user.
     * @param password the password bytes.
     * @return whether they are valid. With no password configured the default user accepts any password, as
     * Redis's {@code nopass} default user does; other user names are always refused.
     */
    boolean authenticate(String username, byte[] password);

    /**
     * @return the sessions of the clients connected now ({@code CLIENT LIST}, {@code connected_clients}).
     */
    List<Session> sessions();

    /**
     * @return when the server started, epoch milliseconds ({@code uptime_in_seconds}).
     */
    long startTimeMillis();

    /**
     * @return the TCP port the server listens on, 0 when not listening ({@code CONFIG GET port},
     * {@code tcp_port}).
     */
    int tcpPort();

    /**
     * @return the address the server listens on ({@code CONFIG GET bind}); empty when not listening, which is
     * the default.
     */
    default String bindAddress()
    {
        return "";
    }

    /**
     * @return the most clients served at once ({@code CONFIG GET maxclients}, {@code maxclients});
     * {@link #MAX_CLIENTS_DEFAULT} by default.
     */
    default int maxClients()
    {
        return MAX_CLIENTS_DEFAULT;
    }

    /**
     * @return how long a client may stay idle before it is disconnected, in seconds, 0 for never
     * ({@code CONFIG GET timeout}); 0 by default.
     */
    default long idleTimeoutSeconds()
    {
        return 0;
    }

    /**
     * @return the limits the server's decoders enforce ({@code CONFIG GET proto-max-bulk-len});
     * {@link ProtocolLimits#DEFAULT} by default.
     */
    default ProtocolLimits protocolLimits()
    {
        return ProtocolLimits.DEFAULT;
    }
}
