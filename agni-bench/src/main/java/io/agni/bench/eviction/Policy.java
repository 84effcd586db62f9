package io.agni.bench.eviction;

/**
 * A cache policy replayed by the harness as a read-through cache: each request is a GET, and a miss is followed by
 * the SET of that key (which the policy may refuse to admit). Single-threaded; deterministic for a given trace.
 */
public interface Policy {
    /**
     * Plays one request.
     *
     * @param key the requested key
     * @return true on a hit (the key was cached)
     */
    boolean access(long key);

    /**
     * The number of entries cached now.
     *
     * @return the entry count, never above the capacity the policy was made with
     */
    int size();
}
