package io.agni.store.arena;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * One block of entry memory. A regular segment holds entries appended one after another; a dedicated segment holds
 * one large entry at offset 0.
 *
 * <h2>Concurrency</h2>
 * {@link #used} and {@link #live} are touched only under the owning shard's write lock; optimistic readers read only
 * {@link #buffer} and {@link #id}, which never change. Those are this class's own fields, and the counters writers
 * store to are its superclasses', with padding between ({@link io.agni.store.memory.LinePadding}): a write into the
 * segment does not take from another CPU the cache line its next read of the segment loads.
 */
public final class Segment extends SegmentCountersPadding
{
    /**
     * The segment's id in its arena, from 1.
     */
    public final int id;
    /**
     * The segment's memory.
     */
    public final UnsafeBuffer buffer;
    /**
     * Whether this segment holds one large entry.
     */
    public final boolean dedicated;
    Segment(final int id, final UnsafeBuffer buffer, final boolean dedicated)
    {
        this.id = id;
        this.buffer = buffer;
        this.dedicated = dedicated;
    }

    /**
     * The segment's size.
     *
     * @return its capacity in bytes.
     */
    public int capacity()
    {
        return buffer.capacity();
    }

    /**
     * Bytes appended so far.
     *
     * @return the used bytes.
     */
    public int used()
    {
        return used;
    }

    /**
     * Live entries here that have an expiry time.
     *
     * @return the count.
     */
    public int volatileEntries()
    {
        return volatileEntries;
    }

    /**
     * Bytes of live entries.
     *
     * @return the live bytes.
     */
    public int live()
    {
        return live;
    }

    /**
     * Whether the segment's entries are in the main queue of a store that evicts.
     *
     * @return {@code false} for the small queue, and in a store that does not evict.
     */
    public boolean inMain()
    {
        return main;
    }

    /**
     * Entries written here but not linked yet, for integrity checks: 0 whenever no operation holds the shard's lock.
     *
     * @return the pins.
     */
    public int pins()
    {
        return pins;
    }
}
