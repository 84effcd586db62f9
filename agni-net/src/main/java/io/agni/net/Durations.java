package io.agni.net;

import java.time.Duration;
import java.util.Objects;

/**
 * The one way the builders take a duration: a {@link Duration}, checked in its setter, kept in milliseconds.
 */
final class Durations
{
    private Durations()
    {
    }

    /**
     * @param name     the setting, for the message.
     * @param duration the duration, not negative.
     * @return the duration in milliseconds: a positive duration below one millisecond counts as one, and one beyond
     * {@code Long.MAX_VALUE} milliseconds as {@code Long.MAX_VALUE}.
     * @throws NullPointerException     if the duration is null.
     * @throws IllegalArgumentException if the duration is negative; the message names the setting and its value.
     */
    static long nonNegativeMillis(final String name, final Duration duration)
    {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative())
        {
            throw new IllegalArgumentException(name + " must not be negative: " + name + "=" + duration);
        }
        if (duration.compareTo(Duration.ofMillis(Long.MAX_VALUE)) > 0)
        {
            return Long.MAX_VALUE;
        }
        final long millis = duration.toMillis();
        return millis == 0 && !duration.isZero() ? 1 : millis;
    }
}
