package io.agni.bench.net.load;

import java.net.InetSocketAddress;

/**
 * Everything one measurement run needs to know, validated once.
 *
 * @param address      the server.
 * @param workload     what to ask.
 * @param connections  connections to open, at least 1.
 * @param threads      event-loop threads driving them, at least 1 (never more than the connections are used).
 * @param pipeline     requests in flight per connection, at least 1.
 * @param keys         the key space: keys {@code 0 .. keys-1}.
 * @param valueSize    bytes per SET value.
 * @param warmupNanos  load before measuring, in nanoseconds, 0 or more.
 * @param durationNanos measured time in nanoseconds; ignored if {@code requests > 0}.
 * @param requests     if more than 0, measure exactly this many requests instead of a duration.
 * @param rate         0 for closed loop; otherwise the open-loop total rate in requests per second.
 * @param seed         seeds each connection's key choices.
 * @param stallNanos   a run fails if no reply arrives for this long while requests are outstanding.
 */
public record RunSettings(
    InetSocketAddress address,
    Workload workload,
    int connections,
    int threads,
    int pipeline,
    long keys,
    int valueSize,
    long warmupNanos,
    long durationNanos,
    long requests,
    double rate,
    long seed,
    long stallNanos)
{
    /**
     * Validates the settings.
     */
    public RunSettings
    {
        if (connections < 1 || threads < 1 || pipeline < 1)
        {
            throw new IllegalArgumentException("connections, threads and pipeline must be at least 1: connections=" +
                connections + ", threads=" + threads + ", pipeline=" + pipeline);
        }
        if (keys < 1 || keys > RequestEncoder.MAX_KEYS)
        {
            throw new IllegalArgumentException("keys must be 1 to " + RequestEncoder.MAX_KEYS + ": keys=" + keys);
        }
        if (warmupNanos < 0 || durationNanos < 0 || requests < 0 || rate < 0 || stallNanos <= 0)
        {
            throw new IllegalArgumentException("times, counts and rate must not be negative: warmupNanos=" +
                warmupNanos + ", durationNanos=" + durationNanos + ", requests=" + requests + ", rate=" + rate +
                ", stallNanos=" + stallNanos);
        }
        if (requests == 0 && durationNanos == 0)
        {
            throw new IllegalArgumentException("need a duration or a request count: both are 0");
        }
    }

    /**
     * @return true if the run is open loop at a fixed rate.
     */
    public boolean openLoop()
    {
        return rate > 0;
    }

    /**
     * @return the worker threads actually used: no more than the connections.
     */
    public int effectiveThreads()
    {
        return Math.min(threads, connections);
    }

    /**
     * The same settings with another warm-up.
     *
     * @param nanos the warm-up in nanoseconds.
     * @return a copy.
     */
    public RunSettings withWarmup(final long nanos)
    {
        return new RunSettings(address, workload, connections, threads, pipeline, keys, valueSize, nanos,
            durationNanos, requests, rate, seed, stallNanos);
    }
}
