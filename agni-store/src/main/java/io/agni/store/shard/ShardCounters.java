package io.agni.store.shard;

import io.agni.store.log.ChangeRecorder;
import io.agni.store.memory.LinePadding;

/**
 * The fields of a {@link Shard} that its writers store to, on cache lines apart from the references every read
 * loads first ({@link ShardTable#table}, the arena, the lock), so that a write on one CPU does not take those lines
 * from the others ({@link LinePadding}; docs/experiments/in-process-store.md measured what one store per write cost).
 * Touched under the shard's write lock; statistics read the counts racily.
 */
abstract class ShardCounters extends LinePadding
{
    /**
     * Keys in the index, expired ones not yet removed included.
     */
    int count;
    /**
     * Keys with an expiry time.
     */
    int expiring;
    /**
     * Entries removed because their time had passed.
     */
    long expired;
    /**
     * Writes refused for want of memory.
     */
    long rejected;
    /**
     * Where the next sweep of expired entries starts.
     */
    int sweepCursor;
    /**
     * Entries evicted.
     */
    long evicted;
    /**
     * Slots removed since the shard was made: a write that held a slot index across an allocation, which may evict
     * (and so shift slots back), finds its slot again when this moved.
     */
    long removals;
    /**
     * Where the thread holding the write lock logs its changes; {@code null} when the store keeps no log or the
     * holder's changes need none. Set when the lock is taken, only when the new holder's differs: a store keeping
     * no log never stores to it.
     */
    ChangeRecorder changes;
    /**
     * Whether the store is being rebuilt from its directory: eviction then takes no entry for expired, since a later
     * record may extend its time ({@link Evictor}, {@link SampledEviction}).
     */
    boolean recovering;
    /**
     * Set while {@link ShardStorage#rewrite} runs, so the change is logged as an expiry time rather than a whole
     * value.
     */
    boolean expiryOnly;
}
