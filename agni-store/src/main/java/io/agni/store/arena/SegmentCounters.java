package io.agni.store.arena;

import io.agni.store.memory.LinePadding;

/**
 * The fields of a {@link Segment} that the owning shard's writers store to, kept off the cache lines of the fields
 * optimistic readers load ({@link LinePadding}). Touched only under the owning shard's write lock.
 */
abstract class SegmentCounters extends LinePadding
{
    /**
     * Bytes appended so far.
     */
    int used;
    /**
     * Bytes of live entries.
     */
    int live;
    /**
     * Entries written here but not linked into the index yet (setAll, rename): while any, compaction leaves the
     * segment alone, since it could not find their slots.
     */
    int pins;
    /**
     * When the segment last became the head, or was given a second chance by eviction, on the arena's count: the
     * lowest is the oldest, which eviction looks at first.
     */
    long age;
    /**
     * Live entries here that have an expiry time: where {@code VOLATILE} eviction looks.
     */
    int volatileEntries;
    /**
     * Whether the segment's entries are in the main queue of a store that evicts (docs/eviction.md), not the small.
     */
    boolean main;
}
