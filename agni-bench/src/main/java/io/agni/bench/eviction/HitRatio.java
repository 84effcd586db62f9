package io.agni.bench.eviction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The hit-ratio harness (issue 20): replays the cache2k traces and the synthetic workloads against each policy at an
 * equal entry count, as a read-through cache, and prints one Markdown table of hit ratios (%) with the static
 * optimum, then the acceptance rule for each candidate against LRU and Caffeine.
 *
 * <p>Usage: {@code HitRatio [--traces DIR] [--cases all|traces|zipf|mix] [--policies SPEC;SPEC;...]
 * [--caffeine-runs N]}, where a SPEC is as {@link PolicySpec#parse}; the default directory is
 * {@code agni-bench/traces/cache2k} (or {@code traces/cache2k} when run from agni-bench), the default policies LRU,
 * Caffeine, S3-FIFO, SIEVE and CLOCK-TinyLFU with their defaults, and CLOCK-TinyLFU with the larger window that came
 * closest (docs/eviction.md). LRU and Caffeine are always run: the rule is stated against them.
 *
 * <p>Caffeine is the one policy that is not deterministic (see {@link CaffeinePolicy}): it is replayed
 * {@code --caffeine-runs} times (default {@value #DEFAULT_CAFFEINE_RUNS}), its column is the mean and the next
 * column the range seen.
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
    private static final String DEFAULT_POLICIES = "s3fifo;sieve;clock-tinylfu;clock-tinylfu:window=0.2,width=2";
    /** Replays of Caffeine per case, averaged. */
    static final int DEFAULT_CAFFEINE_RUNS = 5;

    private HitRatio() {
    }

    /** One trace at one cache size. */
    record Case(String workload, int capacity, long[] trace, int[] frequencies) {
        double optimum() {
            return StaticOptimum.percent(frequencies, trace.length, capacity);
        }
    }

    /**
     * Runs the harness.
     *
     * @param args see the class comment
     * @throws IOException if a trace cannot be read
     */
    public static void main(String[] args) throws IOException {
        Path traces = Files.isDirectory(Path.of("agni-bench/traces/cache2k"))
                ? Path.of("agni-bench/traces/cache2k") : Path.of("traces/cache2k");
        String cases = "all";
        String policies = DEFAULT_POLICIES;
        int caffeineRuns = DEFAULT_CAFFEINE_RUNS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--traces" -> traces = Path.of(args[++i]);
                case "--cases" -> cases = args[++i];
                case "--policies" -> policies = args[++i];
                case "--caffeine-runs" -> caffeineRuns = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        List<PolicySpec> specs = new ArrayList<>();
        specs.add(PolicySpec.parse("lru"));
        specs.add(PolicySpec.parse("caffeine"));
        for (String s : policies.split(";")) {
            if (!s.isBlank() && !s.equals("lru") && !s.equals("caffeine")) {
                specs.add(PolicySpec.parse(s.trim()));
            }
        }
        List<Case> all = cases(traces, cases);
        double[][] results = new double[all.size()][specs.size()];
        printHeader(specs);
        for (int c = 0; c < all.size(); c++) {
            Case k = all.get(c);
            for (int p = 0; p < specs.size(); p++) {
                if (p != 1) {
                    results[c][p] = replay(specs.get(p).factory().apply(k.capacity()), k.trace());
                }
            }
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int run = 0; run < caffeineRuns; run++) {
                double r = replay(specs.get(1).factory().apply(k.capacity()), k.trace());
                results[c][1] += r / caffeineRuns;
                min = Math.min(min, r);
                max = Math.max(max, r);
            }
            printRow(k, results[c], min, max);
        }
        System.out.println();
        System.out.print(Acceptance.report(all.stream().map(k -> k.workload() + " " + k.capacity()).toList(),
                specs.stream().map(PolicySpec::label).toList(), results));
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

    static List<Case> cases(Path traces, String which) throws IOException {
        List<Case> cases = new ArrayList<>();
        if (which.equals("all") || which.equals("traces")) {
            for (int t = 0; t < TRACES.length; t++) {
                long[] trace = TraceReader.read(traces.resolve(TRACES[t] + ".trace.gz"), TraceReader.Format.INT32);
                int[] frequencies = StaticOptimum.frequenciesDescending(trace);
                for (int size : TRACE_SIZES[t]) {
                    cases.add(new Case(TRACES[t], size, trace, frequencies));
                }
            }
        }
        if (which.equals("all") || which.equals("zipf")) {
            for (double alpha : ALPHAS) {
                for (double share : CACHE_SHARES) {
                    int capacity = (int) (Workloads.ZIPF_KEYS * share);
                    long[] trace = Workloads.zipf(Workloads.ZIPF_KEYS, alpha,
                            Workloads.REQUESTS_PER_ENTRY * capacity, SEED);
                    cases.add(new Case(String.format(Locale.ROOT, "zipf %.2f", alpha), capacity, trace,
                            StaticOptimum.frequenciesDescending(trace)));
                }
            }
        }
        if (which.equals("all") || which.equals("mix")) {
            for (double share : CACHE_SHARES) {
                int capacity = (int) (Workloads.ZIPF_KEYS * share);
                long[] trace = Workloads.shiftingMix(capacity, SEED);
                cases.add(new Case("mix", capacity, trace, StaticOptimum.frequenciesDescending(trace)));
            }
        }
        return cases;
    }

    private static void printHeader(List<PolicySpec> specs) {
        StringBuilder head = new StringBuilder("| workload | size |");
        StringBuilder rule = new StringBuilder("| --- | ---: |");
        for (PolicySpec s : specs) {
            head.append(' ').append(s.label()).append(" |");
            rule.append(" ---: |");
            if (s.label().equals("Caffeine")) {
                head.append(" Caffeine range |");
                rule.append(" ---: |");
            }
        }
        System.out.println(head.append(" optimum |"));
        System.out.println(rule.append(" ---: |"));
    }

    private static void printRow(Case k, double[] row, double caffeineMin, double caffeineMax) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "| %s | %,d |", k.workload(), k.capacity()));
        for (int p = 0; p < row.length; p++) {
            line.append(String.format(Locale.ROOT, " %.2f |", row[p]));
            if (p == 1) {
                line.append(String.format(Locale.ROOT, " %.2f-%.2f |", caffeineMin, caffeineMax));
            }
        }
        System.out.println(line.append(String.format(Locale.ROOT, " %.2f |", k.optimum())));
    }
}
