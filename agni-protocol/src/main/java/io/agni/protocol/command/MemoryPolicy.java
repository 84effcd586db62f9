package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.Evicting;
import io.agni.api.StoreStats;

/**
 * The one place that says what the store does when its memory budget is reached, for {@code CONFIG GET
 * maxmemory-policy} and {@code INFO}'s {@code maxmemory_policy} and {@code evicted_keys}. A store that is not
 * {@link Evicting} refuses the write at its budget ({@code noeviction}); one that is reports its policy under the
 * Redis name it stands for ({@code ALL_KEYS} as {@code allkeys-lru}, {@code VOLATILE} as {@code volatile-lru}:
 * agni has one algorithm for Redis's lru and lfu names, docs/eviction.md).
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
        if (!(store instanceof Evicting evicting))
        {
            return NOEVICTION;
        }
        return switch (evicting.evictionPolicy())
        {
            case NO_EVICTION -> NOEVICTION;
            case ALL_KEYS -> "allkeys-lru";
            case VOLATILE -> "volatile-lru";
            case VOLATILE_TTL -> "volatile-ttl";
            case ALL_KEYS_RANDOM -> "allkeys-random";
            case VOLATILE_RANDOM -> "volatile-random";
        };
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
