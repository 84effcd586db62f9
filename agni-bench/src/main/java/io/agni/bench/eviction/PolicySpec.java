package io.agni.bench.eviction;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A policy by name with its parameters, as the harness's command line gives it: {@code lru}, {@code caffeine},
 * {@code s3fifo}, {@code sieve}, {@code clock-tinylfu}, each optionally followed by {@code :name=value,...}
 * (e.g. {@code s3fifo:small=0.1,ghost=0.9}). Parameters not given take the published defaults, or, where the store
 * needs a bound the paper does not have ({@code scan}), the bound the store would use.
 *
 * @param label the name printed in the tables
 * @param factory makes an empty policy of a capacity
 */
public record PolicySpec(String label, IntFunction<Policy> factory) {
    /** The most entries an eviction passes over before it evicts regardless: the store's bound on one eviction. */
    public static final int DEFAULT_MAX_SCAN = 16;

    /**
     * Parses a policy specification.
     *
     * @param spec e.g. {@code s3fifo:small=0.1,ghost=0.9,move=1,scan=64}
     * @return the policy's factory
     * @throws IllegalArgumentException for an unknown name or parameter
     */
    public static PolicySpec parse(String spec) {
        int colon = spec.indexOf(':');
        String name = colon < 0 ? spec : spec.substring(0, colon);
        Map<String, Double> p = new HashMap<>();
        if (colon >= 0) {
            for (String pair : spec.substring(colon + 1).split(",")) {
                String[] kv = pair.split("=", 2);
                if (kv.length != 2) {
                    throw new IllegalArgumentException("parameter is not name=value: " + pair);
                }
                p.put(kv[0].trim(), Double.parseDouble(kv[1].trim()));
            }
        }
        PolicySpec result = switch (name) {
            case "lru" -> new PolicySpec("LRU", LruPolicy::new);
            case "caffeine" -> new PolicySpec("Caffeine", CaffeinePolicy::new);
            case "s3fifo" -> {
                double small = take(p, "small", 0.1);
                double ghost = take(p, "ghost", 0.9);
                int move = (int) take(p, "move", 1);
                int scan = (int) take(p, "scan", DEFAULT_MAX_SCAN);
                yield new PolicySpec(spec.equals(name) ? "S3-FIFO" : spec,
                        c -> new S3FifoPolicy(c, small, ghost, move, scan));
            }
            case "sieve" -> {
                int scan = (int) take(p, "scan", DEFAULT_MAX_SCAN);
                yield new PolicySpec(spec.equals(name) ? "SIEVE" : spec, c -> new SievePolicy(c, scan));
            }
            case "clock-tinylfu" -> {
                double window = take(p, "window", 0.01);
                int bits = (int) take(p, "bits", 2);
                double width = take(p, "width", 1.0);
                int sample = (int) take(p, "sample", 10);
                int scan = (int) take(p, "scan", DEFAULT_MAX_SCAN);
                yield new PolicySpec(spec.equals(name) ? "CLOCK-TinyLFU" : spec,
                        c -> new ClockTinyLfuPolicy(c, window, bits, width, sample, scan));
            }
            default -> throw new IllegalArgumentException("unknown policy: " + name);
        };
        if (!p.isEmpty()) {
            throw new IllegalArgumentException("unknown parameters of " + name + ": " + p.keySet());
        }
        return result;
    }

    private static double take(Map<String, Double> p, String key, double fallback) {
        Double v = p.remove(key);
        return v == null ? fallback : v;
    }
}
