package io.agni.store.arena;

import io.agni.store.index.IndexLayout;
import io.agni.store.memory.OffHeapMemory;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * The entry memory of one shard: a log of regular segments that entries are appended to, plus a dedicated segment
 * per large entry. Space freed by deletes and overwrites is reclaimed by compaction, which the shard drives
 * (docs/architecture.md, "Arena and compaction").
 *
 * <h2>Memory</h2>
 * Regular segments start at {@link #FIRST_SEGMENT_BYTES} and double up to {@link #MAX_SEGMENT_BYTES}, so a small
 * shard stays small and a large one wastes little at the tail of its newest segment; when the budget refuses the
 * next size, the smallest size that holds the entry is tried before the write is refused. An entry longer than
 * {@link #LARGE_ENTRY_BYTES} gets a segment of its own, released as soon as the entry dies. A regular segment whose
 * last live entry dies is kept as the one spare (or retired if there is one already).
 *
 * <h2>Concurrency</h2>
 * Every method runs under the owning shard's write lock, except {@link #segments()}, which optimistic readers call;
 * they get either the current array or an older one, and validate their stamp before trusting what they read.
 */
public final class Arena extends ArenaCountersPadding
{
    /**
     * Size of a shard's first regular segment.
     */
    public static final int FIRST_SEGMENT_BYTES = 4 * 1024;

    /**
     * Largest regular segment; offsets in a slot address at most this.
     */
    public static final int MAX_SEGMENT_BYTES = IndexLayout.MAX_OFFSET;

    /**
     * Entries longer than this get a dedicated segment.
     */
    public static final int LARGE_ENTRY_BYTES = 64 * 1024;

    /**
     * Returned by {@link #allocate(long)} when memory is refused.
     */
    public static final long NO_SPACE = -1;

    private final OffHeapMemory memory;
    private final SegmentChoice choice = new SegmentChoice(this);
    private final IntArrayList freeIds = new IntArrayList();
    /**
     * The segment table, which every read loads: in this class, after the padding, so that the counters writers
     * store to ({@link ArenaCounters}) are not on its cache line.
     */
    Segment[] segments = new Segment[8];

    /**
     * An empty arena.
     *
     * @param memory where segments come from.
     */
    public Arena(final OffHeapMemory memory)
    {
        this.memory = memory;
    }

    /**
     * Which segment compaction or eviction works on next.
     *
     * @return the arena's choices.
     */
    public SegmentChoice choice()
    {
        return choice;
    }

    /**
     * The segment table, indexed by id; slots may be {@code null}.
     *
     * @return the array (do not modify).
     */
    public Segment[] segments()
    {
        return segments;
    }

    /**
     * Reserves {@code length} bytes for a new entry, the location returned as {@code segmentId << 32 | offset}.
     * The caller writes the entry and then calls {@link #onWritten(int, int)}.
     *
     * @param length the entry's length, a long so that a length computed past the int range arrives as it is.
     * @return the location, or {@link #NO_SPACE} if the budget refuses.
     * @throws IllegalArgumentException if {@code length} is not positive or exceeds
     *                                  {@link EntryLayout#MAX_ENTRY_LENGTH}: the caller skipped
     *                                  {@code Limits.checkEntry}; nothing changed.
     */
    public long allocate(final long length)
    {
        return allocate(length, false);
    }

    /**
     * {@link #allocate(long)} into one of the two queues of a store that evicts: the small queue (where every entry
     * goes in a store that does not) or the main queue (docs/eviction.md). A segment holds entries of one queue.
     *
     * @param length the entry's length.
     * @param main   whether the entry joins the main queue.
     * @return the location, or {@link #NO_SPACE} if the budget refuses.
     */
    public long allocate(final long length, final boolean main)
    {
        if (length <= 0 || length > EntryLayout.MAX_ENTRY_LENGTH)
        {
            throw lengthOutOfRange(length);
        }
        return place((int)length, main);
    }

    private long place(final int length, final boolean main)
    {
        if (length > LARGE_ENTRY_BYTES)
        {
            return allocateDedicated(length, main);
        }
        final Segment h = main ? mainHead : head;
        if (h != null && h.capacity() - h.used >= length)
        {
            final int at = h.used;
            h.used = at + length;
            return location(h.id, at);
        }
        final Segment next = takeRegular(length);
        if (next == null)
        {
            return NO_SPACE;
        }
        next.main = main;
        if (main)
        {
            mainHead = next;
        }
        else
        {
            head = next;
        }
        if (h != null && h.live == 0)
        {
            recycle(h);
        }
        next.age = ++ages;
        next.used = length;
        return location(next.id, 0);
    }

    /**
     * Accounts a newly written entry as live.
     *
     * @param segmentId its segment.
     * @param length    its length.
     */
    public void onWritten(final int segmentId, final int length)
    {
        final Segment s = segments[segmentId];
        s.live += length;
        liveBytes += length;
        if (!s.dedicated)
        {
            regularLive += length;
        }
    }

    /**
     * Accounts an entry as garbage: marks it dead, and releases or recycles its segment if nothing live is left.
     *
     * @param segmentId its segment.
     * @param offset    where it starts.
     * @param length    its length.
     */
    public void onDead(final int segmentId, final int offset, final int length)
    {
        final Segment s = segments[segmentId];
        s.live -= length;
        liveBytes -= length;
        if (s.dedicated)
        {
            release(s);
            return;
        }
        regularLive -= length;
        EntryLayout.markDead(s.buffer, offset);
        if (s.live == 0)
        {
            if (s != head && s != mainHead)
            {
                recycle(s);
            }
            else
            {
                s.used = 0;
            }
        }
    }

    /**
     * Accounts an entry that was written but never linked (a refused or failed multi-key write) as gone: when it is
     * the last entry appended to the head, its bytes become the head's free tail again, else it is garbage as
     * {@link #onDead} makes it. Entries abandoned in the reverse of the order they were written thus give their
     * space back whole.
     *
     * @param segmentId its segment.
     * @param offset    where it starts.
     * @param length    its length.
     */
    public void onAbandoned(final int segmentId, final int offset, final int length)
    {
        final Segment s = segments[segmentId];
        if (s != head || offset + length != s.used)
        {
            onDead(segmentId, offset, length);
            return;
        }
        s.live -= length;
        liveBytes -= length;
        regularLive -= length;
        s.used = s.live == 0 ? 0 : offset;
    }

    /**
     * Marks a segment as holding one more entry that is not linked into the index yet, so that compaction skips it.
     *
     * @param segmentId the entry's segment.
     */
    public void pin(final int segmentId)
    {
        segments[segmentId].pins++;
    }

    /**
     * Undoes one {@link #pin(int)}: the entry was linked, or is about to be abandoned.
     *
     * @param segmentId the entry's segment.
     */
    public void unpin(final int segmentId)
    {
        segments[segmentId].pins--;
    }

    /**
     * Moves a segment of the small queue to the main queue, as the youngest of main: eviction promoted its remaining
     * entries and could not copy them to the main head. It becomes the main head if its free tail is larger.
     *
     * @param s a segment of the small queue.
     */
    public void promote(final Segment s)
    {
        if (s == head)
        {
            head = null;
        }
        s.main = true;
        s.age = ++ages;
        if (!s.dedicated && (mainHead == null || s.capacity() - s.used > mainHead.capacity() - mainHead.used))
        {
            mainHead = s;
        }
    }

    /**
     * Makes every segment one of the small queue again, for a store that stops evicting: with one queue, all room
     * goes to the one head.
     */
    public void mergeQueues()
    {
        for (int i = 1; i < nextId; i++)
        {
            final Segment s = segments[i];
            if (s != null)
            {
                s.main = false;
            }
        }
        mainHead = null;
    }

    /**
     * Counts a live entry with an expiry time in or out of its segment, wherever one is written, dies, moves or
     * changes its expiry flag in place.
     *
     * @param segmentId the entry's segment.
     * @param delta     +1 or -1.
     */
    public void countVolatile(final int segmentId, final int delta)
    {
        segments[segmentId].volatileEntries += delta;
    }

    /**
     * Gives the spare segment back to the budget, if there is one: a store over its budget keeps none.
     */
    public void releaseSpare()
    {
        final Segment s = spare;
        if (s != null)
        {
            spare = null;
            release(s);
        }
    }

    /**
     * Whether a segment is where one of the queues appends.
     *
     * @param s a segment.
     * @return {@code true} for the head or the main head.
     */
    public boolean isHead(final Segment s)
    {
        return s == head || s == mainHead;
    }

    /**
     * Gives the spare back to the budget, and the main queue's head if it holds no live entry while the shard has a
     * small head too (a shard that evicts has two heads, which at 256 KiB each can be more than a lowered budget's
     * share); with {@code smallToo}, then the small queue's head if it holds none, unless the store is over its
     * budget. Without it the shard keeps a place to write when the budget refuses every new segment; with it (while
     * the store recovers, when nothing else writes) the shard's next write takes a new segment, evicting for one.
     *
     * @param smallToo whether the small queue's head may go too.
     */
    public void releaseEmptyHeads(final boolean smallToo)
    {
        final Segment m = mainHead;
        if (m != null && m.live == 0 && m.pins == 0 && head != null)
        {
            recycle(m);
        }
        final Segment h = head;
        if (smallToo && h != null && h.live == 0 && h.pins == 0 && !memory.overBudget())
        {
            recycle(h);
        }
        releaseSpare();
    }

    /**
     * Gives a segment whose entries eviction passed over a second chance: it becomes the youngest.
     *
     * @param s a segment.
     */
    public void renew(final Segment s)
    {
        s.age = ++ages;
    }

    /**
     * Whether an entry of {@code length} bytes (a regular one) can be placed without a new segment from the budget.
     *
     * @param length the entry's length.
     * @return {@code true} if the head's free tail or the spare holds it.
     */
    public boolean hasRoomFor(final int length)
    {
        return hasRoomFor(length, false);
    }

    /**
     * {@link #hasRoomFor(int)} at the head of one queue.
     *
     * @param length the entry's length.
     * @param main   whether the entry joins the main queue.
     * @return {@code true} if that queue's head's free tail or the spare holds it.
     */
    public boolean hasRoomFor(final int length, final boolean main)
    {
        final Segment h = main ? mainHead : head;
        return (h != null && h.capacity() - h.used >= length) || (spare != null && spare.capacity() >= length);
    }

    /**
     * Whether the budget would give a new segment for an entry of {@code length} bytes: the smallest regular segment
     * that holds it, or a large entry's own, counting a spare too small for it as given back first (the arena does,
     * when the budget refuses). Eviction asks this as well as {@link #hasRoomFor}: an entry larger than every
     * segment the shard holds fits only in new memory, which segments that eviction empties give back.
     *
     * @param length the entry's length.
     * @return {@code true} if a segment for it would be granted now ({@link OffHeapMemory#hasRoom}); racy against
     *         other shards.
     */
    public boolean budgetHolds(final int length)
    {
        return memory.hasRoom(segmentBytesFor(length), spare == null ? 0 : spare.capacity());
    }

    /**
     * The smallest segment an entry can be given when the budget is tight: the smallest regular one that holds it,
     * or a large entry's own.
     *
     * @param length the entry's length.
     * @return bytes.
     */
    public static int segmentBytesFor(final int length)
    {
        return length > LARGE_ENTRY_BYTES ? length : smallestRegular(length);
    }

    /**
     * Records that a segment's live entries were slid to its start, leaving {@code used} bytes in use, and makes
     * it the head if its free tail is now larger than the head's.
     *
     * @param s    the segment compacted in place.
     * @param used the bytes its live entries now take.
     */
    public void onCompactedInPlace(final Segment s, final int used)
    {
        if (s == evacuating)
        {
            evacuating = null;
        }
        s.used = used;
        if (s.main)
        {
            if (mainHead == null || s.capacity() - used > mainHead.capacity() - mainHead.used)
            {
                mainHead = s;
                s.age = ++ages;
            }
        }
        else if (head == null || s.capacity() - used > head.capacity() - head.used)
        {
            head = s;
            s.age = ++ages;
        }
    }

    /**
     * Free bytes at the end of the head segment.
     *
     * @return bytes an entry can use without a new segment.
     */
    public int headFree()
    {
        return headFree(false);
    }

    /**
     * Free bytes at the end of one queue's head segment.
     *
     * @param main whether the main queue's head.
     * @return bytes an entry of that queue can use without a new segment.
     */
    public int headFree(final boolean main)
    {
        final Segment h = main ? mainHead : head;
        return h == null ? 0 : h.capacity() - h.used;
    }

    /**
     * Bytes held by regular segments that hold no live entry and are not free space at the head: what compaction
     * could reclaim.
     *
     * @return garbage bytes.
     */
    public long garbageBytes()
    {
        return regularBytes - regularLive - headFree(false) - headFree(true);
    }

    /**
     * Bytes held by regular segments in use (not the spare).
     *
     * @return bytes.
     */
    public long regularBytes()
    {
        return regularBytes;
    }

    /**
     * Marks the segment that copying compaction evacuates in steps, between writes. The mark is dropped when the
     * segment is recycled (its last live entry died or moved), compacted in place (its entries' offsets changed) or
     * released with everything else; so while {@link #evacuating()} returns it, its entries are where compaction
     * left them and its {@code used} does not change (it is neither head nor spare, so nothing is appended to it).
     *
     * @param victim a regular segment from {@link SegmentChoice#compactionVictim()}.
     */
    public void startEvacuation(final Segment victim)
    {
        evacuating = victim;
    }

    /**
     * The segment being evacuated, if any.
     *
     * @return the segment from {@link #startEvacuation(Segment)}, or {@code null} if there is none any more.
     */
    public Segment evacuating()
    {
        return evacuating;
    }

    /**
     * Moves the accounting of a live entry out of a segment being compacted (its bytes were copied elsewhere and
     * accounted there by {@link #onWritten(int, int)}).
     *
     * @param victim the segment being compacted.
     * @param offset where the entry was.
     * @param length its length.
     */
    public void onMoved(final Segment victim, final int offset, final int length)
    {
        victim.live -= length;
        liveBytes -= length;
        regularLive -= length;
        EntryLayout.markDead(victim.buffer, offset);
    }

    /**
     * Ends the evacuation of a segment, recycling it if compaction emptied it.
     *
     * @param victim the segment being evacuated.
     */
    public void onCompacted(final Segment victim)
    {
        if (victim == evacuating)
        {
            evacuating = null;
        }
        if (victim.live == 0)
        {
            if (victim != head && victim != mainHead)
            {
                recycle(victim);
            }
            else
            {
                victim.used = 0;
            }
        }
    }

    /**
     * Off-heap bytes held by this arena.
     *
     * @return bytes.
     */
    public long heldBytes()
    {
        return heldBytes;
    }

    /**
     * Bytes of live entries.
     *
     * @return bytes.
     */
    public long liveBytes()
    {
        return liveBytes;
    }

    /**
     * Gives every segment back: {@code retire} while the store stays open (clear), {@code free} at close.
     *
     * @param freeNow {@code true} to free at once (no reader can be running), {@code false} to retire.
     */
    public void releaseAll(final boolean freeNow)
    {
        for (int i = 1; i < nextId; i++)
        {
            final Segment s = segments[i];
            if (s != null)
            {
                segments[i] = null;
                if (freeNow)
                {
                    memory.free(s.buffer);
                }
                else
                {
                    memory.retire(s.buffer);
                }
            }
        }
        segments = new Segment[8];
        freeIds.clear();
        nextId = 1;
        head = null;
        mainHead = null;
        spare = null;
        evacuating = null;
        nextRegularBytes = FIRST_SEGMENT_BYTES;
        heldBytes = 0;
        regularBytes = 0;
        regularLive = 0;
        liveBytes = 0;
    }

    private long allocateDedicated(final int length, final boolean main)
    {
        Segment s = newSegment(length, true);
        if (s == null && spare != null)
        {
            // a full budget: the spare's bytes serve better as part of this entry's segment
            releaseSpare();
            s = newSegment(length, true);
        }
        if (s == null)
        {
            return NO_SPACE;
        }
        s.main = main;
        s.age = ++ages;
        s.used = length;
        return location(s.id, 0);
    }

    private Segment takeRegular(final int length)
    {
        final Segment s = spare;
        if (s != null && s.capacity() >= length)
        {
            spare = null;
            s.used = 0;
            s.live = 0;
            regularBytes += s.capacity();
            return s;
        }
        int size = nextRegularBytes;
        while (size < length)
        {
            size <<= 1;
        }
        Segment fresh = newSegment(size, false);
        if (fresh != null)
        {
            nextRegularBytes = Math.min(MAX_SEGMENT_BYTES, Math.max(nextRegularBytes, size << 1));
        }
        else
        {
            // near the budget, the next size in the doubling may not fit where the smallest that holds the entry does
            final int smallest = smallestRegular(length);
            if (smallest < size)
            {
                size = smallest;
                fresh = newSegment(size, false);
            }
            if (fresh == null && spare != null)
            {
                // a spare too small for this entry: its bytes may make up what the budget lacks
                releaseSpare();
                size = smallest;
                fresh = newSegment(size, false);
            }
        }
        if (fresh != null)
        {
            regularBytes += size;
        }
        return fresh;
    }

    private static int smallestRegular(final int length)
    {
        int size = FIRST_SEGMENT_BYTES;
        while (size < length)
        {
            size <<= 1;
        }
        return size;
    }

    private Segment newSegment(final int capacity, final boolean dedicated)
    {
        final int id;
        if (!freeIds.isEmpty())
        {
            id = freeIds.removeAt(freeIds.size() - 1);
        }
        else if (nextId <= IndexLayout.MAX_SEGMENT_ID)
        {
            id = nextId;
        }
        else
        {
            return null;
        }
        final UnsafeBuffer buffer = memory.allocate(capacity);
        if (buffer == null)
        {
            if (id != nextId)
            {
                freeIds.addInt(id);
            }
            return null;
        }
        if (id == nextId)
        {
            nextId++;
        }
        if (id >= segments.length)
        {
            segments = Arrays.copyOf(segments, Math.max(segments.length * 2, id + 1));
        }
        final Segment s = new Segment(id, buffer, dedicated);
        segments[id] = s;
        heldBytes += capacity;
        return s;
    }

    private void recycle(final Segment s)
    {
        if (s == evacuating)
        {
            evacuating = null;
        }
        if (s == mainHead)
        {
            mainHead = null;
        }
        if (s == head)
        {
            head = null;
        }
        s.main = false;
        regularBytes -= s.capacity();
        if (spare == null)
        {
            s.used = 0;
            s.live = 0;
            s.volatileEntries = 0;
            spare = s;
        }
        else if (spare.capacity() < s.capacity())
        {
            final Segment old = spare;
            s.used = 0;
            s.live = 0;
            s.volatileEntries = 0;
            spare = s;
            release(old);
        }
        else
        {
            release(s);
        }
    }

    private void release(final Segment s)
    {
        segments[s.id] = null;
        freeIds.addInt(s.id);
        heldBytes -= s.capacity();
        memory.retire(s.buffer);
    }

    private static IllegalArgumentException lengthOutOfRange(final long length)
    {
        return new IllegalArgumentException(
            "entry length out of range: length=" + length + ", limit=" + EntryLayout.MAX_ENTRY_LENGTH);
    }

    private static long location(final int segmentId, final int offset)
    {
        return ((long)segmentId << 32) | offset;
    }

    /**
     * The segment id of a location.
     *
     * @param location from {@link #allocate(long)}.
     * @return the id.
     */
    public static int segmentIdOf(final long location)
    {
        return (int)(location >>> 32);
    }

    /**
     * The offset of a location.
     *
     * @param location from {@link #allocate(long)}.
     * @return the offset.
     */
    public static int offsetOf(final long location)
    {
        return (int)location;
    }
}
