package io.agni.store;

import io.agni.api.ExpiryMode;
import org.agrona.concurrent.EpochClock;

import java.util.Objects;

/**
 * Turns the (mode, time) of a write into what a shard stores: a relative time ({@link ExpiryMode#AFTER}) becomes
 * an absolute one ({@link ExpiryMode#AT}) on the store's clock, read once when the call arrives, before any lock
 * is taken; shards only ever see {@code CLEAR}, {@code KEEP} and {@code AT}. Stateless.
 */
final class Expiry
{
    private Expiry()
    {
    }

    /**
     * The mode a shard applies, after checking the time given with it.
     *
     * @throws NullPointerException     if {@code mode} is null.
     * @throws IllegalArgumentException if {@code mode} ignores the time and it is not 0.
     */
    static ExpiryMode mode(final ExpiryMode mode, final long time)
    {
        Objects.requireNonNull(mode, "expiryMode").checkTime(time);
        return mode == ExpiryMode.AFTER ? ExpiryMode.AT : mode;
    }

    /**
     * The absolute expiry time for {@link ExpiryMode#AT} and {@link ExpiryMode#AFTER} (the clock's now plus the
     * duration, saturated), the time unchanged otherwise.
     */
    static long expireAt(final ExpiryMode mode, final long time, final EpochClock clock)
    {
        return mode == ExpiryMode.AFTER ? saturatedAdd(clock.time(), time) : time;
    }

    /**
     * {@code a + b}, or the nearest {@code long} when the sum overflows.
     */
    static long saturatedAdd(final long a, final long b)
    {
        final long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0)
        {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }
}
