package io.agni.store.evict;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * S3-FIFO's ghost queue for one shard: the index tags of the keys eviction last took from the small queue, no data
 * (docs/eviction.md). A key written again while its tag is remembered joins the main queue at once.
 *
 * <h2>Layout</h2>
 * A table of 8-byte words, grouped in buckets of {@link #BUCKET} words; a word holds a tag, with its high bit set, in
 * its high half and the number of its insertion in its low half, 0 when empty. A tag goes to the bucket its low bits
 * name, into an empty word, the word of the same tag, or the word of the oldest insertion. A tag is a member while
 * fewer than {@link #capacity()} insertions happened after its own, so the table remembers about the last
 * {@code capacity} tags added, less the ones a full bucket pushed out early; no ring of insertions is needed. The
 * capacity follows the shard's entry count ({@link #resize}, 0.9 x as S3-FIFO sizes it) up to the table's words.
 * The words are the index table's ({@code IndexTable.ghost}, half a word per slot, so 0.67 to 1.33 words per entry
 * at the index's load): allocated from the budget, counted and retired with the table; when the table grows, the
 * ghost moves to the new table's words ({@link #attach}).
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

    private UnsafeBuffer words;
    private int mask;
    private int capacity;
    private int inserted;

    /**
     * A ghost without words, which remembers nothing until it is given some ({@link #forget}, {@link #attach}).
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
     * Forgets every tag and goes on in {@code zeroed} (the shard was cleared, or starts or stops evicting).
     *
     * @param zeroed zeroed words (a multiple of {@link #BUCKET} words, a power of two), or {@code null} for none.
     */
    public void forget(final UnsafeBuffer zeroed)
    {
        words = zeroed;
        mask = zeroed == null ? 0 : zeroed.capacity() / Long.BYTES - 1;
        capacity = Math.min(capacity, mask + 1);
        inserted = 0;
    }

    /**
     * Moves to {@code zeroed} (the index table grew), keeping every tag remembered.
     *
     * @param zeroed zeroed words (a multiple of {@link #BUCKET} words, a power of two), or {@code null} for none.
     */
    public void attach(final UnsafeBuffer zeroed)
    {
        final UnsafeBuffer old = words;
        words = zeroed;
        mask = zeroed == null ? 0 : zeroed.capacity() / Long.BYTES - 1;
        if (old != null && zeroed != null)
        {
            for (int i = 0; i < old.capacity(); i += Long.BYTES)
            {
                final long w = old.getLong(i);
                if (w != 0 && remembered(w))
                {
                    place((int)(w >>> 32), w);
                }
            }
        }
        capacity = Math.min(capacity, mask + 1);
    }

    /**
     * Follows the shard's entry count: remembers the last 0.9 x {@code entries} tags, or as many as the words hold.
     *
     * @param entries the shard's live entries.
     */
    public void resize(final long entries)
    {
        capacity = (int)Math.min(mask + 1, entries * 9 / 10);
    }

    /**
     * Remembers a tag as the newest insertion.
     *
     * @param tag an index tag (non-negative, below 2^31).
     */
    public void add(final int tag)
    {
        if (words != null)
        {
            place(tag, word(tag, inserted++));
        }
    }

    /**
     * Forgets a tag if it is remembered.
     *
     * @param tag an index tag.
     * @return whether it was remembered.
     */
    public boolean remove(final int tag)
    {
        final UnsafeBuffer w = words;
        if (w == null)
        {
            return false;
        }
        final int start = bucket(tag);
        for (int i = start; i < start + BUCKET; i++)
        {
            final long word = w.getLong(i * Long.BYTES);
            if (word != 0 && (int)(word >>> 32) == (tag | 1 << 31) && remembered(word))
            {
                w.putLong(i * Long.BYTES, 0);
                return true;
            }
        }
        return false;
    }

    private void place(final int tag, final long word)
    {
        final UnsafeBuffer w = words;
        final int start = bucket(tag);
        int victim = start;
        int oldestAge = -1;
        for (int i = start; i < start + BUCKET; i++)
        {
            final long old = w.getLong(i * Long.BYTES);
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
        w.putLong(victim * Long.BYTES, word);
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

    private int bucket(final int tag)
    {
        return (tag * BUCKET) & mask;
    }
}
