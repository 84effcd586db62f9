package io.agni.store.index;

/**
 * The layout of one index slot: a 64-bit word that is either {@link #EMPTY} or points at an entry.
 *
 * <pre>
 *   63                        38 37                 18 17                0
 *  +----------------------------+---------------------+------------------+
 *  |    hash tag (26 bits)      | segment id (20 bits) | offset (18 bits) |
 *  +----------------------------+---------------------+------------------+
 * </pre>
 *
 * The hash tag is the low 26 bits of the key's hash. Its low bits are the key's home slot for any table of up to
 * 2^26 slots, so the table can grow and delete by backward shift without reading a single entry, and all 26 bits
 * act as a fingerprint that rejects most non-matching slots without touching the entry. Segment ids start at 1,
 * so an occupied slot is never zero. Offsets address regular segments (at most {@code 2^18} bytes); a large entry
 * has a segment of its own and offset 0.
 */
public final class IndexLayout
{
    /**
     * An empty slot.
     */
    public static final long EMPTY = 0L;

    /**
     * Bytes per slot.
     */
    public static final int SLOT_BYTES = Long.BYTES;

    /**
     * Bits of the hash kept in a slot.
     */
    public static final int TAG_BITS = 26;

    /**
     * Bits of the segment id.
     */
    public static final int SEGMENT_BITS = 20;

    /**
     * Bits of the offset within a segment.
     */
    public static final int OFFSET_BITS = 18;

    /**
     * The largest table a shard may have, in slots: home slots come from the tag alone.
     */
    public static final int MAX_SLOTS = 1 << TAG_BITS;

    /**
     * The largest segment id.
     */
    public static final int MAX_SEGMENT_ID = (1 << SEGMENT_BITS) - 1;

    /**
     * The largest offset a regular segment may use, plus one.
     */
    public static final int MAX_OFFSET = 1 << OFFSET_BITS;

    private static final long TAG_MASK = (1L << TAG_BITS) - 1;
    private static final long SEGMENT_MASK = (1L << SEGMENT_BITS) - 1;
    private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;
    private static final int TAG_SHIFT = SEGMENT_BITS + OFFSET_BITS;

    private IndexLayout()
    {
    }

    /**
     * The tag of a hash.
     *
     * @param hash the key's hash.
     * @return its low {@link #TAG_BITS} bits.
     */
    public static int tag(final long hash)
    {
        return (int)(hash & TAG_MASK);
    }

    /**
     * Packs a slot.
     *
     * @param tag       the key's tag.
     * @param segmentId the entry's segment, from 1.
     * @param offset    the entry's offset in it.
     * @return the slot word.
     */
    public static long slot(final int tag, final int segmentId, final int offset)
    {
        return ((long)tag << TAG_SHIFT) | ((long)segmentId << OFFSET_BITS) | offset;
    }

    /**
     * The same slot pointing somewhere else.
     *
     * @param slot      a slot word.
     * @param segmentId the new segment.
     * @param offset    the new offset.
     * @return the slot word with the same tag.
     */
    public static long relocate(final long slot, final int segmentId, final int offset)
    {
        return slot(tagOf(slot), segmentId, offset);
    }

    /**
     * The tag in a slot.
     *
     * @param slot a slot word.
     * @return the tag.
     */
    public static int tagOf(final long slot)
    {
        return (int)(slot >>> TAG_SHIFT);
    }

    /**
     * The segment id in a slot.
     *
     * @param slot a slot word.
     * @return the id.
     */
    public static int segmentOf(final long slot)
    {
        return (int)((slot >>> OFFSET_BITS) & SEGMENT_MASK);
    }

    /**
     * The offset in a slot.
     *
     * @param slot a slot word.
     * @return the offset.
     */
    public static int offsetOf(final long slot)
    {
        return (int)(slot & OFFSET_MASK);
    }

    /**
     * The byte offset of slot {@code index} in a table.
     *
     * @param index the slot index.
     * @return the byte offset.
     */
    public static int slotOffset(final int index)
    {
        return index * SLOT_BYTES;
    }
}
