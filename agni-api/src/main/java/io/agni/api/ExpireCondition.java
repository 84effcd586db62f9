package io.agni.api;

/**
 * When an expire call changes a key's expiry time: the options of Redis's {@code EXPIRE}.
 * A key without an expiry time counts as expiring at infinity for {@link #IF_LATER} and {@link #IF_EARLIER},
 * as in Redis. Redis's {@code XX GT} is {@link #IF_LATER}, which already needs an expiry time; {@code XX LT} is
 * {@link #IF_HAS_EXPIRY_AND_EARLIER}.
 */
public enum ExpireCondition
{
    /**
     * Always set the new expiry time.
     */
    ALWAYS,

    /**
     * Only if the key has no expiry time: Redis's {@code NX}.
     */
    IF_NO_EXPIRY,

    /**
     * Only if the key has an expiry time: Redis's {@code XX}.
     */
    IF_HAS_EXPIRY,

    /**
     * Only if the new time is later than the current one: Redis's {@code GT} (never true for a key without one).
     */
    IF_LATER,

    /**
     * Only if the new time is earlier than the current one: Redis's {@code LT} (always true for a key without one).
     */
    IF_EARLIER,

    /**
     * Only if the key has an expiry time and the new time is earlier than it: Redis's {@code XX LT} (never true
     * for a key without one).
     */
    IF_HAS_EXPIRY_AND_EARLIER
}
