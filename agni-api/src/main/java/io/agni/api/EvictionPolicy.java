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
    VOLATILE;

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
     * Whether the policy evicts only entries that have an expiry time.
     *
     * @return {@code true} for {@link #VOLATILE}.
     */
    public boolean volatileOnly()
    {
        return this == VOLATILE;
    }
}
