package io.agni.store.shard;

import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.Segment;
import io.agni.store.hash.KeyHash;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import io.agni.store.log.ChangeRecorder;

/**
 * Reclaims the garbage of one shard's arena (docs/architecture.md, "Reuse of freed space").
 *
 * <h2>Copying compaction, in bounded steps</h2>
 * When garbage passes 1/8 of the regular segment bytes, the segment with the fewest live bytes becomes the victim
 * ({@link Arena#startEvacuation}) and is evacuated a step at a time: each write that allocated (and each tick of the
 * expiry sweep) copies the next live entries after {@link #resume} to the head and points their slots at the copies,
 * then stops. A step moves at most {@link #stepBytes} bytes (or one entry, if that entry alone is longer) and looks
 * at most {@link #STEP_ENTRIES} entries, so a write pays for a few entries of compaction, never a whole segment. Once
 * every live entry has left, the victim is recycled.
 * <p>
 * Between steps the victim is an ordinary segment: users may overwrite or delete its entries (they die where they
 * are; a step skips dead entries) or rewrite one in place (it is still live, at the same offset, and moves later).
 * Every entry before {@link #resume} is dead. Anything that would move the victim's entries or reuse its memory
 * (the victim's last live entry dying, compaction in place, {@code clear}) drops the arena's mark, and the next step
 * picks a new victim, from offset 0. A moved entry's slot is found by hashing its key and probing for the exact old
 * slot word, in the table of the moment, so the table may grow between steps.
 *
 * <h2>Compaction in place</h2>
 * When the budget refuses a new segment, {@link #allocate} slides the live entries of the segment with the most
 * non-live bytes to its start and appends at its freed tail, up to {@link #IN_PLACE_ATTEMPTS} segments. This work is
 * not bounded by a step: it runs only when the alternative is refusing the write; the room a slide frees is usable
 * only at the segment's tail, so only a whole slide gives the write its room; and a half-slid segment would leave a
 * hole no entry describes. A multi-key write that the budget refused part-way compacts in place for all of
 * its bytes ({@link #reclaimForBatch}) before it tries once more, since its entries written so far pinned their
 * segments.
 *
 * <h2>Concurrency</h2>
 * Every method runs under the owning shard's write lock, so optimistic readers of moved entries fail validation.
 */
final class Compactor
{
    /**
     * The bytes one step may move, at least ({@code N}). Chosen by measurement
     * (docs/experiments/compaction-latency.md): about 8 entries of the churn benchmark's average size; 16 KiB doubled
     * the SET p99 under churn, 1 KiB was no better, and the pace ({@link #PACE}) decides the step for entries over
     * {@code N / 8} bytes anyway.
     */
    static final int STEP_BYTES = 4 * 1024;

    /**
     * The entries, live or dead, one step looks at, at most: bounds a step over a victim of many small dead entries.
     */
    static final int STEP_ENTRIES = 256;

    /**
     * A step may move this many times the bytes the write itself wrote, when that is more than {@link #STEP_BYTES}.
     * At the 1/8 threshold the victim (the segment with the fewest live bytes) is at most about 7/8 live, so freeing
     * the garbage one write made means moving up to 7 times its bytes: a pace of 8 keeps up, so garbage stays near
     * the threshold whatever the entry size.
     */
    static final int PACE = 8;

    /**
     * How many segments compaction in place may slide for one write, at most.
     */
    static final int IN_PLACE_ATTEMPTS = 4;

    private final ShardTable shard;
    private final Arena arena;
    private final long seed;
    private final EntryCursor moveCursor = new EntryCursor();
    /**
     * Evicts when compaction cannot make room and the shard's policy says so; set once by the shard.
     */
    Evictor evictor;
    /**
     * Takes over after writes while the store holds more than its budget; set once by the shard.
     */
    BudgetShrink shrink;
    /**
     * Every shard of the store, this one included, for eviction across shards; set once by the store.
     */
    ShardReads[] peers = new ShardReads[0];
    private int nextPeer;

    /**
     * Where the next step looks in the victim; every entry before it is dead. Valid only while the arena's mark
     * ({@link Arena#evacuating()}) is set: a new victim starts at 0.
     */
    private int resume;

    /**
     * Bytes moved by copying compaction since the shard was made: for tests, which bound what one write moves.
     */
    long movedBytes;

    Compactor(final ShardTable shard, final Arena arena, final long seed)
    {
        this.shard = shard;
        this.arena = arena;
        this.seed = seed;
    }

    /**
     * After a write: one step of the evacuation in progress, or, if there is none and garbage is above the threshold,
     * of a new one.
     *
     * @param writtenBytes the bytes the write put into the arena, which pace the step ({@link #PACE}); 0 for none.
     */
    void afterWrite(final long writtenBytes)
    {
        if (shrink.pending())
        {
            shrink.step(writtenBytes);
            return;
        }
        Segment victim = arena.evacuating();
        if (victim == null)
        {
            final long garbage = arena.garbageBytes();
            if (garbage < Arena.FIRST_SEGMENT_BYTES || garbage * 8 <= arena.regularBytes())
            {
                return;
            }
            victim = arena.choice().compactionVictim();
            if (victim == null)
            {
                return;
            }
            arena.startEvacuation(victim);
            resume = 0;
        }
        step(victim, stepBytes(writtenBytes));
    }

    /**
     * One step of draining a shard whose store holds more than its budget ({@link BudgetShrink}): evacuates the
     * regular segment with the fewest live bytes (other than the head) whatever the garbage, moving up to
     * {@code bytes} of its live entries (one entry, if that alone is longer) to the head's free tail. When the head
     * has no room for the next entry, room is made by compaction in place or, when {@code evict}, by eviction
     * ({@link Evictor#makeRoom}), the victim left alone by both; if none can be made the step stops, and the next one
     * goes on with the same victim from where this one stopped. Once every live entry has left, the victim is
     * recycled, and the shrink then releases it.
     *
     * @param bytes the step's byte budget.
     * @param evict whether the shard's policy may evict to make the room.
     * @return {@code false} if there was no segment to drain, or no room for a single entry could be made.
     */
    boolean drain(final int bytes, final boolean evict)
    {
        Segment victim = arena.evacuating();
        if (victim == null)
        {
            victim = arena.choice().compactionVictim();
            if (victim == null)
            {
                return false;
            }
            arena.startEvacuation(victim);
            resume = 0;
        }
        final EntryCursor m = moveCursor;
        final int end = victim.used();
        int p = resume;
        int moved = 0;
        for (int examined = 0; p < end && victim.live() > 0 && examined < STEP_ENTRIES; examined++)
        {
            if (!m.wrap(victim.buffer, victim.id, p))
            {
                throw Shard.corrupt("entry unreadable in compaction");
            }
            final int length = m.length;
            if (!m.isDead())
            {
                if (moved > 0 && moved + length > bytes)
                {
                    break;
                }
                if (!arena.hasRoomFor(length, victim.inMain()) && !roomForDrain(victim, p, length, evict) ||
                    !move(victim, p, length))
                {
                    // the next step goes on from here, with the same victim
                    resume = p;
                    movedBytes += moved;
                    return moved > 0;
                }
                moved += length;
            }
            p += length;
        }
        resume = p;
        movedBytes += moved;
        if (p >= end || victim.live() == 0)
        {
            arena.onCompacted(victim);
        }
        return true;
    }

    /**
     * Makes room at the head for an entry the drain moves, leaving the victim alone; eviction may remove slots but
     * moves no entry of the victim, whose cursor the caller wraps again.
     */
    private boolean roomForDrain(final Segment victim, final int offset, final int length, final boolean evict)
    {
        // the entry moves to the head of its own queue (docs/eviction.md)
        final boolean main = victim.inMain();
        final boolean room =
            reclaimInPlace(length, victim.id, main) || evict && evictor.makeRoom(length, victim.id, main);
        if (room && !moveCursor.wrap(victim.buffer, victim.id, offset))
        {
            throw Shard.corrupt("entry unreadable in compaction");
        }
        return room && arena.evacuating() == victim;
    }

    /**
     * Whether a victim is being evacuated (a racy read from the sweep thread is fine: a stale answer only moves the
     * step to the next tick).
     *
     * @return {@code true} if another step is due.
     */
    boolean pending()
    {
        return arena.evacuating() != null;
    }

    /**
     * Where the next step starts in the victim, for integrity checks.
     *
     * @return the offset, meaningful only while {@link #pending()}.
     */
    int resumeOffset()
    {
        return resume;
    }

    /**
     * The most bytes a step after a write of {@code writtenBytes} bytes moves (one entry more, if that entry alone is
     * longer).
     *
     * @param writtenBytes the bytes the write put into the arena.
     * @return the step's byte budget.
     */
    static int stepBytes(final long writtenBytes)
    {
        return (int)Math.min(Arena.MAX_SEGMENT_BYTES, Math.max(STEP_BYTES, PACE * writtenBytes));
    }

    private void step(final Segment victim, final int budget)
    {
        final EntryCursor m = moveCursor;
        final int end = victim.used();
        int p = resume;
        int moved = 0;
        for (int examined = 0; p < end && victim.live() > 0 && examined < STEP_ENTRIES; examined++)
        {
            if (!m.wrap(victim.buffer, victim.id, p))
            {
                throw Shard.corrupt("entry unreadable in compaction");
            }
            final int length = m.length;
            if (!m.isDead())
            {
                if (moved > 0 && moved + length > budget)
                {
                    break;
                }
                if (!move(victim, p, length))
                {
                    // the budget refused a segment to copy into: stop, and let a later write pick a victim again
                    movedBytes += moved;
                    arena.onCompacted(victim);
                    return;
                }
                moved += length;
            }
            p += length;
        }
        resume = p;
        movedBytes += moved;
        if (p >= end || victim.live() == 0)
        {
            arena.onCompacted(victim);
        }
    }

    /**
     * Copies the live entry at {@code offset} in the victim to the head and points its slot at the copy.
     *
     * @return {@code false} if the budget refused the space; nothing changed.
     */
    private boolean move(final Segment victim, final int offset, final int length)
    {
        final EntryCursor m = moveCursor;
        final int tag = IndexLayout.tag(KeyHash.hash(m.buffer, m.keyOffset, m.keyLength, seed));
        final int index = findSlot(IndexLayout.slot(tag, victim.id, offset));
        // an entry keeps its queue (docs/eviction.md) when compaction moves it
        return relocate(victim, offset, length, tag, index, m.hasExpiry(), victim.inMain());
    }

    /**
     * Copies a live entry to the head of a queue and points its slot at the copy; its old bytes become dead in the
     * victim, which is not recycled here even if it empties.
     *
     * @param victim    the entry's segment.
     * @param offset    where the entry is.
     * @param length    its length.
     * @param tag       its index tag.
     * @param index     its slot in the current table.
     * @param hasExpiry whether it has an expiry time.
     * @param main      whether it goes to the main queue's head.
     * @return {@code false} if the budget refused the space; nothing changed.
     */
    boolean relocate(
        final Segment victim, final int offset, final int length, final int tag, final int index,
        final boolean hasExpiry, final boolean main)
    {
        final long location = arena.allocate(length, main);
        if (location == Arena.NO_SPACE)
        {
            return false;
        }
        final int segmentId = Arena.segmentIdOf(location);
        final int to = Arena.offsetOf(location);
        arena.segments()[segmentId].buffer.putBytes(to, victim.buffer, offset, length);
        arena.onWritten(segmentId, length);
        shard.table().put(index, IndexLayout.slot(tag, segmentId, to));
        arena.onMoved(victim, offset, length);
        if (hasExpiry)
        {
            arena.countVolatile(segmentId, 1);
            arena.countVolatile(victim.id, -1);
        }
        return true;
    }

    /**
     * Reserves arena space for an entry; when the budget refuses a segment, compacts in place (skipping
     * {@code excludedSegmentId}, 0 for none), or failing that evicts if the shard's policy evicts
     * ({@link Evictor}), and tries once more. Eviction removes slots, so a caller holding a slot index finds it
     * again afterwards ({@link ShardTable#removals}).
     *
     * @param length the entry's length; {@link Arena#allocate} refuses one that is not a positive int.
     * @return the location ({@code segmentId << 32 | offset}) or {@link Arena#NO_SPACE}.
     */
    long allocate(final long length, final int excludedSegmentId)
    {
        return allocate(length, excludedSegmentId, false);
    }

    /**
     * {@link #allocate(long, int)} into one queue of a store that evicts (docs/eviction.md).
     *
     * @param length            the entry's length.
     * @param excludedSegmentId a segment the caller still reads (0 for none).
     * @param main              whether the entry joins the main queue rather than the small one.
     * @return the location or {@link Arena#NO_SPACE}.
     */
    long allocate(final long length, final int excludedSegmentId, final boolean main)
    {
        final long location = arena.allocate(length, main);
        if (location != Arena.NO_SPACE)
        {
            return location;
        }
        // Twice at most: eviction may count as room a segment the budget would give, which another shard's write
        // can take first.
        for (int attempt = 0; attempt < 2; attempt++)
        {
            if (!reclaimInPlace((int)length, excludedSegmentId, main) &&
                !evictor.makeRoom((int)Math.min(length, Integer.MAX_VALUE), excludedSegmentId, main))
            {
                break;
            }
            final long placed = arena.allocate(length, main);
            if (placed != Arena.NO_SPACE)
            {
                return placed;
            }
        }
        if (!shard.evictionPolicy.evicts())
        {
            return Arena.NO_SPACE;
        }
        // The budget refuses new segments and eviction made its room in the other queue (its head emptied, say):
        // the entry goes there rather than be refused.
        final long other = arena.allocate(length, !main);
        if (other != Arena.NO_SPACE)
        {
            return other;
        }
        // This shard found nothing more to evict (it holds little, or nothing the policy may evict) while the
        // budget is the store's: others give memory back.
        return evictElsewhere((int)length) ? arena.allocate(length, main) : Arena.NO_SPACE;
    }

    /**
     * Has the store's other shards evict, one after another from a place that moves on with every call, until the
     * budget would give this shard a segment for an entry of {@code length} bytes. A shard whose lock is held
     * (by another thread, or by this one in a multi-shard write) is passed over, never waited for, so no thread waits
     * for a shard's lock while it holds another's.
     */
    private boolean evictElsewhere(final int length)
    {
        final ChangeRecorder changes = shard.changes;
        if (changes != null && changes.batching())
        {
            // A multi-key write gathers its records into one, appended when it ends: another shard's evictions
            // logged into it would reach the log after that shard's lock is gone, behind later writes of the keys.
            return false;
        }
        final ShardReads[] all = peers;
        final int n = all.length;
        for (int k = 0; k < n; k++)
        {
            final ShardReads peer = all[Math.floorMod(nextPeer++, n)];
            if (peer != shard && peer.evictForPeer(arena, length, changes))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * When the budget refuses a new segment, makes room for a regular entry without one: slides the live entries of
     * the segment with the most non-live bytes to its start and appends at its freed tail. The segment holding the
     * entry being replaced is left alone, since the caller still reads it. A victim being evacuated may be slid like
     * any other segment; that ends its evacuation.
     *
     * @return whether the head now has room for {@code length} bytes.
     */
    boolean reclaimInPlace(final int length, final int excludedSegmentId, final boolean main)
    {
        if (length > Arena.LARGE_ENTRY_BYTES)
        {
            return false;
        }
        // Over the budget, the segment being drained only loses entries until it is released: sliding it, the one
        // with the most garbage once partly drained, would undo the drain. So it is slid only if no other will do.
        final Segment draining = shrink.pending() ? arena.evacuating() : null;
        if (draining != null)
        {
            arena.pin(draining.id);
            try
            {
                if (slideForRoom(length, excludedSegmentId, main))
                {
                    return true;
                }
            }
            finally
            {
                arena.unpin(draining.id);
            }
        }
        return slideForRoom(length, excludedSegmentId, main);
    }

    private boolean slideForRoom(final int length, final int excludedSegmentId, final boolean main)
    {
        for (int attempt = 0; attempt < IN_PLACE_ATTEMPTS && arena.headFree(main) < length; attempt++)
        {
            // a slid segment's tail goes to its own queue's head
            final Segment victim = arena.choice().mostReclaimable(excludedSegmentId, main);
            if (victim == null || victim.capacity() - victim.live() < length)
            {
                return false;
            }
            compactInPlace(victim);
        }
        return arena.headFree(main) >= length;
    }

    /**
     * Before a multi-key write that the budget refused is tried again, none of its entries written: compacts in place,
     * the segment with the most garbage first, until the head's free tail and the garbage turned into free space
     * could hold {@code bytes}, or no segment holds garbage. Each entry the batch writes pins its segment (the head
     * first), so garbage left in a segment the batch writes into is out of its reach until the batch ends: this
     * reclaims it before the first entry is written.
     *
     * @param bytes the bytes of the batch's regular entries in this shard.
     */
    void reclaimForBatch(final long bytes)
    {
        long room = arena.headFree();
        while (room < bytes)
        {
            final Segment victim = arena.choice().mostGarbage();
            if (victim == null)
            {
                return;
            }
            room += victim.used() - victim.live();
            compactInPlace(victim);
        }
    }

    void compactInPlace(final Segment victim)
    {
        final EntryCursor m = moveCursor;
        final int end = victim.used();
        int read = 0;
        int write = 0;
        while (read < end)
        {
            if (!m.wrap(victim.buffer, victim.id, read))
            {
                throw Shard.corrupt("entry unreadable in compaction");
            }
            final int length = m.length;
            if (!m.isDead())
            {
                if (write != read)
                {
                    final int tag = IndexLayout.tag(KeyHash.hash(m.buffer, m.keyOffset, m.keyLength, seed));
                    final int index = findSlot(IndexLayout.slot(tag, victim.id, read));
                    victim.buffer.putBytes(write, victim.buffer, read, length);
                    shard.table().put(index, IndexLayout.slot(tag, victim.id, write));
                }
                write += length;
            }
            read += length;
        }
        arena.onCompactedInPlace(victim, write);
    }

    int findSlot(final long slot)
    {
        final IndexTable t = shard.table();
        int i = t.home(IndexLayout.tagOf(slot));
        for (int probes = 0; probes <= t.mask; probes++)
        {
            final long s = t.get(i);
            if (s == slot)
            {
                return i;
            }
            if (s == IndexLayout.EMPTY)
            {
                break;
            }
            i = (i + 1) & t.mask;
        }
        throw Shard.corrupt("live entry not reachable from the index");
    }
}
