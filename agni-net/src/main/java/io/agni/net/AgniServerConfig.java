package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.protocol.ProtocolLimits;
import org.agrona.concurrent.EpochClock;

import java.net.InetAddress;

/**
 * The validated configuration of one {@link AgniServer}, as {@link AgniServerBuilder#build()} left it. Immutable
 * (the password array is never handed out).
 */
final class AgniServerConfig
{
    final AgniStore store;
    final InetAddress bindAddress;
    final int port;
    final int eventLoopThreads;
    final int maxClients;
    final long idleTimeoutMs;
    final int maxQueryBuffer;
    final int maxOutputBuffer;
    final long maxClientMemory;
    final byte[] password;
    final boolean protectedMode;
    final ProtocolLimits protocolLimits;
    final EpochClock clock;
    final long shutdownTimeoutMs;
    /**
     * The Redis name of the eviction policy the store is given when the server starts, or {@code null} to leave it.
     */
    final String memoryPolicyName;

    AgniServerConfig(
        final AgniStore store,
        final InetAddress bindAddress,
        final int port,
        final int eventLoopThreads,
        final int maxClients,
        final long idleTimeoutMs,
        final int maxQueryBuffer,
        final int maxOutputBuffer,
        final long maxClientMemory,
        final byte[] password,
        final boolean protectedMode,
        final ProtocolLimits protocolLimits,
        final EpochClock clock,
        final long shutdownTimeoutMs,
        final String memoryPolicyName)
    {
        this.store = store;
        this.bindAddress = bindAddress;
        this.port = port;
        this.eventLoopThreads = eventLoopThreads;
        this.maxClients = maxClients;
        this.idleTimeoutMs = idleTimeoutMs;
        this.maxQueryBuffer = maxQueryBuffer;
        this.maxOutputBuffer = maxOutputBuffer;
        this.maxClientMemory = maxClientMemory;
        this.password = password;
        this.protectedMode = protectedMode;
        this.protocolLimits = protocolLimits;
        this.clock = clock;
        this.shutdownTimeoutMs = shutdownTimeoutMs;
        this.memoryPolicyName = memoryPolicyName;
    }

    boolean passwordRequired()
    {
        return password != null;
    }

    /**
     * Redis's protected mode (see {@code clientAcceptHandler} in {@code networking.c}): with no password, only
     * loopback peers are served. A server bound to a loopback address can only be reached by those anyway.
     */
    boolean deniedByProtectedMode(final InetAddress peer)
    {
        return protectedMode && password == null && !bindAddress.isLoopbackAddress() && !peer.isLoopbackAddress();
    }
}
