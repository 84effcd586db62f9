package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.StoreStats;

/**
 * The one place that says what the store does when its memory budget is reached, for {@code CONFIG GET
 * maxmemory-policy} and {@code INFO}'s {@code maxmemory_policy} and {@code evicted_keys}. The store has no eviction
 * policy yet: it refuses the write ({@code noeviction}); when it gains one, this class reads it.
 */
final class MemoryPolicy
{
    /**
     * Redis's name of the policy that refuses writes at the budget.
     */
    static final String NOEVICTION = "noeviction";

    private MemoryPolicy()
    {
    }

    /**
     * Returns Redis's name of the store's policy at its budget.
     *
     * @param store the store.
     * @return Redis's name of the policy ({@code maxmemory-policy}).
     */
    static String name(final AgniStore store)
    {
        return NOEVICTION;
    }

    /**
     * Returns the entries the store evicted to make room, as its statistics count them.
     *
     * @param stats the store's statistics.
     * @return the entries evicted ({@code evicted_keys}).
     */
    static long evictedKeys(final StoreStats stats)
    {
        return stats.evicted();
    }
}
