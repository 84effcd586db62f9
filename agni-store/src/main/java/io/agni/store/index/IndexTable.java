package io.agni.store.index;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * One open-addressing table of {@link IndexLayout} slots with linear probing. Immutable in shape: growing makes a
 * new table, so a reader that loaded a table sees a buffer and mask that belong together.
 *
 * <h2>Concurrency</h2>
 * Slots are written only under the owning shard's write lock; optimistic readers read them with plain loads and
 * validate their stamp afterwards (docs/architecture.md, "Reads").
 */
public final class IndexTable
{
    /**
     * The table's memory.
     */
    public final UnsafeBuffer slots;

    /**
     * Slots minus one; the table has a power-of-two number of slots.
     */
    public final int mask;

    /**
     * A table over memory holding {@code capacity} slots.
     *
     * @param slots    zeroed memory of {@code capacity * 8} bytes.
     * @param capacity a power of two.
     */
    public IndexTable(final UnsafeBuffer slots, final int capacity)
    {
        this.slots = slots;
        this.mask = capacity - 1;
    }

    /**
     * The number of slots.
     *
     * @return mask + 1.
     */
    public int capacity()
    {
        return mask + 1;
    }

    /**
     * Reads a slot.
     *
     * @param index the slot index, within the table.
     * @return the slot word.
     */
    public long get(final int index)
    {
        return slots.getLong(IndexLayout.slotOffset(index));
    }

    /**
     * Writes a slot.
     *
     * @param index the slot index.
     * @param slot  the slot word.
     */
    public void put(final int index, final long slot)
    {
        slots.putLong(IndexLayout.slotOffset(index), slot);
    }

    /**
     * The home slot of a tag in this table.
     *
     * @param tag a tag.
     * @return its home index.
     */
    public int home(final int tag)
    {
        return tag & mask;
    }

    /**
     * Removes slot {@code index} by backward shift: each following slot in the cluster moves back if that brings it
     * no further from its home, so that no probe sequence ever crosses an empty slot.
     *
     * @param index the slot to clear.
     */
    public void removeAt(final int index)
    {
        int hole = index;
        int next = (index + 1) & mask;
        while (true)
        {
            final long slot = get(next);
            if (slot == IndexLayout.EMPTY)
            {
                break;
            }
            final int home = home(IndexLayout.tagOf(slot));
            if (((next - home) & mask) >= ((next - hole) & mask))
            {
                put(hole, slot);
                hole = next;
            }
            next = (next + 1) & mask;
        }
        put(hole, IndexLayout.EMPTY);
    }

    /**
     * Inserts a slot word whose key is known to be absent, at the first empty slot from its home.
     *
     * @param slot the slot word.
     * @return the index it went to.
     */
    public int insertNew(final long slot)
    {
        int i = home(IndexLayout.tagOf(slot));
        while (get(i) != IndexLayout.EMPTY)
        {
            i = (i + 1) & mask;
        }
        put(i, slot);
        return i;
    }
}
