package io.agni.bench.eviction;

import io.agni.bench.net.target.Targets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The hit-ratio harness's command line ({@link HitRatio}).
 *
 * @param traces       the traces' directory
 * @param cases        the case selectors
 * @param systems      what to replay: some of {@link HitRatio#SYSTEMS}
 * @param policies     the candidate policies' specifications
 * @param caffeineRuns replays of Caffeine per case
 * @param agniShards   agni's shard count
 * @param redisServer  the {@code redis-server} executable, or null when Redis is not replayed
 * @param redisWindow  requests per pipelined window, or 0 for {@link RedisCache#window}
 * @param redisRate    requests per second to pace Redis to, or 0 for as fast as it answers
 * @param redisFlags   further {@code redis-server} flags, or empty
 */
record Options(Path traces, String cases, Set<String> systems, String policies, int caffeineRuns, int agniShards,
        Path redisServer, int redisWindow, double redisRate, String redisFlags) {
    static final String DEFAULT_POLICIES = "s3fifo;sieve;clock-tinylfu;clock-tinylfu:window=0.2,width=2";

    static Options parse(String[] args) {
        Path traces = Files.isDirectory(Path.of("agni-bench/traces/cache2k"))
                ? Path.of("agni-bench/traces/cache2k") : Path.of("traces/cache2k");
        String cases = "all";
        Set<String> systems = new LinkedHashSet<>(HitRatio.SYSTEMS);
        String policies = DEFAULT_POLICIES;
        int caffeineRuns = HitRatio.DEFAULT_CAFFEINE_RUNS;
        int agniShards = 1;
        Path redisServer = null;
        int redisWindow = 0;
        double redisRate = 0;
        String redisFlags = "";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--traces" -> traces = Path.of(value(args, ++i));
                case "--cases" -> cases = value(args, ++i);
                case "--systems" -> systems = systems(value(args, ++i));
                case "--policies" -> policies = value(args, ++i);
                case "--caffeine-runs" -> caffeineRuns = Integer.parseInt(value(args, ++i));
                case "--agni-shards" -> agniShards = Integer.parseInt(value(args, ++i));
                case "--redis-server" -> redisServer = Path.of(value(args, ++i));
                case "--redis-window" -> redisWindow = Integer.parseInt(value(args, ++i));
                case "--redis-rate" -> redisRate = Double.parseDouble(value(args, ++i));
                case "--redis-flags" -> redisFlags = value(args, ++i);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        if (caffeineRuns < 1 || agniShards < 1 || redisWindow < 0 || redisRate < 0) {
            throw new IllegalArgumentException("--caffeine-runs and --agni-shards must be positive, --redis-window and "
                    + "--redis-rate not negative");
        }
        if (systems.contains("redis")) {
            if (!systems.contains("agni")) {
                throw new IllegalArgumentException("redis is replayed at agni's budget: --systems needs agni too");
            }
            if (redisServer == null) {
                redisServer = Targets.onPath("redis-server").orElseThrow(() -> new IllegalArgumentException(
                        "redis-server is not on the PATH (apt-get install redis-server), give --redis-server PATH, "
                        + "or leave redis out of --systems"));
            }
        }
        return new Options(traces, cases, systems, policies, caffeineRuns, agniShards, redisServer, redisWindow,
                redisRate, redisFlags);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static Set<String> systems(String list) {
        Set<String> systems = new LinkedHashSet<>();
        for (String s : list.split(",")) {
            String name = s.trim();
            if (!HitRatio.SYSTEMS.contains(name)) {
                throw new IllegalArgumentException("unknown system: " + name + " (known: " + HitRatio.SYSTEMS + ")");
            }
            systems.add(name);
        }
        return systems;
    }
}
