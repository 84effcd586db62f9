package io.agni.net;

/**
 * A snapshot of an {@link AgniServer}'s connection counters, for monitoring and tests. Counters run from the
 * server's start; each is read on its own, so a snapshot taken while clients come and go may be slightly
 * inconsistent across fields.
 *
 * @param connectedClients                 the clients connected now.
 * @param totalConnectionsReceived         every connection accepted, the refused ones included.
 * @param rejectedConnections              connections refused because {@code maxClients} were connected.
 * @param protectedModeDenials             connections refused by protected mode.
 * @param protocolErrors                   connections closed after a protocol error.
 * @param queryBufferLimitDisconnections   clients disconnected because a pending command passed
 *                                         {@code maxQueryBuffer}.
 * @param outputBufferLimitDisconnections  clients disconnected because their unsent replies passed
 *                                         {@code maxOutputBuffer}.
 * @param idleTimeoutDisconnections        clients closed after the idle timeout.
 * @param peakOutputBufferBytes            the largest reply buffer any connection held, in bytes.
 * @param evictedClients                   clients disconnected because the clients' buffers passed
 *                                         {@code maxClientMemory} (each was the largest when chosen).
 * @param clientMemoryBytes                the bytes the clients' buffers hold now: every connection's query and
 *                                         reply buffers and the event loops' scratch buffers.
 * @param peakClientMemoryBytes            the most bytes they have held at once.
 */
public record AgniServerStats(
    int connectedClients,
    long totalConnectionsReceived,
    long rejectedConnections,
    long protectedModeDenials,
    long protocolErrors,
    long queryBufferLimitDisconnections,
    long outputBufferLimitDisconnections,
    long idleTimeoutDisconnections,
    long peakOutputBufferBytes,
    long evictedClients,
    long clientMemoryBytes,
    long peakClientMemoryBytes)
{
}
