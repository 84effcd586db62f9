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
    long peakOutputBufferBytes)
{
}
