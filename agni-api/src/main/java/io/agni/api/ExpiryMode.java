package io.agni.api;

/**
 * What a write does to the expiry time of the entry it writes. Every method that takes an {@code ExpiryMode} also
 * takes a {@code long} time, whose meaning depends on the mode: an absolute time for {@link #AT}, a duration for
 * {@link #AFTER}, and nothing for {@link #CLEAR} and {@link #KEEP}, which must be given {@code 0}
 * ({@link #checkTime(long)}): a time that would be ignored is refused rather than dropped silently.
 */
public enum ExpiryMode
{
    /**
     * The entry has no expiry afterwards (a plain {@code SET}, or {@code GETEX PERSIST}). The time must be
     * {@code 0}.
     */
    CLEAR,

    /**
     * The entry keeps the expiry time it had, if any ({@code SET ... KEEPTTL}, a plain {@code GETEX});
     * a new entry has none. The time must be {@code 0}.
     */
    KEEP,

    /**
     * The entry expires at the absolute time given with the call, in milliseconds since the epoch on the store's
     * clock ({@code EXAT}, {@code PXAT}). A time at or before now makes the entry invisible at once.
     */
    AT,

    /**
     * The entry expires after the duration given with the call, in milliseconds, counted from the store's clock at
     * the moment the store performs the write ({@code EX}, {@code PX}): the caller needs no clock of its own, and a
     * remote store adds the duration to its server's clock, not the caller's. The expiry time is the clock's now
     * plus the duration, saturated to {@link Long#MAX_VALUE} (or {@link Long#MIN_VALUE}) instead of overflowing; a
     * duration of {@code 0} or less makes the entry invisible at once, as a past time does with {@link #AT}.
     */
    AFTER;

    /**
     * Whether this mode reads the time given with it: {@code true} for {@link #AT} and {@link #AFTER}.
     *
     * @return {@code true} if the time argument means something with this mode.
     */
    public boolean takesTime()
    {
        return this == AT || this == AFTER;
    }

    /**
     * Checks the time given with this mode: any time goes with {@link #AT} and {@link #AFTER}; {@link #CLEAR} and
     * {@link #KEEP} ignore it, so anything but {@code 0} is a caller's mistake. Stores call it before they do
     * anything else.
     *
     * @param time the time or duration given with this mode.
     * @throws IllegalArgumentException if this mode ignores the time and it is not {@code 0}, with the message
     *                                  {@code expiry time given with a mode that ignores it: mode=KEEP, time=5}.
     */
    public void checkTime(final long time)
    {
        if (time != 0 && !takesTime())
        {
            throw new IllegalArgumentException(
                "expiry time given with a mode that ignores it: mode=" + this + ", time=" + time);
        }
    }
}
