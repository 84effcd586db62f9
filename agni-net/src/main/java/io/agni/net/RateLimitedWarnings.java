package io.agni.net;

import org.slf4j.Logger;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs one kind of problem at WARN at most once per interval and counts the rest, so that a hostile client
 * sending bad requests in a loop cannot flood the log: the next line that gets through says how many were
 * suppressed since the last.
 * <p>
 * Thread-safe: every event loop of a server shares one per kind of problem.
 */
final class RateLimitedWarnings
{
    static final long DEFAULT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);

    private final Logger log;
    private final long intervalNs;
    private final AtomicLong nextAllowedNs;
    private final AtomicLong suppressed = new AtomicLong();

    RateLimitedWarnings(final Logger log)
    {
        this(log, DEFAULT_INTERVAL_NS);
    }

    RateLimitedWarnings(final Logger log, final long intervalNs)
    {
        this.log = log;
        this.intervalNs = intervalNs;
        this.nextAllowedNs = new AtomicLong(System.nanoTime());
    }

    /**
     * Logs the message with its argument unless one was logged less than an interval ago.
     */
    void warn(final String message, final Object argument)
    {
        warn(message, argument, null, 1);
    }

    /**
     * Logs the message with its two arguments unless one was logged less than an interval ago.
     */
    void warn(final String message, final Object first, final Object second)
    {
        warn(message, first, second, 2);
    }

    private void warn(final String message, final Object first, final Object second, final int arguments)
    {
        if (!log.isWarnEnabled())
        {
            return;
        }
        final long now = System.nanoTime();
        final long next = nextAllowedNs.get();
        if (now - next >= 0 && nextAllowedNs.compareAndSet(next, now + intervalNs))
        {
            final long skipped = suppressed.getAndSet(0);
            final String suffix = skipped == 0 ? "" : " (" + skipped + " similar warnings suppressed)";
            if (arguments == 1)
            {
                log.warn(message + suffix, first);
            }
            else
            {
                log.warn(message + suffix, first, second);
            }
        }
        else
        {
            suppressed.incrementAndGet();
        }
    }

    /**
     * @return the text with every character outside printable ASCII written as {@code \xNN}, so that bytes a
     * client chose (quoted back in an error message) cannot forge or garble log lines.
     */
    static String printable(final String text)
    {
        StringBuilder escaped = null;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            final boolean plain = c >= 0x20 && c < 0x7f;
            if (!plain && escaped == null)
            {
                escaped = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (escaped != null)
            {
                if (plain)
                {
                    escaped.append(c);
                }
                else
                {
                    escaped.append(String.format("\\x%02x", c & 0xff));
                }
            }
        }
        return escaped == null ? text : escaped.toString();
    }
}
