package io.agni.store.shard;

import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.Segment;
import io.agni.store.hash.KeyHash;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;

/**
 * Reclaims the garbage of one shard's arena (docs/architecture.md, "Reuse of freed space"): after a write,
 * copying compaction of the segment with the fewest live bytes into the head when garbage passes 1/8 of the
 * regular segment bytes; when the budget refuses a new segment, compaction in place of the segment with the most
 * non-live bytes. A moved entry's slot is found by hashing its key and probing for the exact old slot word.
 *
 * <h2>Concurrency</h2>
 * Every method runs under the owning shard's write lock, so optimistic readers of moved entries fail validation.
 */
final class Compactor
{
    private final ShardStorage shard;
    private final Arena arena;
    private final long seed;
    private final EntryCursor moveCursor = new EntryCursor();

    Compactor(final ShardStorage shard, final Arena arena, final long seed)
    {
        this.shard = shard;
        this.arena = arena;
        this.seed = seed;
    }

    void maybeCompact()
    {
        final long garbage = arena.garbageBytes();
        if (garbage < Arena.FIRST_SEGMENT_BYTES || garbage * 8 <= arena.regularBytes())
        {
            return;
        }
        final Segment victim = arena.compactionVictim();
        if (victim != null)
        {
            compact(victim);
        }
    }

    private void compact(final Segment victim)
    {
        final EntryCursor m = moveCursor;
        final int end = victim.used();
        int p = 0;
        while (p < end && victim.live() > 0)
        {
            if (!m.wrap(victim.buffer, victim.id, p))
            {
                throw Shard.corrupt("entry unreadable in compaction");
            }
            final int length = m.length;
            if (!m.isDead())
            {
                final int tag = IndexLayout.tag(KeyHash.hash(m.buffer, m.keyOffset, m.keyLength, seed));
                final long oldSlot = IndexLayout.slot(tag, victim.id, p);
                final int index = findSlot(oldSlot);
                final long location = arena.allocate(length);
                if (location == Arena.NO_SPACE)
                {
                    return;
                }
                final int segmentId = Arena.segmentIdOf(location);
                final int offset = Arena.offsetOf(location);
                arena.segments()[segmentId].buffer.putBytes(offset, victim.buffer, p, length);
                arena.onWritten(segmentId, length);
                shard.table().put(index, IndexLayout.slot(tag, segmentId, offset));
                arena.onMoved(victim, p, length);
            }
            p += length;
        }
        arena.onCompacted(victim);
    }

    /**
     * When the budget refuses a new segment, makes room for a regular entry without one: slides the live entries of
     * the segment with the most non-live bytes to its start and appends at its freed tail. The segment holding the
     * entry being replaced is left alone, since the caller still reads it.
     *
     * @return whether the head now has room for {@code length} bytes.
     */
    boolean reclaimInPlace(final int length, final int excludedSegmentId)
    {
        if (length > Arena.LARGE_ENTRY_BYTES)
        {
            return false;
        }
        for (int attempt = 0; attempt < 4 && arena.headFree() < length; attempt++)
        {
            final Segment victim = arena.mostReclaimable(excludedSegmentId);
            if (victim == null || victim.capacity() - victim.live() < length)
            {
                return false;
            }
            compactInPlace(victim);
        }
        return arena.headFree() >= length;
    }

    private void compactInPlace(final Segment victim)
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

    private int findSlot(final long slot)
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
