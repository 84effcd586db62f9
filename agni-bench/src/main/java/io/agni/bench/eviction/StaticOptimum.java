package io.agni.bench.eviction;

import java.util.Arrays;

/**
 * The static optimum of a trace: the share of its requests that go to the {@code capacity} most frequent keys,
 * what a cache holding exactly those keys from the start would hit. Not a bound on an online policy (which pays the
 * first miss of every key but may follow a shifting hot set), a reference point.
 */
public final class StaticOptimum {
    private StaticOptimum() {
    }

    /**
     * Computes the frequencies of a trace's keys once.
     *
     * @param trace the keys
     * @return the request count of each distinct key, largest first
     */
    public static int[] frequenciesDescending(long[] trace) {
        long[] sorted = trace.clone();
        Arrays.sort(sorted);
        int[] counts = new int[sorted.length];
        int distinct = 0;
        for (int i = 0; i < sorted.length;) {
            int j = i;
            while (j < sorted.length && sorted[j] == sorted[i]) {
                j++;
            }
            counts[distinct++] = j - i;
            i = j;
        }
        int[] result = Arrays.copyOf(counts, distinct);
        Arrays.sort(result);
        for (int i = 0, k = distinct - 1; i < k; i++, k--) {
            int t = result[i];
            result[i] = result[k];
            result[k] = t;
        }
        return result;
    }

    /**
     * The static optimum hit ratio.
     *
     * @param descending the frequencies from {@link #frequenciesDescending}
     * @param requests the trace's length
     * @param capacity the cache size in entries
     * @return the hit ratio in percent
     */
    public static double percent(int[] descending, int requests, int capacity) {
        long hits = 0;
        for (int i = 0; i < Math.min(capacity, descending.length); i++) {
            hits += descending[i];
        }
        return requests == 0 ? 0 : 100.0 * hits / requests;
    }
}
