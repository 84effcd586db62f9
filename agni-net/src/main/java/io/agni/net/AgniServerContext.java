package io.agni.net;

import io.agni.protocol.ProtocolLimits;
import io.agni.protocol.command.ServerContext;
import io.agni.protocol.command.ServerStatistics;
import io.agni.protocol.command.Session;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the command layer sees of the server ({@link ServerContext}), and the state every thread of the server
 * shares: the client count that {@code maxClients} is enforced on, the sessions, the clients' memory
 * ({@link ClientMemory}), the counters.
 *
 * <h2>Password</h2>
 * Only the SHA-256 digest of the password is kept. A candidate is hashed and the two digests compared with
 * {@link MessageDigest#isEqual}, so the time taken depends on neither the password's content nor its length
 * (Redis compares digests the same way).
 *
 * <h2>Concurrency</h2>
 * Every method may be called from any thread. The client count is reserved by the acceptor with a CAS before a
 * connection is handed to an event loop and released by that loop when the connection closes, so it never
 * exceeds {@code maxClients}.
 */
final class AgniServerContext implements ServerContext
{
    private static final Comparator<Session> BY_ID = Comparator.comparingLong(Session::id);

    private final byte[] passwordDigest;
    private final int maxClients;
    private final String bindAddress;
    private final long idleTimeoutSeconds;
    private final ProtocolLimits protocolLimits;
    private final long maxQueryBuffer;
    private final long maxOutputBuffer;
    final ClientMemory clientMemory;
    private final Map<Long, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger connectedClients = new AtomicInteger();
    private final AtomicLong nextClientId = new AtomicLong(1);
    final AtomicLong totalConnectionsReceived = new AtomicLong();
    final AtomicLong rejectedConnections = new AtomicLong();
    final AtomicLong protectedModeDenials = new AtomicLong();
    final AtomicLong protocolErrors = new AtomicLong();
    final AtomicLong queryBufferLimitDisconnections = new AtomicLong();
    final AtomicLong outputBufferLimitDisconnections = new AtomicLong();
    final AtomicLong idleTimeoutDisconnections = new AtomicLong();
    private final AtomicLong peakOutputBufferBytes = new AtomicLong();
    final ServerWarnings warnings = new ServerWarnings(AgniServer.LOG);
    final ServerFailure failure = new ServerFailure(AgniServer.LOG);
    /**
     * {@link ServerFaults#NONE} but in tests; set before the server's threads start, which publishes it to them.
     */
    ServerFaults faults = ServerFaults.NONE;
    private final ServerStatistics statistics = new ServerStatistics();
    /**
     * The Redis name the store's policy was last set under; any thread.
     */
    private volatile String memoryPolicyName;
    // the event loops' thread ids, set once when the server starts: read by INFO on any loop
    private volatile long[] commandThreadIds = new long[0];
    private volatile long startTimeMillis;
    private volatile int tcpPort;

    AgniServerContext(final AgniServerConfig config)
    {
        this.passwordDigest = config.password == null ? null : sha256(config.password);
        this.maxClients = config.maxClients;
        this.bindAddress = config.bindAddress.getHostAddress();
        this.idleTimeoutSeconds = (config.idleTimeoutMs + 999) / 1000;
        this.protocolLimits = config.protocolLimits;
        this.maxQueryBuffer = config.maxQueryBuffer;
        this.maxOutputBuffer = config.maxOutputBuffer;
        this.clientMemory = new ClientMemory(config.maxClientMemory);
    }

    void started(final int port, final long startTimeMillis, final long[] commandThreadIds)
    {
        this.commandThreadIds = commandThreadIds;
        this.startTimeMillis = startTimeMillis;
        this.tcpPort = port;
    }

    void stopped()
    {
        tcpPort = 0;
    }

    /**
     * Counts a new client if fewer than {@code maxClients} are connected.
     *
     * @return whether the client may be served.
     */
    boolean tryReserveClient()
    {
        while (true)
        {
            final int count = connectedClients.get();
            if (count >= maxClients)
            {
                return false;
            }
            if (connectedClients.compareAndSet(count, count + 1))
            {
                return true;
            }
        }
    }

    void releaseClient()
    {
        connectedClients.decrementAndGet();
    }

    long nextClientId()
    {
        return nextClientId.getAndIncrement();
    }

    void add(final Session session)
    {
        sessions.put(session.id(), session);
    }

    void remove(final Session session)
    {
        sessions.remove(session.id());
    }

    void recordOutputBuffer(final long bytes)
    {
        long peak = peakOutputBufferBytes.get();
        while (bytes > peak && !peakOutputBufferBytes.compareAndSet(peak, bytes))
        {
            peak = peakOutputBufferBytes.get();
        }
    }

    AgniServerStats stats()
    {
        return new AgniServerStats(
            connectedClients.get(),
            totalConnectionsReceived.get(),
            rejectedConnections.get(),
            protectedModeDenials.get(),
            protocolErrors.get(),
            queryBufferLimitDisconnections.get(),
            outputBufferLimitDisconnections.get(),
            idleTimeoutDisconnections.get(),
            peakOutputBufferBytes.get(),
            clientMemory.evictedClients(),
            clientMemory.usedBytes(),
            clientMemory.peakBytes());
    }

    @Override
    public boolean authenticationRequired()
    {
        return passwordDigest != null;
    }

    @Override
    public boolean authenticate(final String username, final byte[] password)
    {
        final boolean defaultUser = username == null || "default".equals(username);
        if (passwordDigest == null)
        {
            return defaultUser;
        }
        final boolean matches = password != null && MessageDigest.isEqual(sha256(password), passwordDigest);
        return defaultUser & matches;
    }

    @Override
    public List<Session> sessions()
    {
        final List<Session> list = new ArrayList<>(sessions.values());
        list.sort(BY_ID);
        return list;
    }

    @Override
    public long startTimeMillis()
    {
        return startTimeMillis;
    }

    @Override
    public int tcpPort()
    {
        return tcpPort;
    }

    @Override
    public String bindAddress()
    {
        return bindAddress;
    }

    @Override
    public int maxClients()
    {
        return maxClients;
    }

    @Override
    public long idleTimeoutSeconds()
    {
        return idleTimeoutSeconds;
    }

    @Override
    public ProtocolLimits protocolLimits()
    {
        return protocolLimits;
    }

    @Override
    public long maxQueryBuffer()
    {
        return maxQueryBuffer;
    }

    @Override
    public long maxOutputBuffer()
    {
        return maxOutputBuffer;
    }

    @Override
    public long clientMemoryBytes()
    {
        return clientMemory.usedBytes();
    }

    @Override
    public long maxClientMemory()
    {
        return clientMemory.limit();
    }

    @Override
    public long evictedClients()
    {
        return clientMemory.evictedClients();
    }

    @Override
    public ServerStatistics statistics()
    {
        return statistics;
    }

    @Override
    public long totalConnectionsReceived()
    {
        return totalConnectionsReceived.get();
    }

    @Override
    public long rejectedConnections()
    {
        return rejectedConnections.get();
    }

    @Override
    public long[] commandThreadIds()
    {
        return commandThreadIds.clone();
    }

    int connectedClients()
    {
        return connectedClients.get();
    }

    private static byte[] sha256(final byte[] bytes)
    {
        try
        {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is not available", ex);
        }
    }

    @Override
    public String memoryPolicyName()
    {
        return memoryPolicyName;
    }

    @Override
    public void memoryPolicyName(final String name)
    {
        memoryPolicyName = name;
    }
}
