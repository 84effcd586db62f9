package io.agni.testsupport;

import io.agni.api.CapacityExceededException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract of the whole-store operations: scan (complete, with patterns, while the store grows), size, clear
 * and stats. Part of {@link AgniStoreContract}.
 */
public abstract class ScanAndStatsContract extends DirectMultiKeyContract
{
    /**
     * The most steps a scan may take before the contract calls it endless.
     */
    protected static final int MAX_SCAN_STEPS = 1_000_000;

    /**
     * The keys the pattern tests scan over.
     */
    protected static final List<String> PATTERN_KEYS = List.of(
        "user:1", "user:2", "user:10", "users", "usr:1", "abc", "aXc", "ac", "abbc", "a*c", "a?c", "bcd", "cab",
        "[ab]", "x\\y", "");

    // ------------------------------------------------------------------------------------------------------------
    // scan
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void scanOfEmptyStoreCompletesWithNoKeys()
    {
        assertEquals(Set.of(), scanAll(null, 10));
    }

    @ParameterizedTest(name = "count={0}")
    @ValueSource(ints = {1, 10, 1000})
    public void scanReturnsEveryKeyWhateverTheCount(final int count)
    {
        final Set<ByteArrayKey> expected = new HashSet<>();
        for (int i = 0; i < 300; i++)
        {
            final byte[] key = bytes("key:" + i);
            store.set(key, bytes("v" + i));
            expected.add(new ByteArrayKey(key));
        }
        store.set(new byte[0], bytes("empty key"));
        store.set(allByteValues(), bytes("binary key"));
        expected.add(new ByteArrayKey(new byte[0]));
        expected.add(new ByteArrayKey(allByteValues()));

        assertEquals(new TreeSet<>(expected), new TreeSet<>(scanAll(null, count)));
    }

    static Stream<Arguments> patterns()
    {
        return Stream.of(
            Arguments.of("user:*", List.of("user:1", "user:2", "user:10")),
            Arguments.of("user:?", List.of("user:1", "user:2")),
            Arguments.of("a?c", List.of("abc", "aXc", "a*c", "a?c")),
            Arguments.of("a*c", List.of("abc", "aXc", "ac", "abbc", "a*c", "a?c")),
            Arguments.of("[ab]*", List.of("abc", "aXc", "ac", "abbc", "a*c", "a?c", "bcd")),
            Arguments.of("[^a]*",
                List.of("user:1", "user:2", "user:10", "users", "usr:1", "bcd", "cab", "[ab]", "x\\y")),
            Arguments.of("[a-b]c*", List.of("ac", "bcd")),
            Arguments.of("a\\*c", List.of("a*c")),
            Arguments.of("a\\?c", List.of("a?c")),
            Arguments.of("\\[ab\\]", List.of("[ab]")),
            Arguments.of("x\\\\y", List.of("x\\y")),
            Arguments.of("*", PATTERN_KEYS),
            Arguments.of("u*s", List.of("users")),
            Arguments.of("nomatch*", List.of()),
            Arguments.of("", List.of("")));
    }

    @ParameterizedTest(name = "pattern \"{0}\"")
    @MethodSource("patterns")
    public void scanWithPatternReturnsExactlyTheMatchingKeys(final String pattern, final List<String> expected)
    {
        for (final String key : PATTERN_KEYS)
        {
            store.set(bytes(key), bytes("v"));
        }
        final Set<String> expectedKeys = new TreeSet<>(expected);

        for (final int count : new int[] {1, 5, 100})
        {
            final Set<String> found = new TreeSet<>();
            for (final ByteArrayKey key : scanAll(bytes(pattern), count))
            {
                found.add(text(key.bytes()));
            }
            assertEquals(expectedKeys, found, "count=" + count);
        }
    }

    @Test
    public void scanSkipsExpiredKeys()
    {
        store.set(bytes("live"), bytes("v"));
        store.set(bytes("dead"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, anHourAgo());

        assertEquals(Set.of(ByteArrayKey.of("live")), scanAll(null, 10));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    public void scanRejectsACountBelowOne(final int count)
    {
        assertThrows(IllegalArgumentException.class, () -> store.scan(0, null, count));
    }

    @Test
    public void scanWhileTheStoreGrowsReturnsEveryKeyPresentThroughout()
    {
        final Set<ByteArrayKey> present = new HashSet<>();
        for (int i = 0; i < 100; i++)
        {
            final byte[] key = bytes("pre:" + i);
            store.set(key, bytes("v"));
            present.add(new ByteArrayKey(key));
        }

        final Set<ByteArrayKey> found = new HashSet<>();
        long cursor = 0;
        int steps = 0;
        int added = 0;
        boolean full = false;
        do
        {
            final ScanResult result = store.scan(cursor, null, 7);
            result.keys().forEach(k -> found.add(new ByteArrayKey(k)));
            cursor = result.cursor();
            // Grow in bursts between steps, so that the index doubles while the scan is in progress.
            for (int i = 0; i < 400 && !full && added < 4000; i++)
            {
                try
                {
                    store.set(bytes("grown:" + added), bytes("value-" + added));
                    added++;
                }
                catch (final CapacityExceededException ex)
                {
                    full = true;
                }
            }
            if (++steps > MAX_SCAN_STEPS)
            {
                fail("scan did not complete in " + MAX_SCAN_STEPS + " steps");
            }
        }
        while (cursor != 0);

        final Set<ByteArrayKey> missing = new TreeSet<>(present);
        missing.removeAll(found);
        assertEquals(Set.of(), missing, "keys present for the whole scan but never returned (" + added + " added)");
    }

    @Test
    public void scanWhileOtherKeysAreDeletedReturnsTheKeysThatStay()
    {
        final Set<ByteArrayKey> staying = new HashSet<>();
        for (int i = 0; i < 200; i++)
        {
            store.set(bytes("stay:" + i), bytes("v"));
            store.set(bytes("go:" + i), bytes("v"));
            staying.add(ByteArrayKey.of("stay:" + i));
        }

        final Set<ByteArrayKey> found = new HashSet<>();
        long cursor = 0;
        int steps = 0;
        int deleted = 0;
        do
        {
            final ScanResult result = store.scan(cursor, null, 5);
            result.keys().forEach(k -> found.add(new ByteArrayKey(k)));
            cursor = result.cursor();
            for (int i = 0; i < 10 && deleted < 200; i++)
            {
                store.delete(bytes("go:" + deleted++));
            }
            if (++steps > MAX_SCAN_STEPS)
            {
                fail("scan did not complete in " + MAX_SCAN_STEPS + " steps");
            }
        }
        while (cursor != 0);

        final Set<ByteArrayKey> missing = new TreeSet<>(staying);
        missing.removeAll(found);
        assertEquals(Set.of(), missing);
    }

    @Test
    public void scanResultsBelongToTheCaller()
    {
        store.set(bytes("k"), bytes("v"));
        final ScanResult first = store.scan(0, null, 1000);

        for (final byte[] key : first.keys())
        {
            key[0] = 'z';
        }

        assertEquals(Set.of(ByteArrayKey.of("k")), scanAll(null, 1000));
    }

    /**
     * Runs a scan to completion.
     *
     * @param pattern the pattern or {@code null}.
     * @param count   the work per step.
     * @return every key returned, duplicates merged.
     */
    protected final Set<ByteArrayKey> scanAll(final byte[] pattern, final int count)
    {
        final Set<ByteArrayKey> found = new HashSet<>();
        long cursor = 0;
        int steps = 0;
        do
        {
            final ScanResult result = store.scan(cursor, pattern, count);
            for (final byte[] key : result.keys())
            {
                found.add(new ByteArrayKey(key));
            }
            cursor = result.cursor();
            if (++steps > MAX_SCAN_STEPS)
            {
                fail("scan did not complete in " + MAX_SCAN_STEPS + " steps");
            }
        }
        while (cursor != 0);
        return found;
    }

    // ------------------------------------------------------------------------------------------------------------
    // size / clear
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void sizeCountsEntries()
    {
        assertEquals(0, store.size());
        store.set(bytes("a"), bytes("1"));
        store.set(bytes("b"), bytes("2"));
        store.set(bytes("c"), bytes("3"));
        assertEquals(3, store.size());

        store.set(bytes("b"), bytes("22"));
        assertEquals(3, store.size(), "an overwrite adds no entry");

        store.delete(bytes("a"));
        assertEquals(2, store.size());
        store.getAndDelete(bytes("b"));
        assertEquals(1, store.size());
    }

    @Test
    public void sizeCountsOnlyLiveEntriesOnceExpiredOnesAreReclaimed()
    {
        requireFakeClock();
        assumeTrue(fixture.canReclaimExpired(), "needs a way to reclaim expired entries now");
        store.set(bytes("a"), bytes("1"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        store.set(bytes("b"), bytes("2"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 20);
        store.set(bytes("c"), bytes("3"));

        fixture.advanceTime(10);
        final long sizeBeforeReclaim = store.size();
        assertTrue(sizeBeforeReclaim == 2 || sizeBeforeReclaim == 3, "size " + sizeBeforeReclaim);

        fixture.reclaimExpired();
        assertEquals(2, store.size());
        fixture.advanceTime(10);
        fixture.reclaimExpired();
        assertEquals(1, store.size());
    }

    @Test
    public void clearRemovesEveryEntry()
    {
        for (int i = 0; i < 50; i++)
        {
            store.set(bytes("k" + i), bytes("v" + i));
        }
        store.set(bytes("timed"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));

        store.clear();

        assertEquals(0, store.size());
        assertNull(store.get(bytes("k7")));
        assertNull(store.get(bytes("timed")));
        assertEquals(Set.of(), scanAll(null, 100));
    }

    @Test
    public void storeWorksAsNewAfterClear()
    {
        store.set(bytes("k"), bytes("old"));
        store.clear();
        store.clear();

        store.set(bytes("k"), bytes("new"));
        assertEquals(7, store.incrementBy(bytes("n"), 7));

        assertValue("new", "k");
        assertEquals(2, store.size());
    }

    // ------------------------------------------------------------------------------------------------------------
    // stats (a remote store may not be able to report all of these)
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void statsCountHitsAndMissesOfReads()
    {
        store.set(bytes("a"), bytes("1"));
        final StoreStats before = store.stats();

        store.get(bytes("a"));
        store.get(bytes("a"));
        store.get(bytes("b"));
        store.get(bytes("b"));
        store.get(bytes("c"));
        store.get(bufferWith(bytes("a"), 0), 0, 1, guardedBuffer(4), 0);
        store.get(bufferWith(bytes("z"), 0), 0, 1, guardedBuffer(4), 0);

        final StoreStats after = store.stats();
        assertEquals(3, after.hits() - before.hits(), "hits");
        assertEquals(4, after.misses() - before.misses(), "misses");
    }

    @Test
    public void statsCountAReadOfAnExpiredKeyAsAMiss()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, anHourAgo());
        final StoreStats before = store.stats();

        store.get(bytes("k"));

        final StoreStats after = store.stats();
        assertEquals(0, after.hits() - before.hits(), "hits");
        assertEquals(1, after.misses() - before.misses(), "misses");
    }

    @Test
    public void statsCountEntriesAndEntriesWithExpiry()
    {
        store.set(bytes("p1"), bytes("v"));
        store.set(bytes("p2"), bytes("v"));
        store.set(bytes("p3"), bytes("7"));
        store.set(bytes("t1"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));
        store.set(bytes("t2"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));
        assertEntries(5, 2);

        store.persist(bytes("t1"));
        assertEntries(5, 1);
        store.expire(bytes("p1"), hoursAhead(1), ExpireCondition.ALWAYS);
        assertEntries(5, 2);
        store.set(bytes("t2"), bytes("plain now"));
        assertEntries(5, 1);
        store.incrementBy(bytes("p3"), 1);
        store.append(bytes("p1"), bytes("more"));
        assertEntries(5, 1);
        store.getAndExpire(bytes("p2"), ExpiryMode.AT, hoursAhead(2));
        assertEntries(5, 2);
        store.getAndExpire(bytes("p2"), ExpiryMode.CLEAR, 0);
        assertEntries(5, 1);
        store.set(bytes("p2"), bytes("v"), SetCondition.IF_PRESENT, ExpiryMode.AT, hoursAhead(1));
        assertEntries(5, 2);
        store.delete(bytes("p1"));
        assertEntries(4, 1);
        store.getAndDelete(bytes("p2"));
        assertEntries(3, 0);
        store.clear();
        assertEntries(0, 0);
    }

    private void assertEntries(final long entries, final long withExpiry)
    {
        final StoreStats stats = store.stats();
        assertEquals(entries, stats.entries(), "entries");
        assertEquals(withExpiry, stats.entriesWithExpiry(), "entriesWithExpiry");
    }

    @Test
    public void statsCountEachExpiredEntryOnceWhenReclaimed()
    {
        requireFakeClock();
        assumeTrue(fixture.canReclaimExpired(), "needs a way to reclaim expired entries now");
        store.set(bytes("plain"), bytes("v"));
        for (int i = 0; i < 3; i++)
        {
            store.set(bytes("t" + i), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        }
        final long expiredBefore = store.stats().expired();

        fixture.advanceTime(10);
        assertNull(store.get(bytes("t0")), "observed expired on access");
        store.delete(bytes("t1"));
        fixture.reclaimExpired();
        fixture.reclaimExpired();

        final StoreStats stats = store.stats();
        assertEquals(3, stats.expired() - expiredBefore, "expired");
        assertEquals(1, stats.entries(), "entries");
        assertEquals(0, stats.entriesWithExpiry(), "entriesWithExpiry");
        assertEquals(1, store.size());
    }

    @Test
    public void statsReportMemoryWithinTheBudget()
    {
        final StoreStats empty = store.stats();
        assertTrue(empty.offHeapBytes() <= empty.budgetBytes(), "empty: " + empty);
        assertEquals(0, empty.liveEntryBytes(), "empty: " + empty);

        for (int i = 0; i < 100; i++)
        {
            store.set(bytes("k" + i), patterned(100, i));
        }
        final StoreStats full = store.stats();
        assertTrue(full.offHeapBytes() <= full.budgetBytes(), "after writes: " + full);
        assertTrue(full.liveEntryBytes() >= 100 * 100, "live bytes hold at least the values: " + full);
        assertTrue(full.liveEntryBytes() <= full.offHeapBytes(), "live bytes are inside held bytes: " + full);
        assertTrue(full.utilisation() > 0 && full.utilisation() <= 1.0, "utilisation: " + full);
        assertEquals(0, full.rejectedWrites(), "rejectedWrites");
        assertEquals(0, full.evicted(), "evicted");
        assertEquals(empty.budgetBytes(), full.budgetBytes(), "budget is fixed");

        store.clear();
        assertEquals(0, store.stats().liveEntryBytes(), "after clear");
    }

    @Test
    public void statsLiveEntryBytesFollowValueSizes()
    {
        store.set(bytes("k"), patterned(10, 1));
        final long small = store.stats().liveEntryBytes();
        store.set(bytes("k"), patterned(1010, 1));
        final long large = store.stats().liveEntryBytes();
        store.delete(bytes("k"));
        final long none = store.stats().liveEntryBytes();

        assertTrue(large - small >= 1000 && large - small <= 1000 + 64,
            "a value 1000 bytes longer holds about 1000 more live bytes: " + small + " -> " + large);
        assertEquals(0, none);
    }

    @Test
    public void directSetWithKeyAndValueInTheSameBytesWorks()
    {
        final UnsafeBuffer key = bufferWith(bytes("k"), 0);
        store.set(key, 0, 1, key, 0, 1);

        assertEquals(1, store.size());
        assertEquals(1, store.stats().entries());
        assertEquals(Set.of(ByteArrayKey.of("k")), scanAll(bytes("k"), 1));
    }
}
