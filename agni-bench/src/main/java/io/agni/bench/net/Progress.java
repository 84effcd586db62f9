package io.agni.bench.net;

import io.agni.bench.net.load.LoadRun;
import io.agni.bench.net.load.RunClock;
import io.agni.bench.net.report.Format;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress line redrawn on a terminal while a run goes: which run, its phase (warm-up, measuring, draining),
 * the time into the phase, and the reply rate over the last quarter second. Off a terminal it stays silent, so logs
 * get only the line per finished run.
 */
final class Progress implements LoadRun.ProgressListener
{
    private final PrintStream console;
    private final String label;
    private final boolean enabled;
    private long lastTime;
    private long lastReplies;

    Progress(final PrintStream console, final String label, final boolean enabled)
    {
        this.console = console;
        this.label = label;
        this.enabled = enabled;
    }

    @Override
    public void onProgress(final RunClock clock, final long now, final long replies)
    {
        if (!enabled)
        {
            return;
        }
        final double rate = lastTime == 0 ? 0 : (replies - lastReplies) * 1e9 / Math.max(1, now - lastTime);
        lastTime = now;
        lastReplies = replies;
        final String phase;
        if (now < clock.measureStart())
        {
            phase = String.format(Locale.ROOT, "warm-up %.1f/%.1f s", seconds(now - clock.start()),
                seconds(clock.measureStart() - clock.start()));
        }
        else if (clock.measureEnd() == Long.MAX_VALUE)
        {
            phase = String.format(Locale.ROOT, "measuring %.1f s", seconds(now - clock.measureStart()));
        }
        else if (now < clock.measureEnd())
        {
            phase = String.format(Locale.ROOT, "measuring %.1f/%.1f s", seconds(now - clock.measureStart()),
                seconds(clock.measureEnd() - clock.measureStart()));
        }
        else
        {
            phase = "draining";
        }
        console.print("\r\033[K" + label + "  " + phase + "  " + Format.rate(rate) + " req/s");
        console.flush();
    }

    void clear()
    {
        if (enabled && lastTime != 0)
        {
            console.print("\r\033[K");
            console.flush();
        }
    }

    private static double seconds(final long nanos)
    {
        return Math.max(0, nanos) / 1e9;
    }
}
