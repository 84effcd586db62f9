package io.agni.store.arena;

/**
 * Which segment of an {@link Arena} compaction or eviction works on next: the arena's choices, apart from the
 * arena's own bookkeeping. Each one is a pass over the segment table, done under the owning shard's write lock by
 * work that then touches a whole segment, so the pass costs no more than the work it chooses.
 */
public final class SegmentChoice
{
    /**
     * The main queue's share of the live bytes above which eviction takes from main (S3-FIFO's 90 %).
     */
    public static final int MAIN_SHARE_PERCENT = 90;

    private final Arena arena;

    SegmentChoice(final Arena arena)
    {
        this.arena = arena;
    }

    /**
     * The regular segment of one queue with the most bytes that are not live (garbage plus free tail), other than
     * the spare, a pinned segment and one excluded segment: where compaction in place wins the most room for that
     * queue, since the room a slide frees goes to the entries of the segment's own queue.
     *
     * @param excludedId a segment id to skip (0 for none).
     * @param main       whether the room is for the main queue.
     * @return the segment, or {@code null} if there is none.
     */
    public Segment mostReclaimable(final int excludedId, final boolean main)
    {
        Segment best = null;
        for (int i = 1; i < arena.nextId; i++)
        {
            final Segment s = arena.segments[i];
            if (s != null && !s.dedicated && s != arena.spare && i != excludedId && s.pins == 0 && s.main == main &&
                (best == null || s.capacity() - s.live > best.capacity() - best.live))
            {
                best = s;
            }
        }
        return best;
    }

    /**
     * The regular segment with the most garbage (bytes in use that no live entry holds), other than the spare and a
     * pinned segment: where compaction in place turns the most garbage into free space.
     *
     * @return the segment, or {@code null} if no such segment holds garbage.
     */
    public Segment mostGarbage()
    {
        Segment best = null;
        for (int i = 1; i < arena.nextId; i++)
        {
            final Segment s = arena.segments[i];
            if (s != null && !s.dedicated && s != arena.spare && s.pins == 0 && s.used > s.live &&
                (best == null || s.used - s.live > best.used - best.live))
            {
                best = s;
            }
        }
        return best;
    }

    /**
     * The segment eviction looks at next, S3-FIFO's choice between its two queues (docs/eviction.md): the oldest
     * ({@link Segment#age}) segment of the main queue when main holds more than {@link #MAIN_SHARE_PERCENT} % of the
     * live bytes or the small queue has no candidate, else the oldest of the small queue. A candidate holds live
     * entries and is neither the spare, pinned, nor {@code excludedId}; a queue's head is taken only when its queue
     * has no other.
     *
     * @param excludedId   a segment id to skip (0 for none): the one holding an entry the caller still reads.
     * @param volatileOnly whether only segments holding entries with an expiry time will do.
     * @return the segment, or {@code null} if there is none.
     */
    public Segment evictionVictim(final int excludedId, final boolean volatileOnly)
    {
        Segment oldestSmall = null;
        Segment oldestMain = null;
        long mainLive = 0;
        long smallLive = 0;
        for (int i = 1; i < arena.nextId; i++)
        {
            final Segment s = arena.segments[i];
            if (s == null || s == arena.spare)
            {
                continue;
            }
            if (s.main)
            {
                mainLive += s.live;
                if (s != arena.mainHead && candidate(s, excludedId, volatileOnly) &&
                    (oldestMain == null || s.age < oldestMain.age))
                {
                    oldestMain = s;
                }
            }
            else
            {
                smallLive += s.live;
                if (s != arena.head && candidate(s, excludedId, volatileOnly) &&
                    (oldestSmall == null || s.age < oldestSmall.age))
                {
                    oldestSmall = s;
                }
            }
        }
        if (oldestSmall == null && arena.head != null && candidate(arena.head, excludedId, volatileOnly))
        {
            oldestSmall = arena.head;
        }
        if (oldestMain == null && arena.mainHead != null && candidate(arena.mainHead, excludedId, volatileOnly))
        {
            oldestMain = arena.mainHead;
        }
        final boolean mainOverShare = mainLive * 100 > (mainLive + smallLive) * MAIN_SHARE_PERCENT;
        if (oldestMain != null && (mainOverShare || oldestSmall == null))
        {
            return oldestMain;
        }
        return oldestSmall;
    }

    private static boolean candidate(final Segment s, final int excludedId, final boolean volatileOnly)
    {
        return s.pins == 0 && s.id != excludedId && s.live > 0 && (!volatileOnly || s.volatileEntries > 0);
    }

    /**
     * The regular segment, other than the head, with the fewest live bytes.
     *
     * @return the segment, or {@code null} if there is none.
     */
    public Segment compactionVictim()
    {
        Segment best = null;
        for (int i = 1; i < arena.nextId; i++)
        {
            final Segment s = arena.segments[i];
            if (s != null && !s.dedicated && s != arena.head && s != arena.mainHead && s != arena.spare &&
                s.pins == 0 && (best == null || s.live < best.live))
            {
                best = s;
            }
        }
        return best;
    }
}
