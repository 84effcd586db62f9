package io.agni.store.shard;

import io.agni.api.EvictionPolicy;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.Segment;
import io.agni.store.hash.KeyHash;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;

/**
 * Makes room in one shard for the sampled policies, {@link EvictionPolicy#VOLATILE_TTL},
 * {@link EvictionPolicy#ALL_KEYS_RANDOM} and {@link EvictionPolicy#VOLATILE_RANDOM}, by evicting single entries chosen
 * from a sample, as Redis does (docs/architecture.md, "Eviction").
 *
 * <h2>Sampling</h2>
 * An eviction walks the index from a random slot and looks at up to {@link #SAMPLES} entries the policy may evict
 * (those with an expiry time, for the volatile policies), at most {@link #MAX_SLOTS} slots. An entry that has expired
 * is taken at once: expired entries go before live ones among the entries looked at. Otherwise {@code VOLATILE_TTL}
 * takes the sampled entry whose expiry time is nearest, and the random policies the first one found (they look
 * further only while the shard holds entries with an expiry time, for an expired one). While the shard holds entries
 * with an expiry time and the last walk found an expired entry, a walk whose sample holds none looks on, up to
 * {@link #EXPIRED_SEARCH} entries in all, for one before it takes a live one. Linear probing keeps the
 * slots of an index dense enough that the walk finds a sample in a few dozen slots; when it finds none (an index that
 * emptied, or few entries with an expiry time among many without), one segment that holds such entries is walked
 * instead, so an eviction is refused only when no entry in the shard may go.
 *
 * <h2>Room</h2>
 * Evicting an entry makes garbage where it was, not room at the arena's head. So a write evicts until it has freed
 * its own length plus a slack that tops the shard's garbage up to the level at which copying compaction runs (at most
 * {@link #SLACK_BYTES}), then takes room by compaction in place ({@link Compactor#reclaimInPlace}); later writes use
 * the rest of that garbage without evicting. A write evicts at most {@link #MAX_EVICTIONS} entries, each looked up in
 * at most {@code MAX_SLOTS} slots or one segment: bounded work, never a scan of the whole shard.
 * <p>
 * Entries in a pinned segment (a batch's) or in the segment the caller still reads are never taken. Each eviction
 * is a logged delete, counted in {@code evicted} (an expired entry in {@code expired}).
 *
 * <h2>Concurrency</h2>
 * Runs under the shard's write lock; optimistic readers of an entry it removes fail validation.
 */
final class SampledEviction
{
    /**
     * The entries the policy may evict that one eviction compares, at most (Redis's {@code maxmemory-samples} is 5;
     * more samples follow the policy more closely, and cost a few entry reads).
     */
    static final int SAMPLES = 16;

    /**
     * The index slots one eviction walks, at most.
     */
    static final int MAX_SLOTS = 16 * SAMPLES;

    /**
     * The entries a walk looks at, at most, for an expired one once its sample holds none while the shard has entries
     * with an expiry time. A walk takes the first expired entry it meets, so the entries just before it are the ones
     * walks pass over: a run of live entries grows at its end each time a walk starts inside it, and once it is
     * {@link #SAMPLES} long, a walk from inside evicted a live entry while most of the shard had expired (1 run in
     * about 2,000 of SampledEvictionTest.expiredEntriesGoBeforeLiveOnes). Looking this far past the sample first makes
     * such a run four times as long before it can. Only after a walk that found an expired entry: in a shard whose
     * entries with an expiry time are all live (a cache of entries with TTLs, say) a walk looks at its sample only.
     */
    static final int EXPIRED_SEARCH = 4 * SAMPLES;

    /**
     * The entries one write evicts, at most.
     */
    static final int MAX_EVICTIONS = 64;

    /**
     * The bytes one write evicts beyond its own need, at most.
     */
    static final int SLACK_BYTES = 64 * 1024;

    private static final int NONE = -1;

    private final ShardTable shard;
    private final Arena arena;
    private final Compactor compactor;
    private final long seed;
    private final EntryCursor cursor = new EntryCursor();
    /**
     * The state of the xorshift generator that picks where a walk starts.
     */
    private long random;
    /**
     * Whether the last walk of the index took an expired entry: the next one then looks past its sample for another
     * ({@link #EXPIRED_SEARCH}).
     */
    private boolean lastWalkFoundExpired;

    SampledEviction(final ShardTable shard, final Arena arena, final Compactor compactor, final long seed)
    {
        this.shard = shard;
        this.arena = arena;
        this.compactor = compactor;
        this.seed = seed;
        this.random = seed ^ 0x9E3779B97F4A7C15L;
        if (random == 0)
        {
            random = 1;
        }
    }

    /**
     * Evicts until a regular entry of {@code length} bytes fits (when {@code length > 0}) or {@code newKeys} more keys
     * fit the index (otherwise).
     *
     * @param length            the entry's length; 0 when keys are wanted.
     * @param newKeys           the keys the write adds, when {@code length} is 0.
     * @param excludedSegmentId a segment the caller still reads (0 for none): left alone.
     * @return whether it fits now.
     */
    boolean makeRoom(final int length, final int newKeys, final int excludedSegmentId)
    {
        final long wanted = length == 0 ? 0 : length + slack();
        long freed = 0;
        for (int n = 0; n < MAX_EVICTIONS; n++)
        {
            if (roomFor(length, newKeys, freed >= wanted, excludedSegmentId))
            {
                return true;
            }
            final int evicted = evictOne(excludedSegmentId);
            if (evicted < 0)
            {
                break;
            }
            freed += evicted;
        }
        return roomFor(length, newKeys, true, excludedSegmentId);
    }

    /**
     * Evicts sampled entries until {@code bytes} are freed, at most {@link #MAX_EVICTIONS}, without regard to room:
     * for a store over a budget lowered at run time ({@link BudgetShrink}).
     *
     * @param bytes the bytes to free, about.
     * @return whether any entry could be evicted.
     */
    boolean evictBytes(final int bytes)
    {
        long freed = 0;
        for (int n = 0; n < MAX_EVICTIONS && freed < bytes; n++)
        {
            final int evicted = evictOne(0);
            if (evicted < 0)
            {
                break;
            }
            freed += evicted;
        }
        return freed > 0;
    }

    /**
     * The garbage that would bring the shard to the level at which copying compaction runs, at most
     * {@link #SLACK_BYTES}.
     */
    private long slack()
    {
        return Math.min(SLACK_BYTES, Math.max(0, arena.regularBytes() / 8 - arena.garbageBytes()));
    }

    private boolean roomFor(final int length, final int newKeys, final boolean compact, final int excludedSegmentId)
    {
        if (length == 0)
        {
            return shard.keysFit(newKeys);
        }
        // the head's free tail, a new segment (the only room for an entry larger than the segments the shard holds),
        // or, once enough is evicted, garbage slid out of a segment
        return length <= Arena.LARGE_ENTRY_BYTES && arena.hasRoomFor(length) || arena.budgetHolds(length) ||
            length <= Arena.LARGE_ENTRY_BYTES && compact && compactor.reclaimInPlace(length, excludedSegmentId, false);
    }

    /**
     * Evicts one entry the policy chooses from a sample (an expired one before any other).
     *
     * @param excludedSegmentId a segment whose entries are left alone (0 for none).
     * @return the bytes freed, or -1 if no entry may be evicted.
     */
    int evictOne(final int excludedSegmentId)
    {
        final EvictionPolicy policy = shard.evictionPolicy;
        if (shard.count == 0 || policy.volatileOnly() && shard.expiring == 0)
        {
            return -1;
        }
        // in recovery nothing counts as expired: a later record may extend it (ShardTable.recovering)
        final long now = shard.recovering ? Long.MIN_VALUE : shard.clock.time();
        // Over a lowered budget, the segment being drained is left to the drain (what is evicted there is room
        // nobody can use before it is released), unless nothing else may go.
        final Segment draining = shard.shrink.pending() ? arena.evacuating() : null;
        int victim = NONE;
        if (draining != null)
        {
            victim = sample(policy, excludedSegmentId, draining.id, now);
        }
        if (victim == NONE)
        {
            victim = sample(policy, excludedSegmentId, excludedSegmentId, now);
            if (victim == NONE)
            {
                return -1;
            }
        }
        final EntryCursor m = cursor;
        wrapSlot(shard.table(), arena.segments(), victim);
        final int length = m.length;
        final boolean expired = m.isExpired(now);
        // Removing it may recycle or release its segment: read nothing of the entry after this.
        shard.removeAt(victim, m);
        if (expired)
        {
            shard.expired++;
        }
        else
        {
            shard.evicted++;
        }
        return length;
    }

    private int sample(final EvictionPolicy policy, final int excluded, final int alsoExcluded, final long now)
    {
        final int victim = sampleSlots(policy, excluded, alsoExcluded, now);
        return victim != NONE ? victim : sampleSegment(policy, excluded, alsoExcluded, now);
    }

    /**
     * Walks the index from a random slot, skipping entries in two segments (which may be the same, or 0 for none).
     *
     * @return the slot index of the entry to evict, or {@link #NONE} if the walk found none the policy may evict.
     */
    private int sampleSlots(
        final EvictionPolicy policy, final int excludedSegmentId, final int alsoExcluded, final long now)
    {
        final IndexTable t = shard.table();
        final Segment[] segments = arena.segments();
        final EntryCursor m = cursor;
        final boolean ttl = policy == EvictionPolicy.VOLATILE_TTL;
        final boolean volatileOnly = policy.volatileOnly();
        // random: the first entry found will do, unless an expired one may be among the next ones
        final int samples = ttl || shard.expiring > 0 ? SAMPLES : 1;
        final int limit = Math.min(MAX_SLOTS, t.capacity());
        int i = (int)nextRandom() & t.mask;
        int best = NONE;
        long bestExpireAt = Long.MAX_VALUE;
        int eligible = 0;
        // after the sample, entries are looked at only for an expired one (EXPIRED_SEARCH)
        final int looked = shard.expiring > 0 && lastWalkFoundExpired ? Math.max(samples, EXPIRED_SEARCH) : samples;
        for (int examined = 0; examined < limit && eligible < looked; examined++, i = (i + 1) & t.mask)
        {
            final long slot = t.get(i);
            if (slot == IndexLayout.EMPTY)
            {
                continue;
            }
            final Segment s = segments[IndexLayout.segmentOf(slot)];
            if (s.pins() > 0 || s.id == excludedSegmentId || s.id == alsoExcluded)
            {
                continue;
            }
            if (!m.wrap(s.buffer, s.id, IndexLayout.offsetOf(slot)))
            {
                throw ShardTable.corrupt("entry unreadable in eviction");
            }
            if (m.isExpired(now))
            {
                lastWalkFoundExpired = true;
                return i;
            }
            if (volatileOnly && !m.hasExpiry())
            {
                continue;
            }
            if (++eligible <= samples && (best == NONE || ttl && m.expireAt < bestExpireAt))
            {
                best = i;
                bestExpireAt = m.expireAt;
            }
        }
        lastWalkFoundExpired = false;
        return best;
    }

    /**
     * Walks one segment that holds entries the policy may evict, chosen from a random start, up to {@link #SAMPLES}
     * of them: for an index whose walk found none.
     *
     * @return the slot index of the entry to evict, or {@link #NONE} if no segment holds one.
     */
    private int sampleSegment(
        final EvictionPolicy policy, final int excludedSegmentId, final int alsoExcluded, final long now)
    {
        final Segment[] segments = arena.segments();
        final boolean volatileOnly = policy.volatileOnly();
        final int start = (int)((nextRandom() >>> 1) % segments.length);
        for (int k = 0; k < segments.length; k++)
        {
            final Segment s = segments[(start + k) % segments.length];
            if (s != null && s.pins() == 0 && s.id != excludedSegmentId && s.id != alsoExcluded && s.live() > 0 &&
                (!volatileOnly || s.volatileEntries() > 0))
            {
                final int offset = walk(s, policy, now);
                if (offset >= 0)
                {
                    final EntryCursor m = cursor;
                    if (!m.wrap(s.buffer, s.id, offset))
                    {
                        throw ShardTable.corrupt("entry unreadable in eviction");
                    }
                    final int tag = IndexLayout.tag(KeyHash.hash(m.buffer, m.keyOffset, m.keyLength, seed));
                    return compactor.findSlot(IndexLayout.slot(tag, s.id, offset));
                }
            }
        }
        return NONE;
    }

    /**
     * @return the offset in {@code s} of the entry to evict, or -1 if it holds none the policy may evict.
     */
    private int walk(final Segment s, final EvictionPolicy policy, final long now)
    {
        final EntryCursor m = cursor;
        final boolean ttl = policy == EvictionPolicy.VOLATILE_TTL;
        final boolean volatileOnly = policy.volatileOnly();
        final int end = s.used();
        int best = -1;
        long bestExpireAt = Long.MAX_VALUE;
        int eligible = 0;
        for (int p = 0; p < end && eligible < SAMPLES; p += m.length)
        {
            if (!m.wrap(s.buffer, s.id, p))
            {
                throw ShardTable.corrupt("entry unreadable in eviction");
            }
            if (m.isDead())
            {
                continue;
            }
            if (m.isExpired(now))
            {
                return p;
            }
            if (volatileOnly && !m.hasExpiry())
            {
                continue;
            }
            eligible++;
            if (best < 0 || ttl && m.expireAt < bestExpireAt)
            {
                best = p;
                bestExpireAt = m.expireAt;
            }
        }
        return best;
    }

    private void wrapSlot(final IndexTable t, final Segment[] segments, final int index)
    {
        final long slot = t.get(index);
        final Segment s = segments[IndexLayout.segmentOf(slot)];
        if (!cursor.wrap(s.buffer, s.id, IndexLayout.offsetOf(slot)))
        {
            throw ShardTable.corrupt("entry unreadable in eviction");
        }
    }

    private long nextRandom()
    {
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        return x;
    }
}
