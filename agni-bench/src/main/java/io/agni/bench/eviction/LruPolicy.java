package io.agni.bench.eviction;

/**
 * A true LRU: a doubly linked list over node arrays, a hit moves the entry to the head, a miss evicts the tail.
 * The reference for recency.
 */
public final class LruPolicy implements Policy {
    private static final int NIL = -1;

    private final int capacity;
    private final LongIntMap index;
    private final long[] keys;
    private final int[] prev;
    private final int[] next;
    private int head = NIL;
    private int tail = NIL;
    private int size;

    /**
     * Creates an empty LRU.
     *
     * @param capacity the number of entries it holds
     */
    public LruPolicy(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        index = new LongIntMap(capacity);
        keys = new long[capacity];
        prev = new int[capacity];
        next = new int[capacity];
    }

    @Override
    public boolean access(long key) {
        int node = index.get(key);
        if (node != LongIntMap.ABSENT) {
            if (node != head) {
                unlink(node);
                pushHead(node);
            }
            return true;
        }
        if (size == capacity) {
            node = tail;
            unlink(node);
            index.remove(keys[node]);
        } else {
            node = size++;
        }
        keys[node] = key;
        index.put(key, node);
        pushHead(node);
        return false;
    }

    @Override
    public int size() {
        return size;
    }

    /**
     * Whether the key is cached, without touching its recency (for tests).
     *
     * @param key a key
     * @return true if cached
     */
    boolean contains(long key) {
        return index.get(key) != LongIntMap.ABSENT;
    }

    private void unlink(int node) {
        int p = prev[node];
        int n = next[node];
        if (p == NIL) {
            head = n;
        } else {
            next[p] = n;
        }
        if (n == NIL) {
            tail = p;
        } else {
            prev[n] = p;
        }
    }

    private void pushHead(int node) {
        prev[node] = NIL;
        next[node] = head;
        if (head != NIL) {
            prev[head] = node;
        }
        head = node;
        if (tail == NIL) {
            tail = node;
        }
    }
}
