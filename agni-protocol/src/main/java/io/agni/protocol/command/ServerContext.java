package io.agni.protocol.command;

import java.util.List;

/**
 * What the command layer needs from the server that hosts it: authentication, the connected clients, and facts
 * for {@code INFO}. The network adapter implements it; {@link LocalServerContext} serves tests and embedded use.
 *
 * <p>Implementations are thread-safe: every connection's commands call them.
 */
public interface ServerContext
{
    /**
     * @return whether clients must authenticate ({@code requirepass} is set).
     */
    boolean authenticationRequired();

    /**
     * Checks credentials in constant time with respect to the password's content.
     *
     * @param username the user name, {@code null} or {@code "default"} for the default user.
     * @param password the password bytes.
     * @return whether they are valid.
     */
    boolean authenticate(String username, byte[] password);

    /**
     * @return the sessions of the clients connected now.
     */
    List<Session> sessions();

    /**
     * @return when the server started, epoch milliseconds.
     */
    long startTimeMillis();

    /**
     * @return the TCP port the server listens on, 0 when not listening.
     */
    int tcpPort();
}
