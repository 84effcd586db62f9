package io.agni.api;

/**
 * A store that can evict entries at its memory budget, and whose {@link EvictionPolicy} can be read and changed
 * while it runs. An optional capability beside {@link AgniStore}, as {@link Checkpointing} and
 * {@link Transactional} are: a server reports the policy a store of this kind has (Redis's
 * {@code maxmemory-policy}).
 */
public interface Evicting
{
    /**
     * What a write does when the budget cannot hold it.
     *
     * @return the policy.
     */
    EvictionPolicy evictionPolicy();

    /**
     * Changes what a write does when the budget cannot hold it, for every write that starts after this returns.
     *
     * @param policy the policy.
     */
    void evictionPolicy(EvictionPolicy policy);
}
