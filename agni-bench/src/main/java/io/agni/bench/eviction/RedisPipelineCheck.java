package io.agni.bench.eviction;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks that the harness's pipelined Redis replay ({@link RedisCache}) gives the hit ratio of a strictly sequential
 * read-through replay (a GET, its reply, then the SET of a miss, its reply), on small cases where the strict replay
 * takes seconds. For each Redis policy it replays the case three ways: strictly (window 1), pipelined and paced to
 * the strict replay's speed, and pipelined as fast as Redis answers. The first two differ only in the windows; the
 * third also in speed, which {@code allkeys-lru} feels (its clock ticks once a second). The check is on the first
 * two: their means over {@code --runs} replays (default {@value #DEFAULT_RUNS}) within {@value #TOLERANCE} point.
 * Redis evicts among randomly sampled keys, so one replay differs from the next: the strict replays' range is printed
 * beside the means. Since a replay of {@code allkeys-lfu} that runs across the turn of a
 * minute sees its counters decay and loses a few tenths of a point, and the strict and the paced replays each take
 * tens of seconds, the check runs {@code allkeys-lfu} with {@code --lfu-decay-time 0} (no decay): what is checked
 * is the windows, not Redis's clocks.
 *
 * <p>Usage: {@code RedisPipelineCheck [--runs N] [--traces DIR] [--cases SELECTOR,...] [--redis-server PATH]}, cases
 * as {@link HitRatio}'s, default {@value #DEFAULT_CASES}.
 */
public final class RedisPipelineCheck {
    /** The largest difference in points the check allows between the strict and the paced pipelined replay. */
    static final double TOLERANCE = 0.1;
    static final String DEFAULT_CASES = "zipf-0.99@10000,mix@10000";
    static final int DEFAULT_RUNS = 3;

    private RedisPipelineCheck() {
    }

    /**
     * Runs the check.
     *
     * @param args see the class comment
     * @throws IOException if a trace cannot be read or Redis fails
     */
    public static void main(String[] args) throws IOException {
        int runs = DEFAULT_RUNS;
        List<String> rest = new ArrayList<>();
        boolean casesGiven = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runs") && i + 1 < args.length) {
                runs = Integer.parseInt(args[++i]);
            } else {
                casesGiven |= args[i].equals("--cases");
                rest.add(args[i]);
            }
        }
        rest.addAll(List.of("--systems", "agni,redis"));
        if (!casesGiven) {
            rest.addAll(List.of("--cases", DEFAULT_CASES));
        }
        Options o = Options.parse(rest.toArray(new String[0]));
        List<HitRatio.Case> cases = HitRatio.cases(o.traces(), o.cases());
        System.out.printf(Locale.ROOT, "mean of %d replays each%n%n", runs);
        System.out.println("| case | Redis policy | window | strict | strict range | pipelined, paced | difference | "
                + "pipelined, unpaced | strict req/s | unpaced req/s |");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        boolean all = true;
        for (HitRatio.Case k : cases) {
            EntryShape shape = EntryShape.forCapacity(k.capacity());
            long budget = AgniCache.atEntryCount(k.trace(), shape, o.agniShards()).budget();
            int window = o.redisWindow() > 0 ? o.redisWindow() : RedisCache.window(shape.valueLength());
            for (RedisCache.Variant v : RedisCache.VARIANTS) {
                Path server = o.redisServer();
                String flags = (o.redisFlags() + (v.policy().endsWith("lfu") ? " --lfu-decay-time 0" : "")).trim();
                double strict = 0;
                double paced = 0;
                double speed = 0;
                double min = Double.POSITIVE_INFINITY;
                double max = Double.NEGATIVE_INFINITY;
                for (int run = 0; run < runs; run++) {
                    RedisCache.Replay s = RedisCache.replay(server, v, flags, k.trace(), shape, budget, 1, 0);
                    RedisCache.Replay p = RedisCache.replay(server, v, flags, k.trace(), shape, budget, window,
                            s.requestsPerSecond());
                    strict += s.hitRatio() / runs;
                    paced += p.hitRatio() / runs;
                    speed += s.requestsPerSecond() / runs;
                    min = Math.min(min, s.hitRatio());
                    max = Math.max(max, s.hitRatio());
                }
                RedisCache.Replay fast = RedisCache.replay(server, v, flags, k.trace(), shape, budget, window, 0);
                double difference = paced - strict;
                all &= Math.abs(difference) <= TOLERANCE;
                System.out.printf(Locale.ROOT, "| %s | %s | %d | %.2f | %.2f-%.2f | %.2f | %+.2f | %.2f | %,.0f | %,.0f |%n",
                        k.label(), v.policy() + " " + v.samples() + (flags.isEmpty() ? "" : " " + flags), window,
                        strict, min, max, paced, difference, fast.hitRatio(), speed, fast.requestsPerSecond());
            }
        }
        System.out.printf(Locale.ROOT, "%npipelined (paced to the strict replay's speed) within %.1f point of strict on "
                + "every case and policy: %s%n", TOLERANCE, all ? "yes" : "NO");
    }
}
