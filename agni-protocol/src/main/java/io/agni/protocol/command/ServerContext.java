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
    int DEFAULT_MAX_CLIENTS = 10_000;

    /**
     * Redis's default {@code client-query-buffer-limit}, 1 GiB, reported when a host does not override
     * {@link #maxQueryBuffer()}.
     */
    long DEFAULT_MAX_QUERY_BUFFER = 1L << 30;

    /**
     * Returns whether clients must authenticate ({@code requirepass} is set).
     *
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
     * Returns the sessions of the clients connected now ({@code CLIENT LIST}, {@code connected_clients}).
     *
     * @return the sessions of the clients connected now ({@code CLIENT LIST}, {@code connected_clients}).
     */
    List<Session> sessions();

    /**
     * Returns when the server started, epoch milliseconds ({@code uptime_in_seconds}).
     *
     * @return when the server started, epoch milliseconds ({@code uptime_in_seconds}).
     */
    long startTimeMillis();

    /**
     * Returns the TCP port the server listens on, 0 when not listening ({@code CONFIG GET port}, {@code tcp_port}).
     *
     * @return the TCP port the server listens on, 0 when not listening ({@code CONFIG GET port},
     * {@code tcp_port}).
     */
    int tcpPort();

    /**
     * Returns the address the server listens on ({@code CONFIG GET bind}); empty when not listening, which is the
     * default.
     *
     * @return the address the server listens on ({@code CONFIG GET bind}); empty when not listening, which is
     * the default.
     */
    default String bindAddress()
    {
        return "";
    }

    /**
     * Returns the most clients served at once ({@code CONFIG GET maxclients}, {@code maxclients}); {@link
     * #DEFAULT_MAX_CLIENTS} by default.
     *
     * @return the most clients served at once ({@code CONFIG GET maxclients}, {@code maxclients});
     * {@link #DEFAULT_MAX_CLIENTS} by default.
     */
    default int maxClients()
    {
        return DEFAULT_MAX_CLIENTS;
    }

    /**
     * Returns how long a client may stay idle before it is disconnected, in seconds, 0 for never ({@code CONFIG GET
     * timeout}); 0 by default.
     *
     * @return how long a client may stay idle before it is disconnected, in seconds, 0 for never
     * ({@code CONFIG GET timeout}); 0 by default.
     */
    default long idleTimeoutSeconds()
    {
        return 0;
    }

    /**
     * Returns the limits the server's decoders enforce ({@code CONFIG GET proto-max-bulk-len}); {@link
     * ProtocolLimits#DEFAULT} by default.
     *
     * @return the limits the server's decoders enforce ({@code CONFIG GET proto-max-bulk-len});
     * {@link ProtocolLimits#DEFAULT} by default.
     */
    default ProtocolLimits protocolLimits()
    {
        return ProtocolLimits.DEFAULT;
    }

    /**
     * Returns the most bytes one client's pending command may take ({@code CONFIG GET client-query-buffer-limit});
     * {@link #DEFAULT_MAX_QUERY_BUFFER} by default.
     *
     * @return the most bytes one client's pending command may take ({@code CONFIG GET client-query-buffer-limit});
     * {@link #DEFAULT_MAX_QUERY_BUFFER} by default.
     */
    default long maxQueryBuffer()
    {
        return DEFAULT_MAX_QUERY_BUFFER;
    }

    /**
     * Returns the most bytes of replies one client may have waiting, 0 for no limit ({@code CONFIG GET
     * client-output-buffer-limit}, the hard limit of class {@code normal}); 0 by default, as Redis.
     *
     * @return the most bytes of replies one client may have waiting, 0 for no limit
     * ({@code CONFIG GET client-output-buffer-limit}, the hard limit of class {@code normal}); 0 by default, as Redis.
     */
    default long maxOutputBuffer()
    {
        return 0;
    }

    /**
     * Returns the bytes the clients' buffers hold now (query and reply buffers, the command layer's scratch): {@code
     * mem_clients_normal}, beside {@code used_memory} (the store's budget does not count them); 0 by default.
     *
     * @return the bytes the clients' buffers hold now (query and reply buffers, the command layer's scratch):
     * {@code mem_clients_normal}, beside {@code used_memory} (the store's budget does not count them); 0 by default.
     */
    default long clientMemoryBytes()
    {
        return 0;
    }

    /**
     * Returns the most bytes the clients' buffers may hold together before the clients using the most are disconnected,
     * 0 for no limit ({@code CONFIG GET maxmemory-clients}); 0 by default, as Redis.
     *
     * @return the most bytes the clients' buffers may hold together before the clients using the most are
     * disconnected, 0 for no limit ({@code CONFIG GET maxmemory-clients}); 0 by default, as Redis.
     */
    default long maxClientMemory()
    {
        return 0;
    }

    /**
     * Returns the clients disconnected so far because the clients' buffers passed {@link #maxClientMemory()} ({@code
     * evicted_clients}); 0 by default.
     *
     * @return the clients disconnected so far because the clients' buffers passed {@link #maxClientMemory()}
     * ({@code evicted_clients}); 0 by default.
     */
    default long evictedClients()
    {
        return 0;
    }

    /**
     * Returns the Redis name under which the store's eviction policy was last set through this server ({@code CONFIG
     * SET maxmemory-policy}, or the server's configuration), or {@code null} if none was. Redis's lru and lfu names
     * map to one agni policy, so {@code CONFIG GET maxmemory-policy} and {@code INFO} report this name while the
     * store's policy is still the one it names ({@link MemoryPolicy}); {@code null} by default.
     *
     * @return the name, lower case, or {@code null}.
     */
    default String memoryPolicyName()
    {
        return null;
    }

    /**
     * Remembers the Redis name the store's eviction policy was set under ({@link #memoryPolicyName()}); a host that
     * does not override it forgets the name, and the policy is reported under its default name.
     *
     * @param name the name, lower case.
     */
    default void memoryPolicyName(final String name)
    {
    }

    /**
     * Returns the statistics this server's command processors count into and {@code INFO} reports, one object for
     * the whole server; {@code null} by default, and then each processor keeps statistics of its own (what an
     * {@code INFO} on it reports).
     *
     * @return the server's statistics, or {@code null}.
     */
    default ServerStatistics statistics()
    {
        return null;
    }

    /**
     * Returns the connections accepted since the server started ({@code total_connections_received}); 0 by
     * default.
     *
     * @return the connections accepted since the server started.
     */
    default long totalConnectionsReceived()
    {
        return 0;
    }

    /**
     * Returns the connections refused because {@link #maxClients()} were connected ({@code rejected_connections});
     * 0 by default.
     *
     * @return the connections refused because {@link #maxClients()} were connected.
     */
    default long rejectedConnections()
    {
        return 0;
    }

    /**
     * Returns the ids of the threads that run commands ({@code used_cpu_sys_main_thread} and
     * {@code used_cpu_user_main_thread} add up their CPU time, as Redis reports its one main thread's); none by
     * default.
     *
     * @return the ids of the threads that run commands, a new array.
     */
    default long[] commandThreadIds()
    {
        return new long[0];
    }
}
