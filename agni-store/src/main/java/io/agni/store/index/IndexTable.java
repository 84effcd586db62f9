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
     * One byte per slot holding its entry's read frequency, S3-FIFO's 2-bit {@code f} (0 to {@link #MAX_FREQUENCY}):
     * a read that finds the slot's entry adds one, eviction takes one off or clears it when it passes the entry
     * (docs/eviction.md); {@code null} in a store that does not evict. It travels with its slot word when the slot
     * moves. Readers write it with a plain store, and only when it changes, so an entry read often costs no store at
     * all; a count a racing writer moves or loses is a hint lost, never a wrong value.
     */
    public final UnsafeBuffer marks;

    /**
     * The words of the shard's eviction ghost ({@code io.agni.store.evict.Ghost}), or {@code null} in a store that
     * does not evict: sized with the table (half a word per slot), so allocated, counted and retired with it. Only
     * the shard's writer uses them.
     */
    public final UnsafeBuffer ghost;

    /**
     * The largest read frequency a slot counts to (S3-FIFO's 2 bits).
     */
    public static final int MAX_FREQUENCY = 3;

    /**
     * A table over memory holding {@code capacity} slots, without marks.
     *
     * @param slots    zeroed memory of {@code capacity * 8} bytes.
     * @param capacity a power of two.
     */
    public IndexTable(final UnsafeBuffer slots, final int capacity)
    {
        this(slots, capacity, null, null);
    }

    /**
     * A table over memory holding {@code capacity} slots and, for a store that evicts, their marks and the ghost's
     * words.
     *
     * @param slots    zeroed memory of {@code capacity * 8} bytes.
     * @param capacity a power of two.
     * @param marks    zeroed memory of {@code capacity} bytes, or {@code null}.
     * @param ghost    zeroed memory of {@link #ghostBytes(int) ghostBytes(capacity)}, or {@code null}.
     * @throws IllegalArgumentException if {@code capacity} is not a power of two or the slots' memory is shorter than
     *                                  it: a read at a masked index ({@code FastRead}) is not checked again.
     */
    public IndexTable(final UnsafeBuffer slots, final int capacity, final UnsafeBuffer marks, final UnsafeBuffer ghost)
    {
        if (Integer.bitCount(capacity) != 1 || slots.capacity() < (long)capacity * Long.BYTES)
        {
            throw new IllegalArgumentException(
                "slots too short or capacity not a power of two: capacity=" + capacity + ", bytes=" + slots.capacity());
        }
        this.slots = slots;
        this.ghost = ghost;
        this.mask = capacity - 1;
        this.marks = marks;
    }

    /**
     * Bytes of the ghost's words for a table of {@code capacity} slots: half an 8-byte word per slot.
     *
     * @param capacity the table's slots.
     * @return bytes.
     */
    public static int ghostBytes(final int capacity)
    {
        return Math.max(16, capacity / 2) * Long.BYTES;
    }

    /**
     * Records that a read found the entry of slot {@code index}: adds one to its frequency if the table has marks
     * and the frequency is below {@link #MAX_FREQUENCY}. Safe under an optimistic stamp (the table's memory stays
     * allocated while a reader may hold it).
     *
     * @param index a slot index of this table.
     */
    public void markRead(final int index)
    {
        final UnsafeBuffer m = marks;
        if (m != null)
        {
            final byte f = m.getByte(index);
            if (f < MAX_FREQUENCY)
            {
                m.putByte(index, (byte)(f + 1));
            }
        }
    }

    /**
     * A slot's read frequency; the caller holds the write lock.
     *
     * @param index the slot index.
     * @return 0 to {@link #MAX_FREQUENCY}; 0 also for a table without marks.
     */
    public int frequency(final int index)
    {
        // a racing reader only ever stores 1 to MAX_FREQUENCY, so the byte is in range
        return marks == null ? 0 : Math.min(MAX_FREQUENCY, Math.max(0, marks.getByte(index)));
    }

    /**
     * Sets a slot's read frequency; the caller holds the write lock.
     *
     * @param index     the slot index.
     * @param frequency 0 to {@link #MAX_FREQUENCY}.
     */
    public void frequency(final int index, final int frequency)
    {
        if (marks != null)
        {
            marks.putByte(index, (byte)frequency);
        }
    }

    /**
     * Clears a slot's mark; the caller holds the write lock.
     *
     * @param index the slot index.
     */
    public void clearMark(final int index)
    {
        if (marks != null)
        {
            marks.putByte(index, (byte)0);
        }
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
                if (marks != null)
                {
                    marks.putByte(hole, marks.getByte(next));
                }
                hole = next;
            }
            next = (next + 1) & mask;
        }
        put(hole, IndexLayout.EMPTY);
        clearMark(hole);
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
        // a reader that raced the slot's last removal may have marked it: a new key starts unread
        clearMark(i);
        return i;
    }
}
