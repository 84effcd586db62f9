package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.Evicting;
import io.agni.api.EvictionPolicy;
import io.agni.api.StoreStats;

import java.util.List;
import java.util.Locale;

/**
 * The one place that maps Redis's {@code maxmemory-policy} names onto agni's {@link EvictionPolicy}, for {@code CONFIG
 * GET} and {@code SET maxmemory-policy}, {@code INFO}'s {@code maxmemory_policy} and {@code evicted_keys}, and the
 * server's configuration. A store without the {@link Evicting} capability refuses the write at its budget ({@code
 * noeviction}). agni has one recency and frequency algorithm, so Redis's lru and lfu names both map to it ({@code
 * allkeys-lru} and {@code allkeys-lfu} to {@code ALL_KEYS}, {@code volatile-lru} and {@code volatile-lfu} to {@code
 * VOLATILE}; docs/eviction.md); the name a client set is remembered by the server ({@link
 * ServerContext#memoryPolicyName}) and reported back while the store's policy is still the one it names.
 */
public final class MemoryPolicy
{
    /**
     * Redis's name of the policy that refuses writes at the budget.
     */
    public static final String NOEVICTION = "noeviction";

    /**
     * Redis's names, in the order Redis 7 lists them when it refuses another.
     */
    public static final List<String> NAMES = List.of(
        "volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl", "allkeys-lru", "allkeys-lfu",
        "allkeys-random", NOEVICTION);

    private MemoryPolicy()
    {
    }

    /**
     * Returns agni's policy for one of Redis's names.
     *
     * @param name a {@code maxmemory-policy} name, in any case.
     * @return the policy, or {@code null} if the name is not one of {@link #NAMES}.
     */
    public static EvictionPolicy policyOf(final String name)
    {
        return switch (name.toLowerCase(Locale.ROOT))
        {
            case NOEVICTION -> EvictionPolicy.NO_EVICTION;
            case "allkeys-lru", "allkeys-lfu" -> EvictionPolicy.ALL_KEYS;
            case "volatile-lru", "volatile-lfu" -> EvictionPolicy.VOLATILE;
            case "volatile-ttl" -> EvictionPolicy.VOLATILE_TTL;
            case "allkeys-random" -> EvictionPolicy.ALL_KEYS_RANDOM;
            case "volatile-random" -> EvictionPolicy.VOLATILE_RANDOM;
            default -> null;
        };
    }

    /**
     * Returns the Redis name that stands for a policy when no name was set for it.
     *
     * @param policy the policy.
     * @return its Redis name; the lru one where lru and lfu map to the same policy.
     */
    public static String defaultName(final EvictionPolicy policy)
    {
        return switch (policy)
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
     * Returns the reason Redis 7 gives for a name that is not a policy.
     *
     * @return the reason, for {@code CONFIG SET}'s error.
     */
    static String unknownNameReason()
    {
        return "argument(s) must be one of the following: " + String.join(", ", NAMES);
    }

    /**
     * Returns Redis's name of the store's policy at its budget: the name last set through the server, if the store's
     * policy is still the one it names, else the policy's {@link #defaultName}.
     *
     * @param store  the store.
     * @param server the server, which remembers the name set.
     * @return Redis's name of the policy ({@code maxmemory-policy}).
     */
    static String name(final AgniStore store, final ServerContext server)
    {
        final Evicting evicting = store.evicting().orElse(null);
        if (evicting == null)
        {
            return NOEVICTION;
        }
        final EvictionPolicy policy = evicting.evictionPolicy();
        final String set = server.memoryPolicyName();
        return set != null && policyOf(set) == policy ? set : defaultName(policy);
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
