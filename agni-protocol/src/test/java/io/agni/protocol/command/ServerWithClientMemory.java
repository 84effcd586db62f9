package io.agni.protocol.command;

import java.util.List;

/**
 * A {@link LocalServerContext} seen through a host whose clients hold buffers: it reports the given bytes as the
 * clients' memory and its limit ({@code mem_clients_normal}, {@code maxmemory-clients}) and answers the rest from
 * the context it wraps, whose statistics it shares.
 */
final class ServerWithClientMemory implements ServerContext
{
    private final LocalServerContext server;
    private final long clientMemoryBytes;
    private final long maxClientMemory;

    /**
     * @param server            the context to answer the rest from.
     * @param clientMemoryBytes the bytes the clients' buffers hold.
     * @param maxClientMemory   the clients' memory limit, 0 for none.
     */
    ServerWithClientMemory(final LocalServerContext server, final long clientMemoryBytes, final long maxClientMemory)
    {
        this.server = server;
        this.clientMemoryBytes = clientMemoryBytes;
        this.maxClientMemory = maxClientMemory;
    }

    @Override
    public boolean authenticationRequired()
    {
        return server.authenticationRequired();
    }

    @Override
    public boolean authenticate(final String username, final byte[] password)
    {
        return server.authenticate(username, password);
    }

    @Override
    public List<Session> sessions()
    {
        return server.sessions();
    }

    @Override
    public long startTimeMillis()
    {
        return server.startTimeMillis();
    }

    @Override
    public int tcpPort()
    {
        return server.tcpPort();
    }

    @Override
    public long clientMemoryBytes()
    {
        return clientMemoryBytes;
    }

    @Override
    public long maxClientMemory()
    {
        return maxClientMemory;
    }

    @Override
    public ServerStatistics statistics()
    {
        return server.statistics();
    }

    @Override
    public String memoryPolicyName()
    {
        return server.memoryPolicyName();
    }

    @Override
    public void memoryPolicyName(final String name)
    {
        server.memoryPolicyName(name);
    }
}
