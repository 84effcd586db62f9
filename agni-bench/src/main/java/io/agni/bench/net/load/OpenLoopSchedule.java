package io.agni.bench.net.load;

/**
 * When each request of one connection should be sent in an open-loop run: a fixed total rate shared evenly by the
 * connections, each connection's requests evenly spaced and the connections offset from each other, so that the
 * union of all schedules is one evenly spaced stream at the total rate.
 *
 * <h2>Why intended times</h2>
 * A load generator that waits for a slow reply before sending the next request sends less while the server stalls,
 * and so never measures the stall on the requests it did not send (coordinated omission). In open loop each request
 * has an intended send time fixed in advance; its latency is measured from that time, however late it was actually
 * sent, so a stall shows in every request it delayed.
 *
 * <h2>Arithmetic</h2>
 * Request {@code n} of connection {@code i} of {@code c}, at total rate {@code r} per second, is due at
 * {@code start + i * 1e9 / r + n * c * 1e9 / r} nanoseconds, computed from {@code n} each time in double
 * precision, so rounding never accumulates over a long run.
 *
 * <h2>Threads</h2>
 * Not thread-safe: one schedule per connection, used by the thread that drives it.
 */
public final class OpenLoopSchedule
{
    private final long startNanos;
    private final double intervalNanos;
    private final double phaseNanos;
    private long next;

    /**
     * A schedule for one connection.
     *
     * @param startNanos      the {@link System#nanoTime()} of the first request of connection 0.
     * @param totalRate       requests per second over all connections, more than 0.
     * @param connections     the number of connections sharing the rate, at least 1.
     * @param connectionIndex this connection's index, {@code 0 <= connectionIndex < connections}.
     */
    public OpenLoopSchedule(final long startNanos, final double totalRate, final int connections, final int connectionIndex)
    {
        if (!(totalRate > 0) || connections < 1 || connectionIndex < 0 || connectionIndex >= connections)
        {
            throw new IllegalArgumentException("need rate > 0 and 0 <= index < connections: totalRate=" + totalRate +
                ", connections=" + connections + ", connectionIndex=" + connectionIndex);
        }
        this.startNanos = startNanos;
        this.intervalNanos = connections * 1e9 / totalRate;
        this.phaseNanos = connectionIndex * 1e9 / totalRate;
    }

    /**
     * @param n the request's number on this connection, from 0.
     * @return the {@link System#nanoTime()} at which request {@code n} is due.
     */
    public long intendedTime(final long n)
    {
        return startNanos + (long)(phaseNanos + n * intervalNanos);
    }

    /**
     * @return the intended time of the next request not yet taken.
     */
    public long peek()
    {
        return intendedTime(next);
    }

    /**
     * Takes the next request.
     *
     * @return its intended time.
     */
    public long take()
    {
        return intendedTime(next++);
    }
}
