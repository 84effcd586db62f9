package io.agni.store.shard;

import io.agni.api.EvictionPolicy;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.Segment;
import io.agni.store.arena.SegmentChoice;
import io.agni.store.evict.Ghost;
import io.agni.store.hash.KeyHash;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;

/**
 * Makes room in one shard by evicting entries, when the budget refuses a write and the shard's policy evicts
 * (docs/eviction.md).
 *
 * <h2>The algorithm: S3-FIFO over the arena's segments</h2>
 * The arena keeps two queues of segments, each appended to at its own head ({@link Arena#allocate(long, boolean)}):
 * <em>small</em>, where a new key goes, and <em>main</em>, where a key goes that eviction found read, or that is
 * written again soon after it was evicted from small (its tag is in the {@link Ghost}); an overwrite stays in its
 * entry's queue. Every segment has an age, so each queue is a FIFO of segments, and of entries within them. A read
 * adds one to its entry's 2-bit frequency ({@link IndexTable#markRead}). To make room, the arena names the oldest
 * segment of main when main holds more than {@link SegmentChoice#MAIN_SHARE_PERCENT} % of the live bytes (or small
 * has none), else the oldest of small ({@link SegmentChoice#evictionVictim}), and that segment is <em>cleaned</em>:
 * <ul>
 * <li>every live entry that has expired is removed (counted as expired), whatever the queue;</li>
 * <li>in small, an entry never read is evicted and its tag remembered by the ghost; one read at least has its
 * frequency cleared and is copied to main's head (promoted);</li>
 * <li>in main, an entry never read since eviction last passed is evicted; one read has its frequency lowered by one
 * and is copied to main's head too, its reinsertion at main's tail.</li>
 * </ul>
 * So a cleaned segment empties, and its memory serves either queue. An entry the policy may not evict (one without
 * expiry under {@code VOLATILE}) is kept as a read one is. When the budget refuses a copy (or the victim is a head,
 * or a large entry's segment), the rest stays, slid to the segment's start ({@link Compactor#compactInPlace}), and
 * the segment becomes main's youngest; a small one joins main whole ({@link Arena#promote}). A segment that empties
 * is recycled.
 *
 * <h2>Bounds</h2>
 * A write cleans at most {@link #MAX_SEGMENTS} segments that free room or belong to main, and
 * {@link #MAX_CLEANINGS} in all (at most 256 KiB each; a small segment whose entries were all read frees nothing
 * but promotes each entry once), and stops as soon as its entry fits, so it evicts at most what it needs plus the
 * rest of the segment it was cleaning; nothing scans the whole shard. If those segments held only entries read
 * since the last round, one more is cleaned without regard to frequencies, so a write that eviction can serve is
 * not refused for want of a full round. {@code VOLATILE} looks
 * only at segments that hold entries with an expiry time ({@link Segment#volatileEntries()}).
 * <p>
 * Room is the free tail of the entry's queue's head, or a new segment the budget would give
 * ({@link Arena#budgetHolds}): once the budget is full, the shard's newest segments are the smallest that held their
 * entries, and an entry larger than all of them (a large entry's own segment, always) fits only in memory that
 * emptied segments give back. For such an entry a write may clean one more segment, without regard to frequencies,
 * per {@link Arena#FIRST_SEGMENT_BYTES} of the segment it needs: its work grows with its own size. When this shard
 * still finds no room (it holds little, or nothing its policy may evict), the store's other shards evict for it
 * ({@link #evictForPeer}), each only if its lock is free at that moment.
 *
 * <h2>Concurrency</h2>
 * Runs under the shard's write lock; optimistic readers of an entry it removes or moves fail validation. The
 * frequencies it reads and writes may race a reader adding one: a count lost is a hint lost, never a wrong value.
 */
final class Evictor
{
    /**
     * The segments one write may clean, at most.
     */
    static final int MAX_SEGMENTS = 4;

    /**
     * The segments one write may clean in all, counting those of the small queue whose every entry was promoted
     * (which frees nothing, but happens to each entry once): a bound on one write's work.
     */
    static final int MAX_CLEANINGS = 16;

    /**
     * The tags of keys recently evicted from the small queue.
     */
    final Ghost ghost = new Ghost();

    private final ShardTable shard;
    private final Arena arena;
    private final Compactor compactor;
    private final long seed;
    private final EntryCursor cursor = new EntryCursor();

    Evictor(final ShardTable shard, final Arena arena, final Compactor compactor, final long seed)
    {
        this.shard = shard;
        this.arena = arena;
        this.compactor = compactor;
        this.seed = seed;
    }

    /**
     * Whether a key not in the shard joins the main queue when written: the shard evicts and the ghost remembers
     * its tag (which it then forgets).
     *
     * @param tag the key's index tag.
     * @return {@code true} for main, {@code false} for small.
     */
    boolean joinsMain(final int tag)
    {
        return shard.evictionPolicy.evicts() && ghost.remove(tag);
    }

    /**
     * Evicts until an entry of {@code length} bytes fits the head of its queue, or the budget would give a segment
     * for it, if the policy evicts.
     *
     * @param length            the entry's length.
     * @param excludedSegmentId a segment the caller still reads (0 for none): left alone.
     * @param main              whether the entry joins the main queue.
     * @return whether it fits now.
     */
    boolean makeRoom(final int length, final int excludedSegmentId, final boolean main)
    {
        return evictUntilRoom(length, 0, excludedSegmentId, main);
    }

    /**
     * Evicts until {@code newKeys} more keys fit the index without growing it, for a write whose table growth the
     * budget refused.
     *
     * @param newKeys           the keys the write adds.
     * @param excludedSegmentId a segment the caller still reads (0 for none): left alone.
     * @return whether they fit now.
     */
    boolean makeRoomForKeys(final int newKeys, final int excludedSegmentId)
    {
        return evictUntilRoom(0, newKeys, excludedSegmentId, false);
    }

    /**
     * Cleans segments as {@link SegmentChoice#evictionVictim} names them until an entry of {@code length} bytes fits
     * the head of its queue (when {@code length > 0}) or {@code newKeys} more keys fit the index (otherwise): at most
     * {@link #MAX_SEGMENTS} that count and {@link #MAX_CLEANINGS} in all honouring frequencies, the last one without
     * regard to them.
     */
    private boolean evictUntilRoom(final int length, final int newKeys, final int excludedSegmentId, final boolean main)
    {
        final EvictionPolicy policy = shard.evictionPolicy;
        if (!policy.evicts())
        {
            return false;
        }
        final int more = extraCleanings(length);
        if (policy.sampled())
        {
            if (shard.sampled.makeRoom(length, newKeys, excludedSegmentId))
            {
                return true;
            }
            if (more == 0)
            {
                return false;
            }
            // Samples free room inside segments; an entry larger than the smallest segment goes on to the cleaning
            // below, which frees whole segments oldest first (a sampled policy keeps no frequencies).
        }
        // An entry larger than the segments the shard holds fits only in new memory, which the segments that
        // cleaning empties give back: after the usual bounds, up to one more segment per FIRST_SEGMENT_BYTES of it,
        // each cleaned without regard to frequencies.
        int freeing = 0;
        for (int n = 0; n < MAX_CLEANINGS + more && freeing <= MAX_SEGMENTS + more &&
            !roomFor(length, newKeys, main); n++)
        {
            final Segment victim = arena.choice().evictionVictim(excludedSegmentId, policy.volatileOnly());
            if (victim == null)
            {
                break;
            }
            final boolean lastChance = freeing >= MAX_SEGMENTS || n >= MAX_CLEANINGS - 1;
            if (clean(victim, policy, lastChance))
            {
                freeing++;
            }
        }
        if (shard.recovering && length > 0 && !roomFor(length, newKeys, main))
        {
            // nothing else writes while the store recovers: heads that eviction emptied go back to the budget too
            arena.releaseEmptyHeads(true);
        }
        return roomFor(length, newKeys, main);
    }

    /**
     * The cleanings beyond the usual bounds that an entry larger than the smallest segment may take: one per
     * {@link Arena#FIRST_SEGMENT_BYTES} of the segment it needs, since the segments that cleaning empties may be that
     * small.
     */
    private static int extraCleanings(final int length)
    {
        return length <= Arena.FIRST_SEGMENT_BYTES ? 0 : Arena.segmentBytesFor(length) / Arena.FIRST_SEGMENT_BYTES;
    }

    /**
     * Evicts for another shard of the store whose own eviction found no room ({@link ShardReads#evictForPeer}): gives
     * the spare back, then cleans segments as for a write of this shard (frequencies honoured for the first
     * {@link #MAX_SEGMENTS}, not after; a sampled policy cleans oldest first) until the budget would give the
     * requester a segment for {@code length} bytes: at most {@link #MAX_CLEANINGS} and one more per
     * {@link Arena#FIRST_SEGMENT_BYTES} of the entry.
     *
     * @param requester the requesting shard's arena.
     * @param length    the entry it has to place.
     * @return whether the requester's segment would be granted now.
     */
    boolean evictForPeer(final Arena requester, final int length)
    {
        final EvictionPolicy policy = shard.evictionPolicy;
        final int most = MAX_CLEANINGS + extraCleanings(length);
        releaseForPeer();
        for (int n = 0; n < most && !requester.budgetHolds(length); n++)
        {
            final Segment victim = arena.choice().evictionVictim(0, policy.volatileOnly());
            if (victim == null)
            {
                break;
            }
            clean(victim, policy, policy.sampled() || n >= MAX_SEGMENTS);
            releaseForPeer();
        }
        return requester.budgetHolds(length);
    }

    /**
     * Gives back what this shard holds empty, for another shard's write: the spare and an empty main head and, while
     * the store recovers (nothing else writes then), an empty small head too, so that the log replays into the
     * budget whichever shard's heads the bytes sat in before. Otherwise the shard keeps its head, a place to write
     * that a budget lowered meanwhile would refuse it.
     */
    private void releaseForPeer()
    {
        arena.releaseEmptyHeads(shard.recovering);
    }

    /**
     * Evicts by the policy without regard to room, for a store over a budget lowered at run time
     * ({@link BudgetShrink}): cleans the oldest segment, or evicts sampled entries up to about {@code bytes}.
     *
     * @param bytes the live bytes to evict, about (a cleaning takes what its segment holds unread).
     * @return whether anything the policy may evict was found.
     */
    boolean evictForBudget(final int bytes)
    {
        final EvictionPolicy policy = shard.evictionPolicy;
        if (!policy.evicts())
        {
            return false;
        }
        if (policy.sampled())
        {
            return shard.sampled.evictBytes(bytes);
        }
        final Segment victim = arena.choice().evictionVictim(0, policy.volatileOnly());
        if (victim != null)
        {
            clean(victim, policy, false);
        }
        return victim != null;
    }

    private boolean roomFor(final int length, final int newKeys, final boolean main)
    {
        if (length == 0)
        {
            return shard.keysFit(newKeys);
        }
        return length <= Arena.LARGE_ENTRY_BYTES && arena.hasRoomFor(length, main) || arena.budgetHolds(length);
    }

    /**
     * Cleans one segment as the class comment says; {@code ignoreFrequencies} evicts every entry the policy allows.
     *
     * @return whether it counts against {@link #MAX_SEGMENTS}: it was a segment of main, or it removed an entry.
     */
    private boolean clean(final Segment victim, final EvictionPolicy policy, final boolean ignoreFrequencies)
    {
        final boolean small = !victim.inMain();
        if (small)
        {
            ghost.resize(shard.count);
        }
        // in recovery nothing counts as expired: a later record may extend it (ShardTable.recovering)
        final long now = shard.recovering ? Long.MIN_VALUE : shard.clock.time();
        final EntryCursor m = cursor;
        final int id = victim.id;
        final int end = victim.used();
        boolean removed = false;
        // Survivors are copied to main's head, so that the victim empties and its memory serves either queue; the
        // head itself, a large entry's segment, and whatever the budget finds no room to copy stay where they are.
        boolean copying = !victim.dedicated && !arena.isHead(victim);
        boolean moved = false;
        int p = 0;
        while (p < end && victim.live() > 0)
        {
            if (!m.wrap(victim.buffer, id, p))
            {
                throw ShardTable.corrupt("entry unreadable in eviction");
            }
            final int length = m.length;
            if (!m.isDead())
            {
                final int tag = IndexLayout.tag(KeyHash.hash(m.buffer, m.keyOffset, m.keyLength, seed));
                final int i = compactor.findSlot(IndexLayout.slot(tag, id, p));
                final IndexTable t = shard.table();
                final int frequency = t.frequency(i);
                if (m.isExpired(now))
                {
                    // Removing it may recycle or release the victim: read nothing of it after its last entry.
                    shard.removeAt(i, m);
                    shard.expired++;
                    removed = true;
                }
                else if ((!policy.volatileOnly() || m.hasExpiry()) && (ignoreFrequencies || frequency == 0))
                {
                    shard.removeAt(i, m);
                    shard.evicted++;
                    removed = true;
                    if (small && !policy.sampled())
                    {
                        ghost.add(tag);
                    }
                }
                else
                {
                    t.frequency(i, small ? 0 : Math.max(0, frequency - 1));
                    copying = copying && compactor.relocate(victim, p, length, tag, i, m.hasExpiry(), true);
                    moved |= copying;
                }
            }
            p += length;
        }
        final boolean counts = removed || !small;
        if (arena.segments()[id] != victim)
        {
            // emptied by a removal and released
            return counts;
        }
        if (victim.live() == 0)
        {
            if (victim.used() > 0)
            {
                // emptied by a copy (a removal that empties a segment recycles it, or restarts a head at 0)
                arena.onCompacted(victim);
            }
            return counts;
        }
        if (small)
        {
            arena.promote(victim);
        }
        if ((removed || moved || small) && !victim.dedicated)
        {
            compactor.compactInPlace(victim);
        }
        arena.renew(victim);
        return counts;
    }
}
