package io.agni.bench.eviction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Invariants every simulated policy keeps, whatever it evicts. */
class SimulatorsTest {
    private static final long[] TRACE = mixed();

    private static long[] mixed() {
        long[] zipf = Workloads.zipf(20_000, 0.9, 150_000, 5);
        long[] trace = new long[zipf.length + 20_000];
        System.arraycopy(zipf, 0, trace, 0, 60_000);
        for (int i = 0; i < 20_000; i++) {
            trace[60_000 + i] = 1_000_000 + i % 4_000;
        }
        System.arraycopy(zipf, 60_000, trace, 80_000, zipf.length - 60_000);
        return trace;
    }

    @ParameterizedTest
    @ValueSource(strings = {"lru", "caffeine", "s3fifo", "s3fifo:small=0.2,ghost=0.5,move=2,scan=4", "sieve",
        "sieve:scan=3", "clock-tinylfu", "clock-tinylfu:window=0", "clock-tinylfu:window=0.2,bits=1,scan=2"})
    void neverExceedsCapacityAndHitsOnlyKeysSeenBefore(String spec) {
        for (int capacity : new int[] {2, 3, 17, 1000}) {
            Policy policy = PolicySpec.parse(spec).factory().apply(capacity);
            Set<Long> seen = new HashSet<>();
            long hits = 0;
            for (long key : TRACE) {
                boolean hit = policy.access(key);
                if (hit) {
                    assertTrue(seen.contains(key), () -> spec + ": hit on a key never requested");
                    hits++;
                }
                seen.add(key);
                assertTrue(policy.size() <= capacity, () -> spec + ": size " + policy.size() + " > " + capacity);
            }
            assertTrue(hits > 0, spec);
            if (!spec.startsWith("caffeine")) {
                assertEquals(capacity, policy.size(), spec + ": a full trace leaves the cache full");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lru", "s3fifo", "sieve", "clock-tinylfu"})
    void replayIsDeterministic(String spec) {
        PolicySpec parsed = PolicySpec.parse(spec);
        double first = HitRatio.replay(parsed.factory().apply(700), TRACE);
        double second = HitRatio.replay(parsed.factory().apply(700), TRACE);
        assertEquals(first, second);
    }

    @ParameterizedTest
    @ValueSource(strings = {"lru", "s3fifo", "sieve"})
    void aKeyJustMissedIsCachedByTheNextRequest(String spec) {
        Policy policy = PolicySpec.parse(spec).factory().apply(50);
        for (long key : TRACE) {
            if (!policy.access(key)) {
                assertTrue(policy.access(key), spec);
            }
        }
    }

    @Test
    void s3FifoQueuesAndGhostStayWithinTheirShares() {
        S3FifoPolicy policy = new S3FifoPolicy(1000, 0.1, 0.9, 1, 64);
        for (long key : TRACE) {
            policy.access(key);
            assertEquals(policy.size(), policy.smallSize() + policy.mainSize());
            assertTrue(policy.ghostSize() <= 900);
        }
        assertTrue(policy.ghostSize() > 0);
    }

    @Test
    void clockTinyLfuWindowStaysWithinItsShare() {
        ClockTinyLfuPolicy policy = new ClockTinyLfuPolicy(1000, 0.05, 2, 1.0, 10, 64);
        for (long key : TRACE) {
            policy.access(key);
            assertEquals(policy.size(), policy.windowSize() + policy.mainSize());
            assertTrue(policy.windowSize() <= 50);
        }
    }

    @Test
    void s3FifoKeepsAHotSetThroughAScanThatLruLoses() {
        int capacity = 100;
        S3FifoPolicy s3fifo = new S3FifoPolicy(capacity, 0.1, 0.9, 1, 64);
        LruPolicy lru = new LruPolicy(capacity);
        for (int round = 0; round < 5; round++) {
            for (long hot = 0; hot < 50; hot++) {
                s3fifo.access(hot);
                lru.access(hot);
            }
        }
        for (long scanned = 1000; scanned < 1300; scanned++) {
            s3fifo.access(scanned);
            lru.access(scanned);
        }
        int s3fifoHits = 0;
        int lruHits = 0;
        for (long hot = 0; hot < 50; hot++) {
            s3fifoHits += s3fifo.access(hot) ? 1 : 0;
            lruHits += lru.access(hot) ? 1 : 0;
        }
        assertEquals(50, s3fifoHits);
        assertEquals(0, lruHits);
    }

    @Test
    void sieveEvictsAnUnvisitedEntryBeforeAVisitedOne() {
        SievePolicy sieve = new SievePolicy(3, 64);
        sieve.access(1);
        sieve.access(2);
        sieve.access(3);
        sieve.access(1); // visited; 2 and 3 are not
        assertFalse(sieve.access(4)); // the hand passes 1 and evicts 2
        assertTrue(sieve.access(1));
        assertTrue(sieve.access(3));
        assertFalse(sieve.access(2));
    }

    @Test
    void ghostForgetsTheOldestHashBeyondItsCapacity() {
        Ghost ghost = new Ghost(3);
        ghost.add(1);
        ghost.add(2);
        ghost.add(3);
        ghost.add(4);
        assertFalse(ghost.remove(1));
        assertTrue(ghost.remove(2));
        assertFalse(ghost.remove(2));
        ghost.add(3); // again: the newer insertion is the one remembered
        ghost.add(5);
        ghost.add(6);
        assertTrue(ghost.remove(3));
        assertEquals(2, ghost.size());
    }
}
