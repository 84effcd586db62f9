package io.agni.bench.net.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether the machine was quiet enough for a run's figures to mean what they say, from what Linux reports: the load
 * average when the run began, the share of the CPUs' time that other work took in the second before it began, and
 * the share the hypervisor took from the virtual CPUs (steal) over the whole run. A busy machine slows every target
 * by a different amount (the one that runs when the other work does loses most), so its ratios, and its two clients'
 * agreement, say more about the machine than about the servers. The figures are kept either way; these say when to
 * trust them less.
 *
 * @param cores              the CPUs the load average is compared with.
 * @param loadAverage        the 1-minute load average when the run began, or -1 if unknown.
 * @param busyAtStartPercent the share of all CPUs' time that was not idle in the second before the run began (the
 *                           load generator sleeps meanwhile, so this is other work), or -1 if unknown.
 * @param stealPercent       the share of all CPUs' time stolen by the hypervisor from the run's start to its end, or
 *                           -1 if unknown.
 */
public record Quietness(int cores, double loadAverage, double busyAtStartPercent, double stealPercent)
{
    /**
     * Other work above this share of the CPUs in the second before the run: not quiet.
     */
    public static final double BUSY_PERCENT = 20;
    /**
     * Steal above this share of the CPUs' time over the run: not quiet.
     */
    public static final double STEAL_PERCENT = 5;

    /**
     * Nothing known: no warning.
     */
    public static final Quietness UNKNOWN = new Quietness(0, -1, -1, -1);

    /**
     * @return each way in which the machine was not quiet, as a sentence; empty when it was (or nothing is known).
     */
    public List<String> warnings()
    {
        final List<String> warnings = new ArrayList<>();
        if (cores > 0 && loadAverage > cores)
        {
            warnings.add(String.format(Locale.ROOT, "the load average was %.2f on %d CPUs when the run began: " +
                "other processes wanted more CPU than the machine has", loadAverage, cores));
        }
        if (busyAtStartPercent > BUSY_PERCENT)
        {
            warnings.add(String.format(Locale.ROOT, "%.0f %% of the CPUs' time went to other work in the second " +
                "before the run began", busyAtStartPercent));
        }
        if (stealPercent > STEAL_PERCENT)
        {
            warnings.add(String.format(Locale.ROOT, "the hypervisor took %.1f %% of the CPUs' time during the run " +
                "(steal): other virtual machines were busy on the same host", stealPercent));
        }
        return warnings;
    }

    /**
     * @return the warnings as one paragraph for a reader, or null when the machine was quiet.
     */
    public String warning()
    {
        final List<String> warnings = warnings();
        if (warnings.isEmpty())
        {
            return null;
        }
        return "This machine was not quiet: " + String.join("; ", warnings) + ". Every target lost time to it, " +
            "by different amounts, so these figures and their ratios are less reliable than usual (the two clients " +
            "may disagree); they are kept, and marked. Run again on a quiet machine to compare.";
    }
}
