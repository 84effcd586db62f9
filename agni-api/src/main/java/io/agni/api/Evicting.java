package io.agni.api;

/**
 * A store that can evict entries at its memory budget, and whose {@link EvictionPolicy} and budget can be read and
 * changed while it runs. An optional capability beside {@link AgniStore}, as {@link Checkpointing} and
 * {@link Transactional} are, found with {@link AgniStore#evicting()}: a server reports and changes the policy and the
 * budget of a store that has it (Redis's {@code maxmemory-policy} and {@code maxmemory}).
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

    /**
     * The memory budget: the most off-heap bytes the store may hold ({@link StoreStats#budgetBytes()}).
     *
     * @return the budget in bytes.
     */
    long maxMemory();

    /**
     * Changes the memory budget while the store runs. Raising it takes effect at once. Lowering it below what the
     * store holds refuses new memory until the store is back within it; with a policy that evicts, each write that
     * needs memory meanwhile evicts, by the policy, a bounded amount beyond its own need, until the store holds no
     * more than the new budget. With {@link EvictionPolicy#NO_EVICTION} a write that needs memory is refused
     * ({@link CapacityExceededException}) until deletes bring the store within it. Any thread.
     *
     * @param bytes the new budget in bytes.
     * @throws IllegalArgumentException if the store cannot have such a budget (below its minimum, or above what the
     *                                  JVM lets it allocate); the message says which, and nothing changed.
     * @throws StoreClosedException     if the store is closed.
     */
    void maxMemory(long bytes);
}
