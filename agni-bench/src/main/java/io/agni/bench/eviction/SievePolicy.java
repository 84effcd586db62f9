package io.agni.bench.eviction;

/**
 * SIEVE (Zhang et al., NSDI 2024): one FIFO queue, a visited bit per entry, and a hand that moves from the oldest
 * entry towards the newest. A hit sets the bit (a write only when it was clear). To evict, the hand clears the bit of
 * each visited entry it passes (which stays where it is) and evicts the first unvisited one, then stays there; past
 * the newest entry it starts again at the oldest. New entries go in at the newest end.
 *
 * <p>Bounded work: after {@code maxScan} entries passed in one eviction the entry under the hand is evicted
 * whatever its bit.
 */
public final class SievePolicy implements Policy {
    private static final int NIL = -1;

    private final int capacity;
    private final int maxScan;
    private final LongIntMap index;
    private final long[] keys;
    private final boolean[] visited;
    private final int[] newer;
    private final int[] older;
    private int newest = NIL;
    private int oldest = NIL;
    private int hand = NIL;
    private int size;

    /**
     * Creates an empty cache.
     *
     * @param capacity entries
     * @param maxScan the most entries the hand passes in one eviction
     */
    public SievePolicy(int capacity, int maxScan) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.maxScan = maxScan;
        index = new LongIntMap(capacity);
        keys = new long[capacity];
        visited = new boolean[capacity];
        newer = new int[capacity];
        older = new int[capacity];
    }

    @Override
    public boolean access(long key) {
        int node = index.get(key);
        if (node != LongIntMap.ABSENT) {
            if (!visited[node]) {
                visited[node] = true;
            }
            return true;
        }
        if (size == capacity) {
            node = evict();
        } else {
            node = size++;
        }
        keys[node] = key;
        visited[node] = false;
        index.put(key, node);
        older[node] = newest;
        newer[node] = NIL;
        if (newest != NIL) {
            newer[newest] = node;
        }
        newest = node;
        if (oldest == NIL) {
            oldest = node;
        }
        return false;
    }

    @Override
    public int size() {
        return size;
    }

    private int evict() {
        int node = hand == NIL ? oldest : hand;
        for (int passed = 0; visited[node] && passed < maxScan; passed++) {
            visited[node] = false;
            node = newer[node] == NIL ? oldest : newer[node];
        }
        hand = newer[node];
        unlink(node);
        index.remove(keys[node]);
        return node;
    }

    private void unlink(int node) {
        int o = older[node];
        int n = newer[node];
        if (o == NIL) {
            oldest = n;
        } else {
            newer[o] = n;
        }
        if (n == NIL) {
            newest = o;
        } else {
            older[n] = o;
        }
    }
}
