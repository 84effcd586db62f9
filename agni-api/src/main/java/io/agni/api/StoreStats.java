package io.agni.api;

import java.util.Objects;

/**
 * A snapshot of a store's counters and memory. Counters are read one by one, not under a global lock, so a
 * snapshot taken while other threads write may mix moments; each value on its own is exact.
 *
 * <h2>Hits and misses</h2>
 * A hit is a read of a key's value (or of its length) that found a live entry, a miss one that found none (the key
 * absent or expired). The calls that count, once per key, in both their {@code byte[]} and zero-copy forms:
 * {@link AgniStore#get get}, {@link AgniStore#getAll getAll} (each key of it), {@link AgniStore#getAndExpire
 * getAndExpire}, {@link AgniStore#getRange getRange} and {@link AgniStore#valueLength valueLength}. No other call
 * counts: not {@code exists}, {@code ttlMillis} or {@code expireTimeMillis}, which look at a key without reading
 * its value, and not the writes, including those that return the value they replaced ({@code getAndSet},
 * {@code getAndDelete}) or the result they computed ({@code incrementBy}, {@code append}, {@code setRange}). This is
 * what agni's in-process store counts; a store on a remote server reports the server's counters instead (Redis's
 * {@code keyspace_hits} and {@code keyspace_misses} are server-wide and count more commands).
 *
 * <h2>Growing</h2>
 * A final class built by {@link #builder()}, not a record, so that fields can be added without breaking callers:
 * a field a producer does not set is {@code 0}. Equal snapshots are {@link #equals equal}.
 */
public final class StoreStats
{
    private final long entries;
    private final long entriesWithExpiry;
    private final long hits;
    private final long misses;
    private final long expired;
    private final long evicted;
    private final long rejectedWrites;
    private final long offHeapBytes;
    private final long liveEntryBytes;
    private final long budgetBytes;

    private StoreStats(final Builder builder)
    {
        this.entries = builder.entries;
        this.entriesWithExpiry = builder.entriesWithExpiry;
        this.hits = builder.hits;
        this.misses = builder.misses;
        this.expired = builder.expired;
        this.evicted = builder.evicted;
        this.rejectedWrites = builder.rejectedWrites;
        this.offHeapBytes = builder.offHeapBytes;
        this.liveEntryBytes = builder.liveEntryBytes;
        this.budgetBytes = builder.budgetBytes;
    }

    /**
     * Starts a snapshot with every field {@code 0}.
     *
     * @return a new builder.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * Entries held, including expired ones not reclaimed yet.
     *
     * @return the number of entries.
     */
    public long entries()
    {
        return entries;
    }

    /**
     * Entries that carry an expiry time.
     *
     * @return the number of entries with an expiry time.
     */
    public long entriesWithExpiry()
    {
        return entriesWithExpiry;
    }

    /**
     * Reads that found a live entry (see "Hits and misses" above for which calls count).
     *
     * @return the number of hits.
     */
    public long hits()
    {
        return hits;
    }

    /**
     * Reads that found no live entry: the key absent or expired (see "Hits and misses" above).
     *
     * @return the number of misses.
     */
    public long misses()
    {
        return misses;
    }

    /**
     * Entries removed because their expiry time passed (on access or by a sweep).
     *
     * @return the number of expired entries removed.
     */
    public long expired()
    {
        return expired;
    }

    /**
     * Entries removed to make room under the memory budget.
     *
     * @return the number of evicted entries.
     */
    public long evicted()
    {
        return evicted;
    }

    /**
     * Writes refused because the memory budget was reached.
     *
     * @return the number of refused writes.
     */
    public long rejectedWrites()
    {
        return rejectedWrites;
    }

    /**
     * Off-heap bytes the store holds now: index tables and entry segments.
     *
     * @return bytes.
     */
    public long offHeapBytes()
    {
        return offHeapBytes;
    }

    /**
     * Bytes of the live entries (headers, keys and values) inside {@link #offHeapBytes()}.
     *
     * @return bytes.
     */
    public long liveEntryBytes()
    {
        return liveEntryBytes;
    }

    /**
     * The memory budget.
     *
     * @return bytes; {@link Long#MAX_VALUE} for no limit.
     */
    public long budgetBytes()
    {
        return budgetBytes;
    }

    /**
     * Live entry bytes over off-heap bytes held: {@code 1.0} is perfect packing.
     *
     * @return the memory utilisation, {@code 0} for a store that holds nothing.
     */
    public double utilisation()
    {
        return offHeapBytes == 0 ? 0.0 : (double)liveEntryBytes / offHeapBytes;
    }

    @Override
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof StoreStats))
        {
            return false;
        }
        final StoreStats that = (StoreStats)o;
        return entries == that.entries && entriesWithExpiry == that.entriesWithExpiry && hits == that.hits &&
            misses == that.misses && expired == that.expired && evicted == that.evicted &&
            rejectedWrites == that.rejectedWrites && offHeapBytes == that.offHeapBytes &&
            liveEntryBytes == that.liveEntryBytes && budgetBytes == that.budgetBytes;
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(entries, entriesWithExpiry, hits, misses, expired, evicted, rejectedWrites, offHeapBytes,
            liveEntryBytes, budgetBytes);
    }

    @Override
    public String toString()
    {
        return "StoreStats{entries=" + entries + ", entriesWithExpiry=" + entriesWithExpiry + ", hits=" + hits +
            ", misses=" + misses + ", expired=" + expired + ", evicted=" + evicted + ", rejectedWrites=" +
            rejectedWrites + ", offHeapBytes=" + offHeapBytes + ", liveEntryBytes=" + liveEntryBytes +
            ", budgetBytes=" + budgetBytes + "}";
    }

    /**
     * Builds a {@link StoreStats}: set the fields the store knows; the others stay {@code 0}. Not thread-safe.
     */
    public static final class Builder
    {
        private long entries;
        private long entriesWithExpiry;
        private long hits;
        private long misses;
        private long expired;
        private long evicted;
        private long rejectedWrites;
        private long offHeapBytes;
        private long liveEntryBytes;
        private long budgetBytes;

        private Builder()
        {
        }

        /**
         * Sets {@link StoreStats#entries()}.
         *
         * @param entries entries held, at least {@code 0}.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder entries(final long entries)
        {
            this.entries = nonNegative("entries", entries);
            return this;
        }

        /**
         * Sets {@link StoreStats#entriesWithExpiry()}.
         *
         * @param entriesWithExpiry entries with an expiry time, at least {@code 0}.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder entriesWithExpiry(final long entriesWithExpiry)
        {
            this.entriesWithExpiry = nonNegative("entriesWithExpiry", entriesWithExpiry);
            return this;
        }

        /**
         * Sets {@link StoreStats#hits()}.
         *
         * @param hits reads that found a live entry, at least {@code 0}.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder hits(final long hits)
        {
            this.hits = nonNegative("hits", hits);
            return this;
        }

        /**
         * Sets {@link StoreStats#misses()}.
         *
         * @param misses reads that found none, at least {@code 0}.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder misses(final long misses)
        {
            this.misses = nonNegative("misses", misses);
            return this;
        }

        /**
         * Sets {@link StoreStats#expired()}.
         *
         * @param expired expired entries removed, at least {@code 0}.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder expired(final long expired)
        {
            this.expired = nonNegative("expired", expired);
            return this;
        }

        /**
         * Sets {@link StoreStats#evicted()}.
         *
         * @param evicted entries evicted, at least {@code 0}.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder evicted(final long evicted)
        {
            this.evicted = nonNegative("evicted", evicted);
            return this;
        }

        /**
         * Sets {@link StoreStats#rejectedWrites()}.
         *
         * @param rejectedWrites writes refused by the budget, at least {@code 0}.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder rejectedWrites(final long rejectedWrites)
        {
            this.rejectedWrites = nonNegative("rejectedWrites", rejectedWrites);
            return this;
        }

        /**
         * Sets {@link StoreStats#offHeapBytes()}.
         *
         * @param offHeapBytes off-heap bytes held, at least {@code 0}.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder offHeapBytes(final long offHeapBytes)
        {
            this.offHeapBytes = nonNegative("offHeapBytes", offHeapBytes);
            return this;
        }

        /**
         * Sets {@link StoreStats#liveEntryBytes()}.
         *
         * @param liveEntryBytes bytes of the live entries, at least {@code 0}.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder liveEntryBytes(final long liveEntryBytes)
        {
            this.liveEntryBytes = nonNegative("liveEntryBytes", liveEntryBytes);
            return this;
        }

        /**
         * Sets {@link StoreStats#budgetBytes()}.
         *
         * @param budgetBytes the memory budget, at least {@code 0}; {@link Long#MAX_VALUE} for no limit.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder budgetBytes(final long budgetBytes)
        {
            this.budgetBytes = nonNegative("budgetBytes", budgetBytes);
            return this;
        }

        /**
         * Builds the snapshot.
         *
         * @return a new, immutable snapshot of the fields set so far.
         */
        public StoreStats build()
        {
            return new StoreStats(this);
        }

        private static long nonNegative(final String name, final long value)
        {
            if (value < 0)
            {
                throw new IllegalArgumentException(name + " must not be negative: " + name + "=" + value);
            }
            return value;
        }
    }
}
