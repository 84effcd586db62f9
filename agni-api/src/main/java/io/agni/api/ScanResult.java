package io.agni.api;

import java.util.List;
import java.util.Objects;

/**
 * One step of a cursor scan: the keys found and the cursor to continue from.
 *
 * @param cursor the cursor for the next call, {@code 0} when the scan is complete.
 * @param keys   the keys found in this step, never {@code null}, possibly empty even when the scan is not complete.
 *               The list and its arrays belong to the caller.
 */
public record ScanResult(long cursor, List<byte[]> keys)
{
    /**
     * Validates the components.
     *
     * @param cursor the cursor for the next call.
     * @param keys   the keys found.
     * @throws NullPointerException if {@code keys} is {@code null}.
     */
    public ScanResult
    {
        Objects.requireNonNull(keys, "keys");
    }

    /**
     * Whether this step ended the scan.
     *
     * @return {@code true} when {@link #cursor()} is {@code 0}.
     */
    public boolean isComplete()
    {
        return cursor == 0;
    }
}
