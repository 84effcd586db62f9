package io.agni.store.shard;

import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.Segment;
import io.agni.store.hash.KeyHash;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;

/**
 * The structural invariants of a shard, checked by walking both the index and the arena. For tests and debugging;
 * the caller holds the shard's write lock.
 */
final class ShardIntegrity
{
    private ShardIntegrity()
    {
    }

    static void verify(
        final IndexTable table, final Arena arena, final int count, final int expiring, final long seed,
        final int resume, final EntryCursor e, final ThreadContext scratch)
    {
        final Segment[] segments = arena.segments();
        for (final Segment s : segments)
        {
            // first: an entry never linked also breaks the live-byte counts below, and the pin names the cause
            if (s != null)
            {
                check(s.pins() == 0, "segment " + s.id + " is pinned by " + s.pins() + " entries never linked");
            }
        }
        int slots = 0;
        int withExpiry = 0;
        long liveFromIndex = 0;
        final int[] volatileBySegment = new int[segments.length];
        for (int i = 0; i <= table.mask; i++)
        {
            final long slot = table.get(i);
            if (slot == IndexLayout.EMPTY)
            {
                continue;
            }
            slots++;
            final int segmentId = IndexLayout.segmentOf(slot);
            final Segment s = segmentId < segments.length ? segments[segmentId] : null;
            check(s != null, "slot " + i + " points at missing segment " + segmentId);
            check(e.wrap(s.buffer, segmentId, IndexLayout.offsetOf(slot)), "slot " + i + " points at a bad header");
            check(!e.isDead(), "slot " + i + " points at a dead entry");
            check(!s.dedicated || IndexLayout.offsetOf(slot) == 0, "dedicated entry not at offset 0");
            final long hash = KeyHash.hash(e.buffer, e.keyOffset, e.keyLength, seed);
            check(IndexLayout.tag(hash) == IndexLayout.tagOf(slot), "slot " + i + " tag does not match its key");
            final int home = table.home(IndexLayout.tagOf(slot));
            for (int j = home; j != i; j = (j + 1) & table.mask)
            {
                check(table.get(j) != IndexLayout.EMPTY, "empty slot " + j + " between home " + home + " and " + i);
            }
            final int found = Shard.lookup(table, segments, IndexLayout.tagOf(slot), e.buffer, e.keyOffset,
                e.keyLength, scratch.fresh);
            check(found == i, "key at slot " + i + " is reachable at slot " + found + " (duplicate key)");
            if (e.hasExpiry())
            {
                withExpiry++;
                volatileBySegment[segmentId]++;
            }
            liveFromIndex += e.length;
        }
        check(slots == count, "count=" + count + " but the index holds " + slots);
        check(withExpiry == expiring, "expiring=" + expiring + " but the index holds " + withExpiry);
        for (final Segment s : segments)
        {
            if (s != null)
            {
                check(s.volatileEntries() == volatileBySegment[s.id], "segment " + s.id + " counts " +
                    s.volatileEntries() + " entries with an expiry time, the index reaches " + volatileBySegment[s.id]);
            }
        }
        check(liveFromIndex == arena.liveBytes(),
            "live bytes=" + arena.liveBytes() + " but the index reaches " + liveFromIndex);
        long segmentLive = 0;
        long segmentCapacity = 0;
        for (final Segment s : arena.segments())
        {
            if (s != null)
            {
                segmentLive += s.live();
                segmentCapacity += s.capacity();
            }
        }
        check(segmentLive == arena.liveBytes(),
            "segments' live bytes sum to " + segmentLive + ", arena says " + arena.liveBytes());
        check(segmentCapacity == arena.heldBytes(),
            "segments' capacities sum to " + segmentCapacity + ", arena holds " + arena.heldBytes());

        final Segment victim = arena.evacuating();
        if (victim != null)
        {
            check(victim.id < segments.length && segments[victim.id] == victim,
                "evacuated segment " + victim.id + " is not in the arena");
            check(!victim.dedicated && victim.live() > 0, "evacuated segment is dedicated or empty");
            check(resume <= victim.used(), "evacuation resumes at " + resume + " past used=" + victim.used());
        }
        int liveEntries = 0;
        for (int id = 1; id < segments.length; id++)
        {
            final Segment s = segments[id];
            if (s == null)
            {
                continue;
            }
            check(s.id == id, "segment " + id + " has id " + s.id);
            int p = 0;
            int live = 0;
            while (p < s.used())
            {
                check(e.wrap(s.buffer, id, p), "segment " + id + " has a bad header at " + p);
                if (s == victim && p < resume)
                {
                    check(e.isDead(), "evacuated segment " + id + " has a live entry at " + p + " before " + resume);
                    check(p + e.length <= resume, "evacuation resumes at " + resume + " inside an entry at " + p);
                }
                if (!e.isDead())
                {
                    live += e.length;
                    liveEntries++;
                }
                p += e.length;
            }
            check(p == s.used(), "segment " + id + " entries end at " + p + ", used=" + s.used());
            check(live == s.live(), "segment " + id + " live=" + s.live() + " but its entries hold " + live);
        }
        check(liveEntries == count, "arena holds " + liveEntries + " live entries, count=" + count);
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalStateException("integrity: " + message);
        }
    }
}
