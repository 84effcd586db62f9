package io.agni.bench.eviction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The hit-ratio harness (issue 20): replays the cache2k traces and the synthetic workloads as a read-through cache
 * (a GET, and on a miss a SET) and prints two Markdown tables of hit ratios (%).
 *
 * <ul>
 *   <li><b>At an equal entry count</b> (the policy's quality): the simulated policies, LRU, Caffeine
 *       ({@code maximumSize}) and the candidates for the store, each holding the case's entry count, and agni itself
 *       in process ({@link AgniCache}) at the budget that makes it hold that count on average, with the mean it
 *       held beside it; then the static optimum, and issue 20's acceptance rule for each candidate and for agni.</li>
 *   <li><b>At equal bytes</b> (the whole system's efficiency): agni at that budget, Caffeine with
 *       {@code maximumWeight} of the same bytes and a weigher of key plus value bytes ({@link CaffeineWeightPolicy}),
 *       and Redis over the network ({@link RedisCache}: {@code allkeys-lru} and {@code allkeys-lfu},
 *       {@code maxmemory-samples} 5 and 10) with the same bytes for its dataset; then the check that agni is at
 *       least each Redis policy on every case.</li>
 * </ul>
 *
 * <p>Usage: {@code HitRatio [--traces DIR] [--cases SELECTOR,...] [--systems lru,caffeine,policies,agni,redis]
 * [--policies SPEC;SPEC;...] [--caffeine-runs N] [--agni-shards N] [--redis-server PATH] [--redis-window N]
 * [--redis-rate R] [--redis-flags "FLAGS"]}. A case selector is {@code all}, {@code traces}, {@code zipf}, {@code mix}, a workload
 * ({@code web07}, {@code orm-busy}, {@code zipf-0.90}) or a workload at one size ({@code web12@700}). The default
 * directory is {@code agni-bench/traces/cache2k} (or {@code traces/cache2k} when run from agni-bench); the default
 * policies S3-FIFO, SIEVE and CLOCK-TinyLFU with their defaults, and CLOCK-TinyLFU with the larger window that came
 * closest (docs/eviction.md); the default systems all five. The acceptance rule needs LRU and Caffeine; the
 * equal-bytes table needs agni (its budget is the one the others get).
 *
 * <p>Caffeine is the one simulated policy that is not deterministic (see {@link CaffeinePolicy}): it is replayed
 * {@code --caffeine-runs} times (default {@value #DEFAULT_CAFFEINE_RUNS}), its column is the mean and the next
 * column the range seen; the byte-bounded Caffeine is the mean of as many runs.
 *
 * <p>agni runs with one shard by default ({@code --agni-shards}): the replay is single-threaded, so more shards buy
 * no concurrency, while they would split the cache into independent caches of a share of the entries each (a
 * 140-entry cache into caches of about 17 at the default shard count of a 2-core machine), each evicting on its own,
 * and make the figures depend on the machine's core count. One shard is the store's policy on one cache of the
 * case's size, as the simulations are.
 */
public final class HitRatio {
    /** The traces, their sizes as in issue 20. */
    static final String[] TRACES = {"web07", "web12", "orm-night", "orm-busy"};
    static final int[][] TRACE_SIZES = {
        {200, 1000, 2000, 5000}, {140, 700, 1400, 3500}, {865, 4300, 8600, 21600}, {760, 3800, 7600, 19000}
    };
    static final double[] ALPHAS = {0.6, 0.9, 0.99, 1.2};
    static final double[] CACHE_SHARES = {0.01, 0.05, 0.10};
    static final long SEED = 20L;
    /** Replays of Caffeine per case, averaged. */
    static final int DEFAULT_CAFFEINE_RUNS = 5;
    /** The label of agni's column in the tables. */
    static final String AGNI_LABEL = "agni";
    /** The systems {@code --systems} chooses from. */
    static final List<String> SYSTEMS = List.of("lru", "caffeine", "policies", "agni", "redis");

    private HitRatio() {
    }

    /** One trace at one cache size. */
    record Case(String workload, int capacity, long[] trace, int[] frequencies) {
        double optimum() {
            return StaticOptimum.percent(frequencies, trace.length, capacity);
        }

        String label() {
            return workload + " " + capacity;
        }
    }

    /**
     * Runs the harness.
     *
     * @param args see the class comment
     * @throws IOException if a trace cannot be read or Redis fails
     */
    public static void main(String[] args) throws IOException {
        Options o = Options.parse(args);
        long started = System.nanoTime();
        List<PolicySpec> specs = new ArrayList<>();
        if (o.systems().contains("lru")) {
            specs.add(PolicySpec.parse("lru"));
        }
        int caffeine = -1;
        if (o.systems().contains("caffeine")) {
            caffeine = specs.size();
            specs.add(PolicySpec.parse("caffeine"));
        }
        boolean rule = specs.size() == 2;
        if (o.systems().contains("policies")) {
            for (String s : o.policies().split(";")) {
                if (!s.isBlank() && !s.equals("lru") && !s.equals("caffeine")) {
                    specs.add(PolicySpec.parse(s.trim()));
                }
            }
        }
        boolean agni = o.systems().contains("agni");
        boolean redis = o.systems().contains("redis");
        List<String> labels = new ArrayList<>(specs.stream().map(PolicySpec::label).toList());
        if (agni) {
            labels.add(AGNI_LABEL);
        }
        List<Case> all = cases(o.traces(), o.cases());
        double[][] results = new double[all.size()][labels.size()];
        List<EqualBytes.Row> bytesRows = new ArrayList<>();
        List<AgniCache.Replay> agniReplays = new ArrayList<>();
        System.out.println("## At an equal entry count");
        System.out.println();
        printHeader(labels, caffeine, agni);
        for (int c = 0; c < all.size(); c++) {
            Case k = all.get(c);
            long caseStart = System.nanoTime();
            for (int p = 0; p < specs.size(); p++) {
                if (p != caffeine) {
                    results[c][p] = replay(specs.get(p).factory().apply(k.capacity()), k.trace());
                }
            }
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int run = 0; caffeine >= 0 && run < o.caffeineRuns(); run++) {
                double r = replay(specs.get(caffeine).factory().apply(k.capacity()), k.trace());
                results[c][caffeine] += r / o.caffeineRuns();
                min = Math.min(min, r);
                max = Math.max(max, r);
            }
            AgniCache.Replay a = null;
            if (agni) {
                EntryShape shape = EntryShape.forCapacity(k.capacity());
                a = AgniCache.atEntryCount(k.trace(), shape, o.agniShards());
                agniReplays.add(a);
                results[c][labels.size() - 1] = a.hitRatio();
                bytesRows.add(EqualBytes.measure(k, shape, a, o, caffeine >= 0, redis));
            }
            printRow(k, results[c], caffeine, min, max, a);
            System.err.printf(Locale.ROOT, "%s done in %.1f s%n", k.label(), (System.nanoTime() - caseStart) / 1e9);
        }
        System.out.println();
        if (agni) {
            System.out.print(heldReport(all, agniReplays, o.agniShards()));
        }
        if (rule) {
            System.out.print(Acceptance.report(all.stream().map(Case::label).toList(), labels, results));
        } else {
            System.out.println("(the acceptance rule needs LRU and Caffeine: --systems lru,caffeine,...)");
        }
        if (agni) {
            System.out.println();
            System.out.print(EqualBytes.report(bytesRows, caffeine >= 0, redis, o));
        }
        System.out.printf(Locale.ROOT, "%nrun time %.0f s%n", (System.nanoTime() - started) / 1e9);
    }

    /** The line under the equal-count table that checks the entries agni held against the target. */
    static String heldReport(List<Case> cases, List<AgniCache.Replay> replays, int shards) {
        StringBuilder misses = new StringBuilder();
        StringBuilder refused = new StringBuilder();
        int held = 0;
        for (int c = 0; c < cases.size(); c++) {
            AgniCache.Replay r = replays.get(c);
            if (r.refused() > 0) {
                refused.append(String.format(Locale.ROOT, "%n    %s: %,d SETs refused", cases.get(c).label(),
                        r.refused()));
            }
            if (r.holds(cases.get(c).capacity())) {
                held++;
            } else {
                misses.append(String.format(Locale.ROOT, "%n    %s: held %,.0f (%+.1f %%)", cases.get(c).label(),
                        r.meanHeld(), 100 * (r.meanHeld() / cases.get(c).capacity() - 1)));
            }
        }
        return String.format(Locale.ROOT, "agni (%d shard%s, ALL_KEYS): held its case's entry count within %.0f %% "
                + "(mean from the first eviction on) in %d of %d cases%s%n%s", shards, shards == 1 ? "" : "s",
                100 * AgniCache.TOLERANCE, held, cases.size(), misses,
                refused.isEmpty() ? "" : "agni refused SETs (it found nothing to evict):" + refused + "\n");
    }

    /**
     * Replays a trace as a read-through cache.
     *
     * @param policy an empty policy
     * @param trace the keys
     * @return the hit ratio in percent
     */
    public static double replay(Policy policy, long[] trace) {
        long hits = 0;
        for (long key : trace) {
            if (policy.access(key)) {
                hits++;
            }
        }
        return trace.length == 0 ? 0 : 100.0 * hits / trace.length;
    }

    /**
     * The cases the selectors name, in the harness's order.
     *
     * @param traces the traces' directory
     * @param which  comma-separated selectors (see the class comment)
     * @return the cases
     * @throws IOException if a trace cannot be read
     */
    static List<Case> cases(Path traces, String which) throws IOException {
        List<String> selectors = List.of(which.split(","));
        List<Case> cases = new ArrayList<>();
        for (int t = 0; t < TRACES.length; t++) {
            String name = TRACES[t];
            if (wanted(selectors, "traces", name, TRACE_SIZES[t])) {
                long[] trace = TraceReader.read(traces.resolve(name + ".trace.gz"), TraceReader.Format.INT32);
                int[] frequencies = StaticOptimum.frequenciesDescending(trace);
                for (int size : TRACE_SIZES[t]) {
                    if (selected(selectors, "traces", name, size)) {
                        cases.add(new Case(name, size, trace, frequencies));
                    }
                }
            }
        }
        int[] shareSizes = new int[CACHE_SHARES.length];
        for (int i = 0; i < CACHE_SHARES.length; i++) {
            shareSizes[i] = (int) (Workloads.ZIPF_KEYS * CACHE_SHARES[i]);
        }
        for (double alpha : ALPHAS) {
            String workload = String.format(Locale.ROOT, "zipf %.2f", alpha);
            for (int capacity : shareSizes) {
                if (selected(selectors, "zipf", workload.replace(' ', '-'), capacity)) {
                    long[] trace = Workloads.zipf(Workloads.ZIPF_KEYS, alpha,
                            Workloads.REQUESTS_PER_ENTRY * capacity, SEED);
                    cases.add(new Case(workload, capacity, trace, StaticOptimum.frequenciesDescending(trace)));
                }
            }
        }
        for (int capacity : shareSizes) {
            if (selected(selectors, "mix", "mix", capacity)) {
                long[] trace = Workloads.shiftingMix(capacity, SEED);
                cases.add(new Case("mix", capacity, trace, StaticOptimum.frequenciesDescending(trace)));
            }
        }
        if (cases.isEmpty()) {
            throw new IllegalArgumentException("no case matches --cases " + which
                    + " (all, traces, zipf, mix, a workload such as web07 or zipf-0.90, or one at a size: web12@700)");
        }
        return cases;
    }

    private static boolean wanted(List<String> selectors, String group, String name, int[] sizes) {
        for (int size : sizes) {
            if (selected(selectors, group, name, size)) {
                return true;
            }
        }
        return false;
    }

    private static boolean selected(List<String> selectors, String group, String name, int size) {
        for (String raw : selectors) {
            String s = raw.trim();
            if (s.equals("all") || s.equals(group) || s.equals(name) || s.equals(name + "@" + size)) {
                return true;
            }
        }
        return false;
    }

    private static void printHeader(List<String> labels, int caffeine, boolean agni) {
        StringBuilder head = new StringBuilder("| workload | size |");
        StringBuilder rule = new StringBuilder("| --- | ---: |");
        for (int p = 0; p < labels.size(); p++) {
            head.append(' ').append(labels.get(p)).append(" |");
            rule.append(" ---: |");
            if (p == caffeine) {
                head.append(" Caffeine range |");
                rule.append(" ---: |");
            }
        }
        if (agni) {
            head.append(" agni held |");
            rule.append(" ---: |");
        }
        System.out.println(head.append(" optimum |"));
        System.out.println(rule.append(" ---: |"));
    }

    private static void printRow(Case k, double[] row, int caffeine, double caffeineMin, double caffeineMax,
            AgniCache.Replay agni) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "| %s | %,d |", k.workload(), k.capacity()));
        for (int p = 0; p < row.length; p++) {
            line.append(String.format(Locale.ROOT, " %.2f |", row[p]));
            if (p == caffeine) {
                line.append(String.format(Locale.ROOT, " %.2f-%.2f |", caffeineMin, caffeineMax));
            }
        }
        if (agni != null) {
            line.append(String.format(Locale.ROOT, " %,.0f |", agni.meanHeld()));
        }
        System.out.println(line.append(String.format(Locale.ROOT, " %.2f |", k.optimum())));
    }
}
