package io.agni.bench.net.report;

import io.agni.bench.net.cpu.CpuPlacement;

import java.time.Duration;

/**
 * How a benchmark was run, as the reports state it: where servers and load ran, the uncounted warm-up round, and
 * whether a second client checked the ratios.
 *
 * @param placement      the CPUs of the servers and of the load.
 * @param warmupRound    the uncounted run of every case on every target before round 1 (zero: none).
 * @param crossCheck     true if redis-benchmark ran the cases it can, in the same rounds.
 * @param crossCheckNote why it did not, or which cases it cannot run; null if there is nothing to say.
 */
public record Method(CpuPlacement placement, Duration warmupRound, boolean crossCheck, String crossCheckNote)
{
    /**
     * @return the method in sentences, for the top of a report.
     */
    public String describe()
    {
        final StringBuilder out = new StringBuilder();
        out.append("CPUs: ").append(placement.describe()).append(". ");
        if (warmupRound.isZero())
        {
            out.append("No warm-up round. ");
        }
        else
        {
            out.append("Warm-up round: before round 1 every target ran every case for ")
                .append(Format.seconds(warmupRound)).append(", not counted (a JVM server compiles its hot path ")
                .append("then; Redis needs none and gets the same). ");
        }
        if (crossCheck)
        {
            out.append("Cross-check: redis-benchmark ran the same cases, pinned the same way, in the same rounds");
            out.append(crossCheckNote == null ? "." : " (" + crossCheckNote + ").");
        }
        else
        {
            out.append("No cross-check").append(crossCheckNote == null ? "." : ": " + crossCheckNote + ".");
        }
        return out.toString();
    }
}
