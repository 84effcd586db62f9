package io.agni.store.shard;

import io.agni.api.EvictionPolicy;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.Segment;
import io.agni.store.hash.KeyHash;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;

/**
 * Makes room in one shard by evicting entries, when the budget refuses a write and the shard's policy evicts
 * (docs/eviction.md).
 *
 * <h2>The algorithm: CLOCK over the arena's segments</h2>
 * The arena appends new entries at its head, so its segments are in the order their entries arrived; each segment
 * carries an age ({@link Arena#evictionVictim}). A read sets its entry's mark in the index
 * ({@link IndexTable#markRead}). To make room, the oldest segment is <em>cleaned</em>: every live entry in it that
 * has expired is removed (counted as expired), every one the policy may evict whose mark is clear is evicted, and
 * every other has its mark cleared and stays: its second chance. The survivors are then slid to the segment's start
 * ({@link Compactor#compactInPlace}), its free tail becomes room for new entries, and it becomes the youngest
 * segment. A segment that empties is recycled whole. So an entry read since eviction last passed it survives one
 * more round, and one never read goes in arrival order: CLOCK, with a segment as the hand's step.
 *
 * <h2>Bounds</h2>
 * A write cleans at most {@link #MAX_SEGMENTS} segments (at most 256 KiB each) and stops as soon as its entry fits,
 * so it evicts at most what it needs plus the rest of the segment it was cleaning; nothing scans the whole shard.
 * If those segments held only entries read since the last round (every one got its second chance), one more is
 * cleaned without regard to marks, so a write that eviction can serve is not refused for want of a full round.
 * {@code VOLATILE} looks only at segments that hold entries with an expiry time ({@link Segment#volatileEntries()}).
 *
 * <h2>Concurrency</h2>
 * Runs under the shard's write lock; optimistic readers of an entry it removes or moves fail validation. The marks
 * it reads and clears may race a reader setting one: a mark lost is a hint lost, never a wrong value.
 */
final class Evictor
{
    /**
     * The segments one write may clean, at most.
     */
    static final int MAX_SEGMENTS = 4;

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
     * Evicts until a regular entry of {@code length} bytes fits without a new segment, if the policy evicts.
     *
     * @param length            the entry's length; entries over {@link Arena#LARGE_ENTRY_BYTES} need new memory
     *                          from the budget, which eviction cannot give within the write that needs it.
     * @param excludedSegmentId a segment the caller still reads (0 for none): left alone.
     * @return whether it fits now.
     */
    boolean makeRoom(final int length, final int excludedSegmentId)
    {
        return length <= Arena.LARGE_ENTRY_BYTES && evictUntilRoom(length, 0, excludedSegmentId);
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
        return evictUntilRoom(0, newKeys, excludedSegmentId);
    }

    /**
     * Cleans the oldest segments until an entry of {@code length} bytes fits the arena (when {@code length > 0}) or
     * {@code newKeys} more keys fit the index (otherwise): at most {@link #MAX_SEGMENTS} honouring marks, then one
     * more without regard to them.
     */
    private boolean evictUntilRoom(final int length, final int newKeys, final int excludedSegmentId)
    {
        final EvictionPolicy policy = shard.evictionPolicy;
        if (!policy.evicts())
        {
            return false;
        }
        if (policy.sampled())
        {
            return shard.sampled.makeRoom(length, newKeys, excludedSegmentId);
        }
        for (int n = 0; n <= MAX_SEGMENTS && !roomFor(length, newKeys); n++)
        {
            final Segment victim = arena.evictionVictim(excludedSegmentId, policy.volatileOnly());
            if (victim == null)
            {
                break;
            }
            clean(victim, policy, n == MAX_SEGMENTS);
        }
        return roomFor(length, newKeys);
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
        final Segment victim = arena.evictionVictim(0, policy.volatileOnly());
        if (victim != null)
        {
            clean(victim, policy, false);
        }
        return victim != null;
    }

    private boolean roomFor(final int length, final int newKeys)
    {
        return length > 0 ? arena.hasRoomFor(length) : shard.keysFit(newKeys);
    }

    /**
     * Cleans one segment: removes its expired entries, evicts those the policy allows whose mark is clear (or all
     * the policy allows, when {@code ignoreMarks}), clears the marks of the rest, slides them to the segment's start
     * and makes it the youngest.
     */
    private void clean(final Segment victim, final EvictionPolicy policy, final boolean ignoreMarks)
    {
        final long now = shard.clock.time();
        final EntryCursor m = cursor;
        final int id = victim.id;
        final int end = victim.used();
        boolean evicted = false;
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
                if (m.isExpired(now))
                {
                    // Removing it may recycle or release the victim: read nothing of it after its last entry.
                    shard.removeAt(i, m);
                    shard.expired++;
                    evicted = true;
                }
                else if ((!policy.volatileOnly() || m.hasExpiry()) && (ignoreMarks || !t.marked(i)))
                {
                    shard.removeAt(i, m);
                    shard.evicted++;
                    evicted = true;
                }
                else
                {
                    t.clearMark(i);
                }
            }
            p += length;
        }
        if (arena.segments()[id] != victim || victim.live() == 0)
        {
            // emptied: recycled as the spare, released, or (the head) started again from offset 0
            return;
        }
        if (evicted && !victim.dedicated)
        {
            compactor.compactInPlace(victim);
        }
        arena.renew(victim);
    }
}
