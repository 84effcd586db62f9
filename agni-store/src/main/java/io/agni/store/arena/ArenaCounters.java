package io.agni.store.arena;

import io.agni.store.memory.LinePadding;

/**
 * The fields of an {@link Arena} that its writers store to, on cache lines apart from the segment table that every
 * read loads ({@link LinePadding}). Touched only under the owning shard's write lock.
 */
abstract class ArenaCounters extends LinePadding
{
    /**
     * One past the highest segment id handed out; ids below it are in use or in the free list.
     */
    int nextId = 1;
    /**
     * Where entries are appended (of the small queue, in a store that evicts).
     */
    Segment head;
    /**
     * Where entries of the main queue are appended, in a store that evicts (docs/eviction.md); {@code null} when
     * there is none yet, and always in a store that does not evict.
     */
    Segment mainHead;
    /**
     * An empty regular segment kept for the next head, or {@code null}.
     */
    Segment spare;
    /**
     * The segment copying compaction evacuates in steps, or {@code null} ({@link Arena#startEvacuation}).
     */
    Segment evacuating;
    /**
     * The size of the next regular segment.
     */
    int nextRegularBytes = Arena.FIRST_SEGMENT_BYTES;
    /**
     * Off-heap bytes held by the arena's segments.
     */
    long heldBytes;
    /**
     * Bytes held by regular segments in use (not the spare).
     */
    long regularBytes;
    /**
     * Bytes of live entries in regular segments.
     */
    long regularLive;
    /**
     * Bytes of live entries.
     */
    long liveBytes;
    /**
     * The count {@link Segment#age} is taken from.
     */
    long ages;
}
