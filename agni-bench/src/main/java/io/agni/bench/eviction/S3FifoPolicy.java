package io.agni.bench.eviction;

/**
 * S3-FIFO (Yang et al., SOSP 2023), as the store could run it: a small FIFO, a main FIFO, a ghost of hashes, and a
 * 2-bit frequency per entry.
 *
 * <ul>
 *   <li>A hit raises the entry's frequency by one, up to 3 (a write only when the value changes).</li>
 *   <li>A miss inserts into main if the key's hash is in the ghost (and forgets it there), else into small; while
 *       the cache is not yet full and small holds its share, into main.</li>
 *   <li>While the cache is full: if main holds more than its share (or small is empty), main's oldest entry is
 *       reinserted with its frequency minus one if its frequency is above 0, else evicted; otherwise small's oldest
 *       moves to main with frequency 0 if its frequency is at least {@code moveThreshold}, else is evicted and its
 *       hash enters the ghost.</li>
 *   <li>Bounded work: after {@code maxReinsertions} reinsertions in main within one eviction, main's oldest entry
 *       is evicted whatever its frequency.</li>
 * </ul>
 */
public final class S3FifoPolicy implements Policy {
    private static final int MAX_FREQUENCY = 3;

    private final int capacity;
    private final int smallCapacity;
    private final int mainCapacity;
    private final int moveThreshold;
    private final int maxReinsertions;
    private final LongIntMap index;
    private final long[] keys;
    private final byte[] frequency;
    private final IntRing small;
    private final IntRing main;
    private final IntRing free;
    private final Ghost ghost;
    private int size;

    /**
     * Creates an empty cache.
     *
     * @param capacity entries
     * @param smallShare small's share of the capacity (the paper's 0.1)
     * @param ghostShare the ghost's entry count as a share of the capacity (the paper's 0.9)
     * @param moveThreshold hits in small needed to move to main (the paper's 1)
     * @param maxReinsertions reinsertions in main allowed per eviction before main's oldest is evicted regardless
     */
    public S3FifoPolicy(int capacity, double smallShare, double ghostShare, int moveThreshold, int maxReinsertions) {
        if (capacity < 2) {
            throw new IllegalArgumentException("capacity must be at least 2: " + capacity);
        }
        this.capacity = capacity;
        smallCapacity = Math.max(1, (int) Math.round(capacity * smallShare));
        mainCapacity = capacity - smallCapacity;
        this.moveThreshold = moveThreshold;
        this.maxReinsertions = maxReinsertions;
        index = new LongIntMap(capacity);
        keys = new long[capacity];
        frequency = new byte[capacity];
        small = new IntRing(capacity);
        main = new IntRing(capacity);
        free = new IntRing(capacity);
        for (int i = 0; i < capacity; i++) {
            free.add(i);
        }
        ghost = new Ghost((int) Math.round(capacity * ghostShare));
    }

    @Override
    public boolean access(long key) {
        int node = index.get(key);
        if (node != LongIntMap.ABSENT) {
            if (frequency[node] < MAX_FREQUENCY) {
                frequency[node]++;
            }
            return true;
        }
        boolean wasGhost = ghost.remove(LongIntMap.mix(key));
        boolean full = size == capacity;
        while (size == capacity) {
            evictOne();
        }
        node = free.poll();
        keys[node] = key;
        frequency[node] = 0;
        index.put(key, node);
        size++;
        if (wasGhost || (!full && small.size() >= smallCapacity)) {
            main.add(node);
        } else {
            small.add(node);
        }
        return false;
    }

    @Override
    public int size() {
        return size;
    }

    int smallSize() {
        return small.size();
    }

    int mainSize() {
        return main.size();
    }

    int ghostSize() {
        return ghost.size();
    }

    private void evictOne() {
        int reinsertions = 0;
        while (true) {
            if (main.size() > mainCapacity || small.isEmpty()) {
                int node = main.poll();
                if (frequency[node] > 0 && reinsertions < maxReinsertions) {
                    frequency[node]--;
                    main.add(node);
                    reinsertions++;
                } else {
                    remove(node);
                    return;
                }
            } else {
                int node = small.poll();
                if (frequency[node] >= moveThreshold) {
                    frequency[node] = 0;
                    main.add(node);
                } else {
                    ghost.add(LongIntMap.mix(keys[node]));
                    remove(node);
                    return;
                }
            }
        }
    }

    private void remove(int node) {
        index.remove(keys[node]);
        free.add(node);
        size--;
    }
}
