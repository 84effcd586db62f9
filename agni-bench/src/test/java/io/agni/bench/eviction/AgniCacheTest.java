package io.agni.bench.eviction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agni.store.arena.Arena;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** agni replayed in process: the entry shape per case, one replay, and the budget search for an entry count. */
class AgniCacheTest {
    @ParameterizedTest
    @ValueSource(ints = {140, 200, 700, 865, 1000, 2000, 3500, 3800, 10_000, 100_000})
    void anEntryIsAPowerOfTwoThatFillsSegmentsAndASegmentIsAtMostOnePercentOfTheCache(int capacity) {
        EntryShape shape = EntryShape.forCapacity(capacity);
        int bytes = shape.entryBytes();
        assertEquals(1, Integer.bitCount(bytes), "entry bytes " + bytes);
        assertTrue(bytes >= EntryShape.MIN_ENTRY_BYTES && bytes <= EntryShape.MAX_ENTRY_BYTES);
        assertTrue(bytes == EntryShape.MAX_ENTRY_BYTES
                || Arena.FIRST_SEGMENT_BYTES / bytes <= EntryShape.MAX_SEGMENT_SHARE * capacity, "entry " + bytes);
        assertTrue(bytes == EntryShape.MIN_ENTRY_BYTES
                || Arena.FIRST_SEGMENT_BYTES / (bytes / 2) > EntryShape.MAX_SEGMENT_SHARE * capacity,
                "a smaller entry would do: " + bytes);
        assertEquals(bytes, EntryShape.probe(shape.valueLength()), "the value fills the entry");
        assertTrue(EntryShape.probe(shape.valueLength() + 1) > bytes, "the value is the longest that fits");
    }

    @Test
    void aKeyMissedOnceHitsUntilEvictedAndTheStoreNeverFillsForAFewKeys() {
        EntryShape shape = EntryShape.forCapacity(10_000);
        long[] trace = {1, 1, 2, 2, 1, 3, 2};
        AgniCache.Replay r = AgniCache.replay(trace, shape, 1 << 20, 1);
        assertEquals(100.0 * 4 / 7, r.hitRatio(), 1e-9);
        assertFalse(r.filled());
        assertEquals(3, r.meanHeld());
        assertEquals(0, r.refused());
        assertTrue(r.maxOffHeap() <= r.budget());
    }

    @Test
    void theBudgetSearchHoldsTheTargetEntryCountWithinTheTolerance() {
        int capacity = 2_000;
        long[] trace = Workloads.zipf(20_000, 0.9, 100_000, 7);
        AgniCache.Replay r = AgniCache.atEntryCount(trace, EntryShape.forCapacity(capacity), 1);
        assertTrue(r.filled(), "the store evicted");
        assertTrue(r.holds(capacity), "held " + r.meanHeld() + " for " + capacity);
        assertTrue(r.evicted() > 0);
        assertEquals(0, r.refused());
        assertTrue(r.maxOffHeap() <= r.budget());
        assertTrue(r.minHeld() <= r.meanHeld() && r.meanHeld() <= r.maxHeld());
        double lru = HitRatio.replay(new LruPolicy(capacity), trace);
        assertTrue(r.hitRatio() > lru / 2 && r.hitRatio() < 100, "agni " + r.hitRatio() + ", LRU " + lru);
    }
}
