package io.agni.net;

import java.nio.channels.SocketChannel;

/**
 * Where a test makes the server's threads fail, to check what the server does then (docs/operations.md, "When a
 * server thread fails"): each method is called by one of the server's threads at one point of its loop, and what it
 * throws is handled as a failure at that point would be. A server runs with {@link #NONE}, whose methods do
 * nothing; a test sets another with {@link AgniServer#injectFaults} before the server starts.
 */
interface ServerFaults
{
    /**
     * Fails nowhere.
     */
    ServerFaults NONE = new ServerFaults()
    {
    };

    /**
     * Called by the acceptor before each {@code accept}, outside any connection: what it throws escapes the
     * accept loop.
     */
    default void beforeAccept()
    {
    }

    /**
     * Called by the acceptor with each accepted connection before it is set up: what it throws is a failure of
     * that connection.
     *
     * @param channel the new connection.
     */
    default void accepted(final SocketChannel channel)
    {
    }

    /**
     * Called by an event loop once per iteration, after {@code select}, outside any connection: what it throws
     * escapes the loop.
     */
    default void loopIteration()
    {
    }

    /**
     * Called by an event loop right before it writes a connection's waiting replies to its socket: what it throws
     * is a failure of that connection. Tests also watch here when replies leave.
     *
     * @param channel the connection's socket.
     */
    default void beforeReplyWrite(final SocketChannel channel)
    {
    }
}
