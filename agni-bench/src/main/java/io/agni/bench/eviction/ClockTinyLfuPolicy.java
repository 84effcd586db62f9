package io.agni.bench.eviction;

/**
 * CLOCK with a TinyLFU admission filter, the shape of Caffeine's W-TinyLFU made to fit the store: a small FIFO
 * window in front of a main CLOCK, a count-min {@link FrequencySketch} that decides whether an entry leaving the
 * window may replace main's victim, and a small saturating counter per entry.
 *
 * <ul>
 *   <li>A hit raises the entry's counter by one, up to {@code counterMax} (a write only when it changes). Reads
 *       never touch the sketch: it is written only under the shard's write lock.</li>
 *   <li>A miss adds one to the sketch for the key and inserts it into the window (while the cache fills: into main
 *       once the window holds its share).</li>
 *   <li>An entry leaving the window (its oldest, when the window is over its share and the cache full) adds its
 *       counter to the sketch and becomes the candidate, counter 0. Main's victim: the hand takes one off each
 *       entry with a counter above 0 (and adds one to the sketch for it, so the sketch learns of hits lazily) and
 *       stops at the first at 0, or after {@code maxScan} entries.</li>
 *   <li>The candidate replaces the victim (which is evicted; the hand moves on) if the sketch's estimate for it is
 *       higher than the victim's; otherwise the candidate is evicted.</li>
 * </ul>
 * With a window share of 0 the missed key itself is the candidate.
 */
public final class ClockTinyLfuPolicy implements Policy {
    private final int capacity;
    private final int windowCapacity;
    private final int mainCapacity;
    private final int counterMax;
    private final int maxScan;
    private final LongIntMap index;
    private final long[] keys;
    private final byte[] counter;
    private final IntRing window;
    private final int[] clock;
    private final IntRing free;
    private final FrequencySketch sketch;
    private int mainSize;
    private int hand;
    private int size;

    /**
     * Creates an empty cache.
     *
     * @param capacity entries
     * @param windowShare the window's share of the capacity (Caffeine starts at 0.01)
     * @param counterBits bits of the per-entry counter (2: up to 3)
     * @param sketchWidth counters per sketch row per cached entry
     * @param sampleFactor sketch increments between halvings, per cached entry (Caffeine: 10)
     * @param maxScan the most entries the hand passes in one eviction
     */
    public ClockTinyLfuPolicy(int capacity, double windowShare, int counterBits, double sketchWidth,
            int sampleFactor, int maxScan) {
        if (capacity < 2) {
            throw new IllegalArgumentException("capacity must be at least 2: " + capacity);
        }
        this.capacity = capacity;
        windowCapacity = windowShare <= 0 ? 0 : Math.max(1, (int) Math.round(capacity * windowShare));
        mainCapacity = capacity - windowCapacity;
        counterMax = (1 << counterBits) - 1;
        this.maxScan = maxScan;
        index = new LongIntMap(capacity + 1);
        keys = new long[capacity + 1];
        counter = new byte[capacity + 1];
        window = new IntRing(capacity + 1);
        clock = new int[mainCapacity];
        free = new IntRing(capacity + 1);
        for (int i = 0; i <= capacity; i++) {
            free.add(i);
        }
        sketch = new FrequencySketch((int) Math.ceil(capacity * sketchWidth), sampleFactor * capacity);
    }

    @Override
    public boolean access(long key) {
        int node = index.get(key);
        if (node != LongIntMap.ABSENT) {
            if (counter[node] < counterMax) {
                counter[node]++;
            }
            return true;
        }
        sketch.increment(key);
        node = free.poll();
        keys[node] = key;
        counter[node] = 0;
        index.put(key, node);
        size++;
        if (size <= capacity && window.size() >= windowCapacity) {
            clock[mainSize++] = node;
        } else if (size <= capacity || windowCapacity > 0) {
            window.add(node);
        }
        if (size > capacity) {
            int candidate = windowCapacity > 0 ? leaveWindow() : node;
            admit(candidate);
        }
        return false;
    }

    @Override
    public int size() {
        return size;
    }

    int windowSize() {
        return window.size();
    }

    int mainSize() {
        return mainSize;
    }

    private int leaveWindow() {
        int node = window.poll();
        for (int i = 0; i < counter[node]; i++) {
            sketch.increment(keys[node]);
        }
        counter[node] = 0;
        return node;
    }

    private void admit(int candidate) {
        for (int passed = 0; counter[clock[hand]] > 0 && passed < maxScan; passed++) {
            int node = clock[hand];
            counter[node]--;
            sketch.increment(keys[node]);
            advance();
        }
        int victim = clock[hand];
        if (sketch.frequency(keys[candidate]) > sketch.frequency(keys[victim])) {
            clock[hand] = candidate;
            advance();
            remove(victim);
        } else {
            remove(candidate);
        }
    }

    private void advance() {
        hand = hand + 1 == mainCapacity ? 0 : hand + 1;
    }

    private void remove(int node) {
        index.remove(keys[node]);
        free.add(node);
        size--;
    }
}
