package io.agni.testsupport;

import io.agni.api.StoreStats;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link StoreStats} is a value built field by field: what is not set is 0, equal fields make equal snapshots, and a
 * negative field is refused when it is set.
 */
class StoreStatsTest
{
    private static StoreStats full()
    {
        return StoreStats.builder().entries(1).entriesWithExpiry(2).hits(3).misses(4).expired(5).evicted(6)
            .rejectedWrites(7).offHeapBytes(8).liveEntryBytes(9).budgetBytes(10).build();
    }

    @Test
    void everyFieldReadsBackWhatWasSet()
    {
        final StoreStats stats = full();

        assertEquals(1, stats.entries());
        assertEquals(2, stats.entriesWithExpiry());
        assertEquals(3, stats.hits());
        assertEquals(4, stats.misses());
        assertEquals(5, stats.expired());
        assertEquals(6, stats.evicted());
        assertEquals(7, stats.rejectedWrites());
        assertEquals(8, stats.offHeapBytes());
        assertEquals(9, stats.liveEntryBytes());
        assertEquals(10, stats.budgetBytes());
        assertEquals(9.0 / 8, stats.utilisation());
    }

    @Test
    void aFieldNotSetIsZero()
    {
        final StoreStats stats = StoreStats.builder().hits(3).build();

        assertEquals(3, stats.hits());
        assertEquals(0, stats.misses());
        assertEquals(0, stats.budgetBytes());
        assertEquals(0.0, stats.utilisation(), "nothing held");
    }

    @Test
    void snapshotsWithEqualFieldsAreEqual()
    {
        assertEquals(full(), full());
        assertEquals(full().hashCode(), full().hashCode());
        assertNotEquals(full(), StoreStats.builder().entries(1).build());
        assertNotEquals(StoreStats.builder().misses(1).build(), StoreStats.builder().hits(1).build());
    }

    @Test
    void toStringNamesEveryField()
    {
        assertEquals("StoreStats{entries=1, entriesWithExpiry=2, hits=3, misses=4, expired=5, evicted=6, " +
            "rejectedWrites=7, offHeapBytes=8, liveEntryBytes=9, budgetBytes=10}", full().toString());
    }

    @Test
    void aNegativeFieldIsRefused()
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> StoreStats.builder().misses(-1));

        assertEquals("misses must not be negative: misses=-1", ex.getMessage());
    }
}
