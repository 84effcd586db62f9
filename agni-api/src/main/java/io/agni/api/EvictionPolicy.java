package io.agni.api;

/**
 * What a store does when a write needs memory its budget cannot give: refuse the write, or evict entries to make
 * room. Chosen when the store is opened; an implementation may let it change while the store runs.
 * <p>
 * An evicted entry is gone as if deleted: it is never returned wrong or in part, and a store with a log records the
 * eviction as a delete. An entry whose expiry time has passed is removed before a live one is evicted from the same
 * part of the store; it is counted as expired, not evicted ({@link StoreStats#expired()},
 * {@link StoreStats#evicted()}).
 */
public enum EvictionPolicy
{
    /**
     * Refuse the write ({@link CapacityExceededException}); nothing is evicted. The default, and what a store of
     * record needs. Redis's {@code noeviction}.
     */
    NO_EVICTION,

    /**
     * Evict any entry, chosen by the store's recency and frequency algorithm: entries read since they were last
     * considered are kept, others go first. Redis's {@code allkeys-lru} and {@code allkeys-lfu} map here.
     */
    ALL_KEYS,

    /**
     * Evict only entries that have an expiry time, chosen as {@link #ALL_KEYS} chooses; when none is left to evict,
     * refuse the write as {@link #NO_EVICTION} does. Redis's {@code volatile-lru} and {@code volatile-lfu} map here.
     */
    VOLATILE,

    /**
     * Evict only entries that have an expiry time, the one whose expiry time is nearest first: of a sample of
     * entries (16), the one that expires soonest goes, as Redis samples; when none is left to evict, refuse the
     * write as {@link #NO_EVICTION} does. Redis's {@code volatile-ttl}.
     */
    VOLATILE_TTL,

    /**
     * Evict any entry, chosen at random. Reads cost nothing extra. Redis's {@code allkeys-random}.
     */
    ALL_KEYS_RANDOM,

    /**
     * Evict only entries that have an expiry time, chosen at random; when none is left to evict, refuse the write as
     * {@link #NO_EVICTION} does. Redis's {@code volatile-random}.
     */
    VOLATILE_RANDOM;

    /**
     * Whether the policy ever evicts.
     *
     * @return {@code false} only for {@link #NO_EVICTION}.
     */
    public boolean evicts()
    {
        return this != NO_EVICTION;
    }

    /**
     * Whether the policy evicts only entries that have an expiry time (and refuses a write when none is left).
     *
     * @return {@code true} for {@link #VOLATILE}, {@link #VOLATILE_TTL} and {@link #VOLATILE_RANDOM}.
     */
    public boolean volatileOnly()
    {
        return this == VOLATILE || this == VOLATILE_TTL || this == VOLATILE_RANDOM;
    }

    /**
     * Whether the policy chooses what to evict from a sample of entries (nearest expiry, or at random) rather than by
     * the store's recency and frequency algorithm. Under a sampled policy reads leave no trace for eviction; under
     * {@link #ALL_KEYS} and {@link #VOLATILE} they do.
     *
     * @return {@code true} for {@link #VOLATILE_TTL}, {@link #ALL_KEYS_RANDOM} and {@link #VOLATILE_RANDOM}.
     */
    public boolean sampled()
    {
        return this == VOLATILE_TTL || this == ALL_KEYS_RANDOM || this == VOLATILE_RANDOM;
    }
}
