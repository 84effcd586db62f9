package io.agni.store.evict;

/**
 * S3-FIFO's ghost queue for one shard: the index tags of the keys eviction last took from the small queue, no data
 * (docs/eviction.md). A key written again while its tag is remembered joins the main queue at once.
 *
 * <h2>Layout</h2>
 * A table of {@code long} words on the heap, grouped in buckets of {@link #BUCKET} words; a word holds a tag in its
 * high half and the number of its insertion in its low half, 0 when empty. A tag goes to the bucket its low bits
 * name, into an empty word, the word of the same tag, or the word of the oldest insertion. A tag is a member while
 * fewer than {@link #capacity()} insertions happened after its own, so the table remembers about the last
 * {@code capacity} tags added, less the ones a full bucket pushed out early; no ring of insertions is needed. The
 * capacity follows the shard's entry count ({@link #resize}, 0.9 x as S3-FIFO sizes it), and the table has at least
 * as many words, a power of two: 8 to 16 bytes per remembered tag.
 *
 * <h2>Precision</h2>
 * A tag is {@code IndexLayout.TAG_BITS} bits of the key's seeded hash, of which the bucket takes the low ones, so two
 * keys can share a word's identity: such a false hit puts an entry in main a round early, never loses one.
 *
 * <h2>Concurrency</h2>
 * Used under the owning shard's write lock only.
 */
public final class Ghost
{
    /**
     * Words per bucket.
     */
    public static final int BUCKET = 4;

    private static final int MIN_WORDS = 16;

    private long[] words = new long[MIN_WORDS];
    private int capacity = MIN_WORDS * 9 / 10;
    private int inserted;

    /**
     * An empty ghost for a small shard.
     */
    public Ghost()
    {
    }

    /**
     * How many of the last insertions count as remembered.
     *
     * @return the capacity.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Words in the table, for memory accounting and tests.
     *
     * @return the table's length.
     */
    public int words()
    {
        return words.length;
    }

    /**
     * Follows the shard's entry count: remembers 0.9 x {@code entries} tags (at least a few), growing the table when
     * that passes its length; the tags remembered stay remembered.
     *
     * @param entries the shard's live entries.
     */
    public void resize(final long entries)
    {
        capacity = (int)Math.max(MIN_WORDS * 9 / 10, Math.min(1 << 30, entries * 9 / 10));
        if (capacity > words.length)
        {
            final long[] old = words;
            words = new long[Integer.highestOneBit(capacity - 1) << 1];
            for (final long w : old)
            {
                if (w != 0 && remembered(w))
                {
                    place((int)(w >>> 32), w);
                }
            }
        }
    }

    /**
     * Remembers a tag as the newest insertion.
     *
     * @param tag an index tag (non-negative, below 2^31).
     */
    public void add(final int tag)
    {
        place(tag, word(tag, inserted++));
    }

    /**
     * Forgets a tag if it is remembered.
     *
     * @param tag an index tag.
     * @return whether it was remembered.
     */
    public boolean remove(final int tag)
    {
        final long[] w = words;
        final int start = bucket(tag, w.length);
        for (int i = start; i < start + BUCKET; i++)
        {
            final long word = w[i];
            if (word != 0 && (int)(word >>> 32) == (tag | 1 << 31) && remembered(word))
            {
                w[i] = 0;
                return true;
            }
        }
        return false;
    }

    /**
     * Forgets everything (the shard was cleared).
     */
    public void clear()
    {
        words = new long[MIN_WORDS];
        capacity = MIN_WORDS * 9 / 10;
        inserted = 0;
    }

    private void place(final int tag, final long word)
    {
        final long[] w = words;
        final int start = bucket(tag, w.length);
        int victim = start;
        int oldestAge = -1;
        for (int i = start; i < start + BUCKET; i++)
        {
            final long old = w[i];
            if (old == 0 || (int)(old >>> 32) == (int)(word >>> 32))
            {
                victim = i;
                break;
            }
            final int age = inserted - (int)old;
            if (age > oldestAge)
            {
                oldestAge = age;
                victim = i;
            }
        }
        w[victim] = word;
    }

    private boolean remembered(final long word)
    {
        // insertion numbers wrap; the difference is right while fewer than 2^31 insertions separate them
        final int age = inserted - (int)word;
        return age > 0 && age <= capacity;
    }

    private static long word(final int tag, final int number)
    {
        // the high bit keeps a word of tag 0, insertion 0, apart from an empty word
        return (long)(tag | 1 << 31) << 32 | (number & 0xFFFF_FFFFL);
    }

    private static int bucket(final int tag, final int length)
    {
        return (tag * BUCKET) & (length - 1);
    }
}
