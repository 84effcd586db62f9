package io.agni.protocol.command;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One event loop's command counts for {@code INFO commandstats}: for each command of the table (by
 * {@link CommandTable#statsId}), its calls, the nanoseconds they took, and the calls rejected before they ran and
 * those that ran and replied an error, interleaved in one preallocated array so that one command's four counts
 * share a cache line.
 *
 * <h2>Threads</h2>
 * Single writer: only the thread of the {@link CommandProcessor} that owns it counts, with plain reads of its own
 * counts and opaque writes; {@link #addTo} may run on any thread and reads each count with an opaque read, which
 * pairs with those writes so that it sees a whole value (never a torn one) that the writer wrote, perhaps not the
 * latest. Counting allocates nothing.
 */
final class CommandRecorder
{
    static final int CALLS = 0;
    static final int NANOS = 1;
    static final int REJECTED = 2;
    static final int FAILED = 3;
    static final int FIELDS = 4;

    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] counts;

    CommandRecorder(final int commands)
    {
        this.counts = new long[commands * FIELDS];
    }

    /**
     * Counts a call that ran. Only the owning thread.
     *
     * @param id     the command's statistics id.
     * @param nanos  how long it took.
     * @param failed whether it replied an error.
     */
    void called(final int id, final long nanos, final boolean failed)
    {
        final long[] counts = this.counts;
        final int base = id * FIELDS;
        COUNTS.setOpaque(counts, base + CALLS, counts[base + CALLS] + 1);
        COUNTS.setOpaque(counts, base + NANOS, counts[base + NANOS] + nanos);
        if (failed)
        {
            COUNTS.setOpaque(counts, base + FAILED, counts[base + FAILED] + 1);
        }
    }

    /**
     * Counts a call refused before it ran (wrong arity, not authenticated, not allowed in a transaction). Only the
     * owning thread.
     *
     * @param id the command's statistics id.
     */
    void rejected(final int id)
    {
        final int base = id * FIELDS + REJECTED;
        COUNTS.setOpaque(counts, base, counts[base] + 1);
    }

    /**
     * Adds every count to the same index of {@code sums}. Any thread.
     *
     * @param sums at least as long as this recorder's counts.
     */
    void addTo(final long[] sums)
    {
        for (int i = 0; i < counts.length; i++)
        {
            sums[i] += (long)COUNTS.getOpaque(counts, i);
        }
    }

    /**
     * Returns the sum of every command's calls. Any thread.
     *
     * @return the sum of every command's calls.
     */
    long totalCalls()
    {
        long total = 0;
        for (int i = CALLS; i < counts.length; i += FIELDS)
        {
            total += (long)COUNTS.getOpaque(counts, i);
        }
        return total;
    }
}
