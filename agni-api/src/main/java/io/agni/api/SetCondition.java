package io.agni.api;

/**
 * When a conditional set writes: the {@code NX} / {@code XX} options of Redis's {@code SET}.
 */
public enum SetCondition
{
    /**
     * Write whether or not the key exists.
     */
    ALWAYS,

    /**
     * Write only if the key is absent (or expired): Redis's {@code NX}.
     */
    IF_ABSENT,

    /**
     * Write only if the key is present and not expired: Redis's {@code XX}.
     */
    IF_PRESENT
}
