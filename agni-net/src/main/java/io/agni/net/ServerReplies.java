package io.agni.net;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The replies the connection layer sends itself, before or instead of the command layer, with Redis's texts.
 */
final class ServerReplies
{
    /**
     * Redis's reply to a connection past {@code maxclients} ({@code acceptCommonHandler} in {@code networking.c}).
     */
    static final String MAX_CLIENTS_REACHED = "-ERR max number of clients reached\r\n";

    /**
     * Redis 7's protected-mode reply ({@code clientAcceptHandler} in {@code networking.c}), word for word, so that
     * clients and tools that recognise it keep doing so. Its advice names Redis's own switches; agni's are the
     * {@code protectedMode} and {@code password} settings (and the launcher's {@code --protected-mode no} flag).
     */
    static final String DENIED =
        "-DENIED Redis is running in protected mode because protected mode is enabled and no password is set for " +
        "the default user. In this mode connections are only accepted from the loopback interface. If you want " +
        "to connect from external computers to Redis you may adopt one of the following solutions: 1) Just " +
        "disable protected mode sending the command 'CONFIG SET protected-mode no' from the loopback interface " +
        "by connecting to Redis from the same host the server is running, however MAKE SURE Redis is not " +
        "publicly accessible from internet if you do so. Use CONFIG REWRITE to make this change permanent. 2) " +
        "Alternatively you can just disable the protected mode by editing the Redis configuration file, and " +
        "setting the protected mode option to 'no', and then restarting the server. 3) If you started the " +
        "server manually just for testing, restart it with the '--protected-mode no' option. 4) Set up an " +
        "authentication password for the default user. NOTE: You only need to do one of the above things in " +
        "order for the server to start accepting connections from the outside.\r\n";

    /**
     * What a client gets when its command failed inside the server in a way the command layer did not expect.
     */
    static final String INTERNAL_ERROR = "ERR internal error";

    static final UnsafeBuffer DENIED_BUFFER = new UnsafeBuffer(DENIED.getBytes(StandardCharsets.US_ASCII));

    private static final ByteBuffer MAX_CLIENTS_REACHED_BUFFER =
        ByteBuffer.wrap(MAX_CLIENTS_REACHED.getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();

    private ServerReplies()
    {
    }

    /**
     * @return the max-clients reply, positioned at its start, for one thread's use.
     */
    static ByteBuffer maxClientsReached()
    {
        return MAX_CLIENTS_REACHED_BUFFER.duplicate();
    }
}
