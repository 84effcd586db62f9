package io.agni.bench.eviction;

import java.util.List;
import java.util.Locale;

/**
 * Issue 20's acceptance rule for a candidate policy, against LRU (column 0) and Caffeine (column 1): on every case
 * at least the better of the two minus {@value #MARGIN} points, and on average over all cases at least each of
 * them.
 */
final class Acceptance {
    static final double MARGIN = 2.0;

    private Acceptance() {
    }

    /** Whether {@code candidate} meets the rule over the rows (each: LRU, Caffeine, ...). */
    static boolean meets(double[][] results, int candidate) {
        double sum = 0;
        double lru = 0;
        double caffeine = 0;
        for (double[] row : results) {
            if (row[candidate] < Math.max(row[0], row[1]) - MARGIN) {
                return false;
            }
            sum += row[candidate];
            lru += row[0];
            caffeine += row[1];
        }
        return sum >= lru && sum >= caffeine;
    }

    static String report(List<String> cases, List<String> policies, double[][] results) {
        StringBuilder out = new StringBuilder();
        double[] mean = new double[policies.size()];
        for (double[] row : results) {
            for (int p = 0; p < row.length; p++) {
                mean[p] += row[p] / results.length;
            }
        }
        out.append(String.format(Locale.ROOT, "mean over %d cases: LRU %.2f, Caffeine %.2f%n",
                results.length, mean[0], mean[1]));
        for (int p = 2; p < policies.size(); p++) {
            StringBuilder misses = new StringBuilder();
            double worst = Double.POSITIVE_INFINITY;
            for (int c = 0; c < results.length; c++) {
                double margin = results[c][p] - (Math.max(results[c][0], results[c][1]) - MARGIN);
                worst = Math.min(worst, margin);
                if (margin < 0) {
                    misses.append(String.format(Locale.ROOT, "%n    misses %s by %.2f", cases.get(c), -margin));
                }
            }
            out.append(String.format(Locale.ROOT, "%s: %s; mean %.2f; worst margin %+.2f%s%n", policies.get(p),
                    meets(results, p) ? "MEETS the rule" : "does not meet the rule", mean[p], worst, misses));
        }
        return out.toString();
    }
}
