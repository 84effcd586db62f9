package io.agni.bench.eviction;

import io.agni.api.CapacityExceededException;
import io.agni.api.EvictionPolicy;
import io.agni.api.StoreStats;
import io.agni.store.OffHeapStore;
import java.nio.ByteOrder;
import java.time.Duration;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * agni itself, in process, replayed as a read-through cache: for each request a GET, and on a miss a SET of the key
 * with a value of the case's {@link EntryShape}, into an {@link OffHeapStore} with {@link EvictionPolicy#ALL_KEYS}
 * and a memory budget. Only the public {@code AgniStore}/{@code OffHeapStore} API is used, so the replay measures
 * whatever eviction the store has.
 *
 * <h2>The entry count it holds</h2>
 * A store is given bytes, not entries, so {@link #atEntryCount} searches for the budget at which the store holds the
 * case's entry count: it replays, takes the mean number of entries held over the requests from the first eviction
 * to the end ({@code size()} after every SET; before the first eviction every cache is filling and holds less than
 * its capacity, whatever its policy), and corrects the budget until that mean is within {@link #TOLERANCE} of the
 * target. The mean is reported beside the target, so the equality is checked, not assumed.
 *
 * <h2>Checks</h2>
 * Every value carries its key in its first 8 bytes; a hit that returns a value of another key or length stops the
 * replay. The store's off-heap bytes are read every {@value #STATS_EVERY} requests and must stay within the budget.
 * A SET the store refuses (it found nothing to evict) is counted, not hidden.
 */
public final class AgniCache {
    /** How far the mean entry count held may be from the target, as a share of the target. */
    public static final double TOLERANCE = 0.01;
    /** Replays the budget search may take. */
    static final int MAX_ATTEMPTS = 8;
    private static final int STATS_EVERY = 4096;
    /** Index slot plus read mark per entry at the index's lowest load, 3/8: a bound on what an entry adds there. */
    private static final int INDEX_BYTES_PER_ENTRY = 24;

    private AgniCache() {
    }

    /**
     * What one replay measured.
     *
     * @param hitRatio    hits in percent of requests
     * @param meanHeld    the mean entry count from the first eviction on (the final count if nothing was evicted)
     * @param minHeld     the least held after the first eviction
     * @param maxHeld     the most held after the first eviction
     * @param evicted     the store's eviction count at the end
     * @param refused     SETs the store refused
     * @param maxOffHeap  the most off-heap bytes seen
     * @param budget      the store's budget
     * @param attempts    replays the budget search took (1 for a single replay)
     * @param filled      whether the store ever evicted
     */
    public record Replay(double hitRatio, double meanHeld, long minHeld, long maxHeld, long evicted, long refused,
            long maxOffHeap, long budget, int attempts, boolean filled) {
        Replay withAttempts(int n) {
            return new Replay(hitRatio, meanHeld, minHeld, maxHeld, evicted, refused, maxOffHeap, budget, n, filled);
        }

        /** Whether the mean held is the target within {@link #TOLERANCE}, or the store never had to evict. */
        public boolean holds(int target) {
            return !filled ? maxHeld <= target : Math.abs(meanHeld - target) <= TOLERANCE * target;
        }
    }

    /**
     * Replays a trace at the budget that makes the store hold {@code shape.capacity()} entries on average.
     *
     * @param trace  the keys
     * @param shape  the entry shape and the target entry count
     * @param shards the store's shard count
     * @return the replay closest to the target (check {@link Replay#holds})
     */
    public static Replay atEntryCount(long[] trace, EntryShape shape, int shards) {
        int target = shape.capacity();
        long budget = fillBytes(shape, shards);
        long below = -1;
        double belowHeld = 0;
        long above = -1;
        double aboveHeld = 0;
        Replay best = null;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Replay r = replay(trace, shape, budget, shards);
            if (best == null || Math.abs(r.meanHeld() - target) < Math.abs(best.meanHeld() - target)) {
                best = r;
            }
            if (r.holds(target)) {
                return r.withAttempts(attempt);
            }
            if (r.meanHeld() < target) {
                below = budget;
                belowHeld = r.meanHeld();
            } else {
                above = budget;
                aboveHeld = r.meanHeld();
            }
            long next;
            if (below >= 0 && above >= 0) {
                next = below + Math.round((above - below) * (target - belowHeld) / (aboveHeld - belowHeld));
                next = Math.max(below + 1, Math.min(above - 1, next));
                if (above - below <= 1) {
                    break;
                }
            } else {
                next = budget + Math.round((target - r.meanHeld()) * (shape.entryBytes() + INDEX_BYTES_PER_ENTRY));
            }
            budget = Math.max(minimumBudget(shape, shards), next);
        }
        return best.withAttempts(MAX_ATTEMPTS);
    }

    /**
     * Replays a trace once.
     *
     * @param trace  the keys
     * @param shape  the entry shape
     * @param budget the store's memory budget
     * @param shards the store's shard count
     * @return what it measured
     */
    public static Replay replay(long[] trace, EntryShape shape, long budget, int shards) {
        int valueLength = shape.valueLength();
        try (OffHeapStore store = open(shape, budget, shards)) {
            UnsafeBuffer key = new UnsafeBuffer(new byte[EntryShape.KEY_LENGTH]);
            UnsafeBuffer value = new UnsafeBuffer(new byte[valueLength]);
            for (int i = 0; i < valueLength; i++) {
                value.putByte(i, (byte) (i * 31 + 7));
            }
            ExpandableArrayBuffer dst = new ExpandableArrayBuffer(valueLength);
            long hits = 0;
            long refused = 0;
            long size = 0;
            boolean filled = false;
            double heldSum = 0;
            long heldSamples = 0;
            long minHeld = Long.MAX_VALUE;
            long maxHeld = 0;
            long maxOffHeap = 0;
            for (int r = 0; r < trace.length; r++) {
                long k = trace[r];
                key.putLong(0, k, ByteOrder.BIG_ENDIAN);
                int n = store.get(key, 0, EntryShape.KEY_LENGTH, dst, 0);
                if (n >= 0) {
                    if (n != valueLength || dst.getLong(0, ByteOrder.BIG_ENDIAN) != k) {
                        throw new IllegalStateException("agni returned a wrong value: key=" + k + ", length=" + n +
                                ", key in value=" + (n >= Long.BYTES ? dst.getLong(0, ByteOrder.BIG_ENDIAN) : -1) +
                                ", request=" + r);
                    }
                    hits++;
                } else {
                    value.putLong(0, k, ByteOrder.BIG_ENDIAN);
                    try {
                        store.set(key, 0, EntryShape.KEY_LENGTH, value, 0, valueLength);
                    } catch (CapacityExceededException e) {
                        refused++;
                    }
                    long now = store.size();
                    if (now < size + 1) {
                        filled = true;
                    }
                    size = now;
                }
                if (filled) {
                    heldSum += size;
                    heldSamples++;
                    minHeld = Math.min(minHeld, size);
                    maxHeld = Math.max(maxHeld, size);
                }
                if ((r & (STATS_EVERY - 1)) == 0) {
                    maxOffHeap = Math.max(maxOffHeap, checkedOffHeap(store));
                }
            }
            maxOffHeap = Math.max(maxOffHeap, checkedOffHeap(store));
            double hitRatio = trace.length == 0 ? 0 : 100.0 * hits / trace.length;
            if (!filled) {
                return new Replay(hitRatio, size, size, size, 0, refused, maxOffHeap, budget, 1, false);
            }
            return new Replay(hitRatio, heldSum / heldSamples, minHeld, maxHeld, store.stats().evicted(), refused,
                    maxOffHeap, budget, 1, true);
        }
    }

    private static long checkedOffHeap(OffHeapStore store) {
        StoreStats stats = store.stats();
        if (stats.offHeapBytes() > stats.budgetBytes()) {
            throw new IllegalStateException("agni holds more than its budget: " + stats);
        }
        return stats.offHeapBytes();
    }

    private static OffHeapStore open(EntryShape shape, long budget, int shards) {
        return OffHeapStore.builder().shards(shards).maxMemory(budget).evictionPolicy(EvictionPolicy.ALL_KEYS)
                .expirySweepInterval(Duration.ZERO).maxKeyLength(EntryShape.KEY_LENGTH)
                .maxValueLength(shape.valueLength()).build();
    }

    /** The off-heap bytes of a store (with a budget large enough) after the case's entry count of distinct keys. */
    public static long fillBytes(EntryShape shape, int shards) {
        long roomy = 4L * shape.capacity() * (shape.entryBytes() + INDEX_BYTES_PER_ENTRY) + (8L << 20) * shards;
        try (OffHeapStore store = open(shape, roomy, shards)) {
            UnsafeBuffer key = new UnsafeBuffer(new byte[EntryShape.KEY_LENGTH]);
            UnsafeBuffer value = new UnsafeBuffer(new byte[shape.valueLength()]);
            for (int i = 0; i < shape.capacity(); i++) {
                key.putLong(0, -1L - i, ByteOrder.BIG_ENDIAN);
                store.set(key, 0, EntryShape.KEY_LENGTH, value, 0, shape.valueLength());
            }
            return Math.max(minimumBudget(shape, shards), store.stats().offHeapBytes());
        }
    }

    private static long minimumBudget(EntryShape shape, int shards) {
        return Math.max(64L * 1024 * shards, 4L * shape.entryBytes());
    }
}
