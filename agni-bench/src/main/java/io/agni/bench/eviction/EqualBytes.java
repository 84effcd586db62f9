package io.agni.bench.eviction;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The harness's second table: agni, Caffeine bounded by bytes and Redis, each given the bytes agni's budget holds
 * the case's entry count in ({@link AgniCache#atEntryCount}), and the check issue 20 asks of it: agni at least each
 * Redis policy on every case.
 */
final class EqualBytes {
    private EqualBytes() {
    }

    /**
     * One case at equal bytes.
     *
     * @param k            the case
     * @param shape        its entry shape
     * @param agni         agni's replay, whose budget the others get
     * @param caffeine     Caffeine's hit ratio ({@code maximumWeight}), mean of the runs, or NaN if not run
     * @param caffeineHeld the entries Caffeine held at the end
     * @param redis        Redis's replays, one per {@link RedisCache#VARIANTS}, or empty
     */
    record Row(HitRatio.Case k, EntryShape shape, AgniCache.Replay agni, double caffeine, long caffeineHeld,
            List<RedisCache.Replay> redis) {
    }

    static Row measure(HitRatio.Case k, EntryShape shape, AgniCache.Replay agni, Options o, boolean caffeine,
            boolean redis) throws IOException {
        double caffeineHit = Double.NaN;
        long caffeineHeld = 0;
        if (caffeine) {
            caffeineHit = 0;
            for (int run = 0; run < o.caffeineRuns(); run++) {
                Policy policy = new CaffeineWeightPolicy(agni.budget(), shape.payloadBytes());
                caffeineHit += HitRatio.replay(policy, k.trace()) / o.caffeineRuns();
                caffeineHeld = policy.size();
            }
        }
        List<RedisCache.Replay> replays = new ArrayList<>();
        if (redis) {
            int window = o.redisWindow() > 0 ? o.redisWindow() : RedisCache.window(shape.valueLength());
            for (RedisCache.Variant v : RedisCache.VARIANTS) {
                RedisCache.Replay r = RedisCache.replay(o.redisServer(), v, o.redisFlags(), k.trace(), shape,
                        agni.budget(), window, o.redisRate());
                System.err.printf(Locale.ROOT, "%s %s: %.2f %%, %,.0f keys, %,.0f req/s%n", k.label(), v.label(),
                        r.hitRatio(), r.meanHeld(), r.requestsPerSecond());
                replays.add(r);
            }
        }
        return new Row(k, shape, agni, caffeineHit, caffeineHeld, replays);
    }

    static String report(List<Row> rows, boolean caffeine, boolean redis, Options o) {
        StringBuilder out = new StringBuilder("## At equal bytes\n\n");
        out.append("Hit ratio % (entries held). Bytes: agni's budget at the equal-count replay; agni and Redis held: "
                + "the mean from the first eviction on; Caffeine: maximumWeight of the budget, each entry weighing "
                + "its key and value bytes, entries at the end.\n");
        if (redis) {
            out.append(String.format(Locale.ROOT, "Redis: maxmemory = the budget + used_memory of the empty server "
                    + "without its client (%,d B) + the replay connection's memory, read every %d requests (up to "
                    + "%,d B); pipelined windows of distinct keys%s%s.%n", rows.get(0).redis().get(0).serverBytes(),
                    RedisCache.CLIENT_CHECK_REQUESTS, maxClient(rows), o.redisRate() > 0
                            ? String.format(Locale.ROOT, ", paced to %,.0f requests/s", o.redisRate()) : "",
                    o.redisFlags().isBlank() ? "" : "; redis-server " + o.redisFlags()));
        }
        out.append('\n');
        StringBuilder head = new StringBuilder("| workload | size | value B | budget B | agni |");
        StringBuilder rule = new StringBuilder("| --- | ---: | ---: | ---: | ---: |");
        if (caffeine) {
            head.append(" Caffeine bytes |");
            rule.append(" ---: |");
        }
        if (redis) {
            for (RedisCache.Variant v : RedisCache.VARIANTS) {
                head.append(' ').append(v.label()).append(" |");
                rule.append(" ---: |");
            }
        }
        out.append(head).append('\n').append(rule).append('\n');
        for (Row row : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %s |", row.k().workload(),
                    row.k().capacity(), row.shape().valueLength(), row.agni().budget(),
                    cell(row.agni().hitRatio(), row.agni().meanHeld())));
            if (caffeine) {
                out.append(' ').append(cell(row.caffeine(), row.caffeineHeld())).append(" |");
            }
            for (RedisCache.Replay r : row.redis()) {
                out.append(' ').append(cell(r.hitRatio(), r.meanHeld())).append(" |");
            }
            out.append('\n');
        }
        if (redis) {
            out.append('\n').append(speeds(rows)).append('\n').append(redisCheck(rows));
        }
        return out.toString();
    }

    private static String cell(double hitRatio, double held) {
        return String.format(Locale.ROOT, "%.2f (%,.0f)", hitRatio, held);
    }

    private static long maxClient(List<Row> rows) {
        long max = 0;
        for (Row row : rows) {
            for (RedisCache.Replay r : row.redis()) {
                max = Math.max(max, r.maxClientBytes());
            }
        }
        return max;
    }

    /** The Redis replays' speeds: allkeys-lru's hit ratio depends on it (its clock ticks once a second). */
    private static String speeds(List<Row> rows) {
        StringBuilder out = new StringBuilder("Redis replay speed (requests/s) and window:\n\n| workload | size | window |");
        StringBuilder rule = new StringBuilder("| --- | ---: | ---: |");
        for (RedisCache.Variant v : RedisCache.VARIANTS) {
            out.append(' ').append(v.label()).append(" |");
            rule.append(" ---: |");
        }
        out.append('\n').append(rule).append('\n');
        for (Row row : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %,d | %d |", row.k().workload(), row.k().capacity(),
                    row.redis().get(0).window()));
            for (RedisCache.Replay r : row.redis()) {
                out.append(String.format(Locale.ROOT, " %,.0f |", r.requestsPerSecond()));
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** Issue 20's rule at equal bytes: agni at least each Redis policy on every case. */
    static String redisCheck(List<Row> rows) {
        StringBuilder out = new StringBuilder();
        boolean all = true;
        for (int v = 0; v < RedisCache.VARIANTS.size(); v++) {
            StringBuilder misses = new StringBuilder();
            double worst = Double.POSITIVE_INFINITY;
            for (Row row : rows) {
                double margin = row.agni().hitRatio() - row.redis().get(v).hitRatio();
                worst = Math.min(worst, margin);
                if (margin < 0) {
                    misses.append(String.format(Locale.ROOT, "%n    below on %s by %.2f", row.k().label(), -margin));
                }
            }
            all &= misses.isEmpty();
            out.append(String.format(Locale.ROOT, "agni >= %s on every case: %s; worst margin %+.2f%s%n",
                    RedisCache.VARIANTS.get(v).label(), misses.isEmpty() ? "yes" : "NO", worst, misses));
        }
        out.append(String.format(Locale.ROOT, "agni at equal bytes >= Redis allkeys-lru and allkeys-lfu on every "
                + "case: %s%n", all ? "MEETS the rule" : "does not meet the rule"));
        return out.toString();
    }
}
