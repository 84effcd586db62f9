package io.agni.bench.eviction;

import java.util.SplittableRandom;

/**
 * The synthetic workloads of issue 20, all seeded: Zipf over a fixed key space, and the shifting mix (a Zipf phase,
 * a loop over more keys than fit, Zipf again), where a recency-only policy loses the hot set during the loop.
 */
public final class Workloads {
    /** The key space of the Zipf workloads. */
    public static final int ZIPF_KEYS = 1_000_000;
    /** Requests per cached entry in a Zipf workload (the issue asks for at least 50). */
    public static final int REQUESTS_PER_ENTRY = 50;

    private Workloads() {
    }

    /**
     * A Zipf-distributed trace: key {@code r} (1-based rank) is drawn with probability proportional to
     * {@code 1 / r^alpha}.
     *
     * @param keys the key space size
     * @param alpha the skew
     * @param requests the trace length
     * @param seed the random seed
     * @return the keys, 1 to {@code keys}
     */
    public static long[] zipf(int keys, double alpha, int requests, long seed) {
        double[] cdf = zipfCdf(keys, alpha);
        long[] trace = new long[requests];
        fillZipf(trace, 0, requests, cdf, new SplittableRandom(seed));
        return trace;
    }

    /**
     * The shifting mix: {@code 20 x capacity} Zipf requests (α 0.9 over {@link #ZIPF_KEYS} keys), then 5 passes of a
     * loop over {@code 2 x capacity} keys that the Zipf phases never ask for, then {@code 20 x capacity} Zipf
     * requests again: 50 x capacity requests in all.
     *
     * @param capacity the cache size the mix is made for
     * @param seed the random seed
     * @return the keys
     */
    public static long[] shiftingMix(int capacity, long seed) {
        double[] cdf = zipfCdf(ZIPF_KEYS, 0.9);
        int zipfPhase = 20 * capacity;
        int loopKeys = 2 * capacity;
        int loopPasses = 5;
        long[] trace = new long[2 * zipfPhase + loopPasses * loopKeys];
        SplittableRandom random = new SplittableRandom(seed);
        fillZipf(trace, 0, zipfPhase, cdf, random);
        int at = zipfPhase;
        for (int pass = 0; pass < loopPasses; pass++) {
            for (int i = 0; i < loopKeys; i++) {
                trace[at++] = ZIPF_KEYS + 1L + i;
            }
        }
        fillZipf(trace, at, trace.length, cdf, random);
        return trace;
    }

    private static double[] zipfCdf(int keys, double alpha) {
        double[] cdf = new double[keys];
        double sum = 0;
        for (int r = 1; r <= keys; r++) {
            sum += 1 / Math.pow(r, alpha);
            cdf[r - 1] = sum;
        }
        for (int i = 0; i < keys; i++) {
            cdf[i] /= sum;
        }
        return cdf;
    }

    private static void fillZipf(long[] trace, int from, int to, double[] cdf, SplittableRandom random) {
        for (int i = from; i < to; i++) {
            double u = random.nextDouble();
            int lo = 0;
            int hi = cdf.length - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cdf[mid] < u) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            trace[i] = lo + 1L;
        }
    }
}
