package io.agni.store;

/**
 * The distinct shards of a multi-key operation in ascending order, the order their locks are taken in
 * (docs/architecture.md, "Multi-key set").
 * <p>
 * Found without sorting the keys' shard indexes: a batch of a thousand keys over eight shards sorted a thousand ints
 * to find eight, and in a short-lived JVM that sort was one more large method for the JIT to compile while the batch
 * waited. The shards are marked in a table of one flag per shard; a few are then sorted by insertion, and many are
 * read back from the table in order, so the cost is linear in the keys and the shards.
 *
 * <h2>Memory</h2>
 * One instance per thread and store, inside the operation's reusable state; its table is allocated on first use and
 * kept. Every flag is cleared again before {@link #sort} returns.
 */
final class ShardOrder
{
    /**
     * The most distinct shards sorted by insertion; above it the table is read back in order.
     */
    static final int INSERTION_SORT_MAX = 16;

    private boolean[] marked = new boolean[0];

    /**
     * Writes the distinct values of {@code shardOf[0..count)} into {@code order}, ascending.
     *
     * @param shardOf the shard index of each key, each below {@code shards}.
     * @param count   how many keys.
     * @param shards  the store's shard count.
     * @param order   receives the distinct shards; at least {@code min(count, shards)} long, and may be
     *                {@code shardOf} itself (each index is read before it is written).
     * @return how many distinct shards.
     */
    int sort(final int[] shardOf, final int count, final int shards, final int[] order)
    {
        if (marked.length < shards)
        {
            marked = new boolean[shards];
        }
        final boolean[] m = marked;
        int n = 0;
        for (int i = 0; i < count; i++)
        {
            final int s = shardOf[i];
            if (!m[s])
            {
                m[s] = true;
                order[n++] = s;
            }
        }
        if (n > INSERTION_SORT_MAX)
        {
            int k = 0;
            for (int s = 0; k < n; s++)
            {
                if (m[s])
                {
                    m[s] = false;
                    order[k++] = s;
                }
            }
            return n;
        }
        for (int i = 0; i < n; i++)
        {
            final int s = order[i];
            m[s] = false;
            int j = i - 1;
            while (j >= 0 && order[j] > s)
            {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = s;
        }
        return n;
    }
}
