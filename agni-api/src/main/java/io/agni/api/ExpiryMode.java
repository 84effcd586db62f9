package io.agni.api;

/**
 * What a write does to the expiry time of the entry it writes.
 */
public enum ExpiryMode
{
    /**
     * The entry has no expiry afterwards (a plain {@code SET}, or {@code GETEX PERSIST}).
     */
    CLEAR,

    /**
     * The entry keeps the expiry time it had, if any ({@code SET ... KEEPTTL}, a plain {@code GETEX});
     * a new entry has none.
     */
    KEEP,

    /**
     * The entry expires at the absolute time given with the call, in milliseconds since the epoch
     * ({@code EX}, {@code PX}, {@code EXAT}, {@code PXAT}). A time at or before now makes the entry
     * invisible at once.
     */
    AT
}
