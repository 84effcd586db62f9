package io.agni.bench.eviction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadsTest {
    @Test
    void zipfIsSeededAndInRangeWithTheFirstRanksMostFrequent() {
        long[] a = Workloads.zipf(1000, 1.0, 50_000, 9);
        assertArrayEquals(a, Workloads.zipf(1000, 1.0, 50_000, 9));
        assertFalse(Arrays.equals(a, Workloads.zipf(1000, 1.0, 50_000, 10)));
        int[] counts = new int[1001];
        for (long key : a) {
            assertTrue(key >= 1 && key <= 1000, "key " + key);
            counts[(int) key]++;
        }
        // With alpha 1 over 1000 keys, rank 1 takes 1/H(1000) ~ 13.4 % and rank 2 half of that.
        assertEquals(0.134, counts[1] / 50_000.0, 0.01);
        assertEquals(2.0, counts[1] / (double) counts[2], 0.25);
    }

    @Test
    void shiftingMixIsZipfThenALoopOverTwiceTheCapacityThenZipf() {
        int capacity = 100;
        long[] mix = Workloads.shiftingMix(capacity, 4);
        assertEquals(50 * capacity, mix.length);
        for (int i = 0; i < 2000; i++) {
            assertTrue(mix[i] <= Workloads.ZIPF_KEYS);
            assertTrue(mix[3000 + i] <= Workloads.ZIPF_KEYS);
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals(Workloads.ZIPF_KEYS + 1L + i % 200, mix[2000 + i]);
        }
    }

    @Test
    void staticOptimumIsTheShareOfTheMostFrequentKeys() {
        long[] trace = {5, 1, 5, 2, 5, 1, 3, 5};
        int[] frequencies = StaticOptimum.frequenciesDescending(trace);
        assertArrayEquals(new int[] {4, 2, 1, 1}, frequencies);
        assertEquals(50.0, StaticOptimum.percent(frequencies, trace.length, 1));
        assertEquals(75.0, StaticOptimum.percent(frequencies, trace.length, 2));
        assertEquals(100.0, StaticOptimum.percent(frequencies, trace.length, 10));
    }

    @Test
    void acceptanceRuleNeedsEveryCaseWithinTwoPointsAndTheMeanAtLeastBoth() {
        double[][] meets = {{50, 60, 58.5}, {80, 70, 81}};
        assertTrue(Acceptance.meets(meets, 2));
        double[][] caseMiss = {{50, 60, 57.9}, {80, 70, 90}};
        assertFalse(Acceptance.meets(caseMiss, 2));
        double[][] meanMiss = {{60, 50, 58.5}, {60, 50, 58.5}};
        assertFalse(Acceptance.meets(meanMiss, 2));
        String report = Acceptance.report(List.of("a 1", "b 2"), List.of("LRU", "Caffeine", "X"), caseMiss);
        assertTrue(report.contains("misses a 1 by 0.10"), report);
    }
}
