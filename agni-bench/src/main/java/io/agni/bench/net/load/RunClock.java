package io.agni.bench.net.load;

/**
 * The phases of one run, as {@link System#nanoTime()} values fixed before the workers start: load begins at
 * {@code start}, measurement at {@code measureStart} (after the warm-up), and, in a timed run, sending stops at
 * {@code measureEnd}.
 *
 * @param start        when the workers begin sending.
 * @param measureStart when requests begin to count.
 * @param measureEnd   when sending stops in a timed run; {@link Long#MAX_VALUE} in a run of a request count.
 */
public record RunClock(long start, long measureStart, long measureEnd)
{
    /**
     * @param time a {@link System#nanoTime()} at which a request was sent (or was due, in open loop).
     * @return true if a request sent then is measured.
     */
    public boolean measured(final long time)
    {
        return time >= measureStart && time < measureEnd;
    }
}
