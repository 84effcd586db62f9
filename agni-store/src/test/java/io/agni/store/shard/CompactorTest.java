package io.agni.store.shard;

import io.agni.store.arena.Arena;
import io.agni.store.arena.Segment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copying compaction in bounded steps (docs/architecture.md, "Reuse of freed space"): what one write moves, and an
 * evacuation that users, {@code clear}, table growth, the sweep and the budget meet between its steps.
 */
class CompactorTest
{
    private static final int VALUE_LENGTH = 200;

    private final List<ShardDriver> drivers = new ArrayList<>();
    private final Map<Integer, byte[]> expected = new HashMap<>();
    private int version;

    @AfterEach
    void close()
    {
        drivers.forEach(ShardDriver::close);
    }

    private ShardDriver driver(final long budget)
    {
        final ShardDriver d = new ShardDriver(budget);
        drivers.add(d);
        return d;
    }

    @Test
    void aWriteMovesAtMostOneBoundedStepAndGarbageStaysNearTheThreshold()
    {
        final ShardDriver d = driver(256L * 1024 * 1024);
        final SplittableRandom random = new SplittableRandom(17);
        final int keys = 10_000;
        for (int k = 0; k < keys; k++)
        {
            put(d, k, random.nextInt(10, 1001));
        }
        long largest = 0;
        for (int write = 0; write < 200_000; write++)
        {
            final int k = random.nextInt(keys);
            final int length = random.nextInt(10, 1001);
            final long before = d.moved();
            put(d, k, length);
            final long moved = d.moved() - before;
            largest = Math.max(largest, moved);
            final int bound = Compactor.stepBytes(ShardDriver.entryLength(k, length));
            assertTrue(moved <= bound, "write " + write + " moved " + moved + " bytes, bound " + bound);
            final Arena arena = d.arena();
            assertTrue(arena.garbageBytes() <= arena.regularBytes() / 8 + 2L * Arena.MAX_SEGMENT_BYTES,
                "write " + write + ": compaction fell behind: garbage " + arena.garbageBytes() + " of regular " +
                arena.regularBytes());
        }
        assertTrue(largest > 0, "compaction never ran");
        d.verify();
        expectContents(d);
    }

    @Test
    void anEvacuationSurvivesOverwritesDeletesAndInPlaceRewritesOfItsEntries()
    {
        final ShardDriver d = driver(64L * 1024 * 1024);
        final Segment victim = startEvacuation(d, false);
        final List<Integer> ahead = keysIn(d, victim, true);
        assertTrue(ahead.size() >= 100, "too few entries left in the victim: " + ahead.size());
        final int inPlace = ahead.get(ahead.size() - 1);
        final int resized = ahead.get(ahead.size() - 2);
        final int deleted = ahead.get(ahead.size() - 3);

        put(d, inPlace, VALUE_LENGTH);
        assertEquals(victim.id, Arena.segmentIdOf(d.location(inPlace)), "rewritten in place, ahead of the step");
        d.verify();
        put(d, resized, VALUE_LENGTH + 300);
        d.verify();
        remove(d, deleted);
        d.verify();
        assertTrue(keysIn(d, victim, true).contains(inPlace), "the rewritten entry is still ahead of the step");
        assertSame(victim, d.victim(), "still being evacuated");

        // the rest moves on the sweep's ticks, a bounded step each
        finishWithTicks(d, victim);
        expectContents(d);
        assertEquals(List.of(), keysIn(d, victim, false), "keys left in the evacuated segment");
    }

    @Test
    void deletingTheLastLiveEntriesOfTheVictimEndsItsEvacuation()
    {
        final ShardDriver d = driver(64L * 1024 * 1024);
        final Segment victim = startEvacuation(d, false);
        final List<Integer> left = keysIn(d, victim, false);
        for (int i = 0; i < left.size(); i++)
        {
            assertSame(victim, d.victim(), "evacuation ended with " + (left.size() - i) + " entries left");
            remove(d, left.get(i));
            d.verify();
        }
        assertNull(d.victim(), "the emptied victim is no longer evacuated");
        assertEquals(0, victim.live());
        for (int k = 100_000; k < 100_400; k++)
        {
            put(d, k, VALUE_LENGTH);
        }
        d.verify();
        expectContents(d);
    }

    @Test
    void clearEndsTheEvacuation()
    {
        final ShardDriver d = driver(64L * 1024 * 1024);
        startEvacuation(d, false);
        d.clear();
        expected.clear();
        assertNull(d.victim());
        d.verify();
        final SplittableRandom random = new SplittableRandom(3);
        for (int write = 0; write < 20_000; write++)
        {
            put(d, random.nextInt(2_000), random.nextInt(10, 1001));
        }
        d.verify();
        expectContents(d);
    }

    @Test
    void theTableMayGrowBetweenSteps()
    {
        final ShardDriver d = driver(64L * 1024 * 1024);
        final Segment victim = startEvacuation(d, false);
        final int slots = d.shard.table().capacity();
        final long stamp = d.shard.lockWrite(null);
        try
        {
            d.shard.ensureRoomLocked(slots);
        }
        finally
        {
            d.shard.unlockWrite(stamp);
        }
        assertTrue(d.shard.table().capacity() > slots, "the table grew");
        assertSame(victim, d.victim());
        d.verify();
        finishWithTicks(d, victim);
        expectContents(d);
    }

    @Test
    void atTheBudgetAMoveRefusedEndsTheEvacuationAndWritesGoOnByCompactingInPlace()
    {
        final ShardDriver d = driver(64L * 1024 * 1024);
        final Segment victim = startEvacuation(d, true);
        // take the rest of the budget: the head and the spare are all the room there is
        d.memory.budget().tryReserve(d.memory.budget().limit() - d.memory.budget().reserved());
        int k = 200_000;
        while (d.victim() != null)
        {
            assertTrue(k < 200_100, "the evacuation never ended at the budget");
            put(d, k++, 6_000);
            d.verify();
        }
        assertTrue(victim.live() > 0, "the budget cut the evacuation short");
        final int used = victim.used();
        int least = used;
        for (int more = 0; more < 100; more++)
        {
            put(d, k++, 6_000);
            d.verify();
            remove(d, k - 1);
            least = Math.min(least, victim.used());
        }
        assertTrue(least < used, "the half-evacuated victim was compacted in place");
        expectContents(d);
    }

    @Test
    void atTheBudgetAWriteMayCompactTheVictimInPlaceWhichEndsItsEvacuation()
    {
        final ShardDriver d = driver(64L * 1024 * 1024);
        int k = 0;
        while (d.arena().regularBytes() < 2L * Arena.MAX_SEGMENT_BYTES || d.arena().headFree() > 1024)
        {
            put(d, k++, VALUE_LENGTH);
        }
        // the 128 KiB segment keeps a quarter of its entries, every smaller one is emptied (the 64 KiB one becomes
        // the spare), the first 256 KiB one and the head keep theirs
        final int half = Arena.MAX_SEGMENT_BYTES / 2;
        Segment victim = null;
        int inVictim = 0;
        for (int key = 0; key < k; key++)
        {
            final Segment s = d.arena().segments()[Arena.segmentIdOf(d.location(key))];
            if (s.capacity() == half)
            {
                victim = s;
                if (inVictim++ % 4 != 0)
                {
                    remove(d, key);
                }
            }
            else if (s.capacity() < half)
            {
                remove(d, key);
            }
        }
        assertNotNull(victim);
        put(d, k++, VALUE_LENGTH + 8);
        assertSame(victim, d.victim(), "the write started evacuating the segment with the fewest live bytes");
        assertTrue(d.compactor().resumeOffset() < victim.live(), "the step is early in the victim");
        d.memory.budget().tryReserve(d.memory.budget().limit() - d.memory.budget().reserved());

        // longer than the head's free tail (the spare, taken by the first step), so the budget refuses a segment
        final int length = d.arena().headFree() + 1_000;
        assertTrue(length < Arena.LARGE_ENTRY_BYTES - 1_000, "a regular entry");
        put(d, k, length);
        assertNull(d.victim(), "compacted in place, so no longer evacuated");
        assertEquals(victim.live(), victim.used(), "the victim was slid: nothing dead is left in it");
        assertEquals(victim.id, Arena.segmentIdOf(d.location(k)), "the write went to its freed tail");
        d.verify();
        expectContents(d);
    }

    /**
     * Fills a shard with 200-byte values until it holds three segments of the largest size, empties the smaller
     * segments (the largest of them becomes the spare), and deletes half of the entries of the first large one;
     * then one write starts its evacuation, which one step cannot finish. With {@code keepSecond}, the second large
     * segment keeps its entries and the head is filled first, so that the head and the spare are nearly all the
     * free room there is; else the second is emptied too, and becomes the spare.
     *
     * @return the victim.
     */
    private Segment startEvacuation(final ShardDriver d, final boolean keepSecond)
    {
        int k = 0;
        while (d.arena().regularBytes() < 3L * Arena.MAX_SEGMENT_BYTES || keepSecond && d.arena().headFree() > 1024)
        {
            put(d, k++, VALUE_LENGTH);
        }
        final int head = Arena.segmentIdOf(d.location(k - 1));
        Segment first = null;
        Segment second = null;
        for (final Segment s : d.arena().segments())
        {
            if (s != null && s.id != head && s.capacity() == Arena.MAX_SEGMENT_BYTES)
            {
                if (first == null)
                {
                    first = s;
                }
                else
                {
                    second = s;
                }
            }
        }
        assertNotNull(second);
        int inFirst = 0;
        for (int key = 0; key < k; key++)
        {
            final int segment = Arena.segmentIdOf(d.location(key));
            if (segment == first.id ? inFirst++ % 2 == 0 : segment != head && (segment != second.id || !keepSecond))
            {
                remove(d, key);
            }
        }
        assertNull(d.victim(), "deletes do not compact");
        put(d, k, VALUE_LENGTH + 8);
        assertSame(first, d.victim(), "the write started evacuating the segment with the fewest live bytes");
        assertTrue(d.compactor().resumeOffset() > 0, "the first step moved entries");
        d.verify();
        return first;
    }

    private void finishWithTicks(final ShardDriver d, final Segment victim)
    {
        final int maxTicks = victim.used() / 16 + 1;
        for (int tick = 0; d.victim() != null; tick++)
        {
            assertTrue(tick < maxTicks, "the evacuation did not end in " + maxTicks + " ticks");
            final long before = d.moved();
            d.tick();
            assertTrue(d.moved() - before <= Compactor.STEP_BYTES, "a tick moved " + (d.moved() - before));
            d.verify();
        }
        assertEquals(0, victim.live(), "every live entry left the victim");
    }

    /**
     * The keys whose entries are in {@code victim}, only those after the evacuation's resume offset if
     * {@code aheadOnly}.
     */
    private List<Integer> keysIn(final ShardDriver d, final Segment victim, final boolean aheadOnly)
    {
        final List<Integer> keys = new ArrayList<>();
        for (final int k : expected.keySet())
        {
            final long location = d.location(k);
            if (Arena.segmentIdOf(location) == victim.id && d.arena().segments()[victim.id] == victim &&
                (!aheadOnly || Arena.offsetOf(location) >= d.compactor().resumeOffset()))
            {
                keys.add(k);
            }
        }
        keys.sort(null);
        return keys;
    }

    private void put(final ShardDriver d, final int k, final int length)
    {
        final byte[] v = ShardDriver.value(k, ++version, length);
        d.set(k, v);
        expected.put(k, v);
    }

    private void remove(final ShardDriver d, final int k)
    {
        assertTrue(d.delete(k), "key " + k + " was present");
        expected.remove(k);
    }

    private void expectContents(final ShardDriver d)
    {
        for (final Map.Entry<Integer, byte[]> e : expected.entrySet())
        {
            assertArrayEquals(e.getValue(), d.get(e.getKey()), "key " + e.getKey());
        }
        assertEquals(expected.size(), d.shard.count());
    }
}
