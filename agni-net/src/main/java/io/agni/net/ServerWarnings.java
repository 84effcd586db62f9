package io.agni.net;

import org.slf4j.Logger;

/**
 * The server's rate-limited WARN lines, one limiter per kind of problem (docs/operations.md, "Logs"), so that a
 * flood of one kind (a client hitting its output limit in a loop, say) never hides another (a client evicted, a
 * connection refused).
 * <p>
 * Thread-safe: every event loop and the acceptor of a server share one instance.
 */
final class ServerWarnings
{
    final RateLimitedWarnings protocolErrors;
    final RateLimitedWarnings outputBufferLimit;
    final RateLimitedWarnings queryBufferLimit;
    final RateLimitedWarnings clientEvicted;
    final RateLimitedWarnings maxClientsRefused;
    final RateLimitedWarnings protectedModeRefused;
    final RateLimitedWarnings internalErrors;
    final RateLimitedWarnings acceptFailures;
    final RateLimitedWarnings durabilityFailures;

    ServerWarnings(final Logger log)
    {
        this(log, RateLimitedWarnings.DEFAULT_INTERVAL_NS);
    }

    ServerWarnings(final Logger log, final long intervalNs)
    {
        protocolErrors = new RateLimitedWarnings(log, intervalNs);
        outputBufferLimit = new RateLimitedWarnings(log, intervalNs);
        queryBufferLimit = new RateLimitedWarnings(log, intervalNs);
        clientEvicted = new RateLimitedWarnings(log, intervalNs);
        maxClientsRefused = new RateLimitedWarnings(log, intervalNs);
        protectedModeRefused = new RateLimitedWarnings(log, intervalNs);
        internalErrors = new RateLimitedWarnings(log, intervalNs);
        acceptFailures = new RateLimitedWarnings(log, intervalNs);
        durabilityFailures = new RateLimitedWarnings(log, intervalNs);
    }
}
