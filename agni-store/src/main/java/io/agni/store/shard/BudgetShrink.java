package io.agni.store.shard;

import io.agni.store.arena.Arena;
import io.agni.store.arena.Segment;
import io.agni.store.memory.OffHeapMemory;

/**
 * Brings one shard's memory down while the store holds more than its budget, which only a budget lowered at run
 * time makes it do (docs/architecture.md, "A budget lowered at run time").
 *
 * <h2>Steps</h2>
 * While the store is over its budget, every write of a value in this shard (one that allocated, one that wrote in
 * place, one the budget refused), every batch and every tick of the expiry sweep ends with one step here instead of
 * the usual compaction step:
 * <ol>
 *     <li>The spare segment, if any, is released: a store over its budget keeps none; at the end of the step, so
 *     is the main queue's head if it holds nothing and the shard has another head.</li>
 *     <li>If the policy evicts and the garbage outside the segment being drained cannot take the step's moves, about
 *     a step's bytes are evicted as the policy chooses ({@link Evictor#evictForBudget}): live entries must go,
 *     beyond the write's own need.</li>
 *     <li>The regular segment with the fewest live bytes is drained ({@link Compactor#drain}): up to a step of its
 *     live entries move to the head's free tail, room for them made by compaction in place or, if the policy evicts,
 *     by eviction as the policy chooses ({@link Evictor#makeRoom}). A segment drained empty is released.</li>
 *     <li>If there was nothing to drain (the shard holds only its head and large entries' segments) or no room could
 *     be made, and the policy evicts, it evicts by the policy again, which frees a large entry's segment at once.</li>
 * </ol>
 * So each step evicts a bounded amount beyond the write's own need (a step's bytes of sampled entries, or a segment
 * cleaned, twice at most, plus what making room for the moves takes), moves at most {@link Compactor#stepBytes}
 * bytes, and gives memory back a segment at a time. Meanwhile the budget refuses every new segment, so a write that
 * needs memory evicts within the shard or, without eviction, is refused. With {@code NO_EVICTION}, steps only
 * compact: the store comes down as far as its garbage allows.
 *
 * <h2>Concurrency</h2>
 * Runs under the shard's write lock. Whether the store is over its budget is a racy read of the shared budget:
 * a stale answer costs one step more or less.
 */
final class BudgetShrink
{
    private final ShardTable shard;
    private final Arena arena;
    private final Compactor compactor;
    private final Evictor evictor;
    private final OffHeapMemory memory;

    BudgetShrink(
        final ShardTable shard, final Arena arena, final Compactor compactor, final Evictor evictor,
        final OffHeapMemory memory)
    {
        this.shard = shard;
        this.arena = arena;
        this.compactor = compactor;
        this.evictor = evictor;
        this.memory = memory;
    }

    /**
     * Whether the store holds more than its budget now.
     *
     * @return {@code true} if steps are due.
     */
    boolean pending()
    {
        return memory.overBudget();
    }

    /**
     * One step, if the store is over its budget.
     *
     * @param writtenBytes the bytes the write put into the arena, which pace the moves ({@link Compactor#stepBytes}).
     */
    void step(final long writtenBytes)
    {
        arena.releaseSpare();
        if (!memory.overBudget())
        {
            return;
        }
        final int bytes = Compactor.stepBytes(writtenBytes);
        final boolean evicts = shard.evictionPolicy.evicts();
        if (evicts && usableGarbage() < bytes)
        {
            // Too little garbage to take the step's moves: live entries must go, beyond the write's own need.
            evictor.evictForBudget(bytes);
        }
        if (!compactor.drain(bytes, evicts) && evicts)
        {
            evictor.evictForBudget(bytes);
        }
        arena.releaseEmptyHeads(false);
    }

    /**
     * Garbage outside the segment being drained: what compaction in place can turn into room for its entries.
     */
    private long usableGarbage()
    {
        final Segment draining = arena.evacuating();
        return arena.garbageBytes() - (draining == null ? 0 : draining.used() - draining.live());
    }
}
