package io.agni.bench.net.load;

/**
 * What one run measured.
 *
 * @param requests    requests sent (or due) in the measured window and answered.
 * @param errors      error replies over the whole run, warm-up included.
 * @param nulls       null replies (GET misses) over the whole run.
 * @param firstError  the text of the first error reply, or null.
 * @param windowNanos the measured window: the duration, or in a run of a request count the time to its last reply.
 * @param throughput  measured requests per second of the window.
 * @param latency     latency of the measured requests.
 * @param perSecond   answered measured requests in each second of the window.
 * @param late        open loop only: requests due before the end that were never sent because the server did not
 *                    keep up (0 in closed loop).
 */
public record RunMeasurement(
    long requests,
    long errors,
    long nulls,
    String firstError,
    long windowNanos,
    double throughput,
    Latency latency,
    long[] perSecond,
    long late)
{
}
