package io.agni.bench.eviction;

/**
 * A count-min sketch of 4-bit counters (TinyLFU's frequency estimate): {@value #DEPTH} rows, each counter saturating
 * at 15, an estimate the minimum over the rows. After {@code sampleSize} increments every counter is halved, so the
 * sketch forgets old popularity. One byte per counter here for clarity; the store would pack 16 into a long.
 */
final class FrequencySketch {
    static final int DEPTH = 4;
    private static final int MAX = 15;
    private static final long[] SEEDS = {
        0x97CB3127L, 0xAB2F1F0DL, 0xC2B2AE3DL, 0x27D4EB2FL
    };

    private final byte[] counters;
    private final int mask;
    private final int sampleSize;
    private int increments;

    /**
     * @param width counters per row, rounded up to a power of two
     * @param sampleSize increments between halvings
     */
    FrequencySketch(int width, int sampleSize) {
        int w = Integer.highestOneBit(Math.max(16, width) - 1) << 1;
        counters = new byte[w * DEPTH];
        mask = w - 1;
        this.sampleSize = sampleSize;
    }

    int width() {
        return mask + 1;
    }

    private int slot(long hash, int row) {
        return row * (mask + 1) + ((int) LongIntMap.mix(hash ^ SEEDS[row]) & mask);
    }

    int frequency(long key) {
        long hash = LongIntMap.mix(key);
        int min = MAX;
        for (int row = 0; row < DEPTH; row++) {
            min = Math.min(min, counters[slot(hash, row)]);
        }
        return min;
    }

    void increment(long key) {
        long hash = LongIntMap.mix(key);
        boolean added = false;
        for (int row = 0; row < DEPTH; row++) {
            int i = slot(hash, row);
            if (counters[i] < MAX) {
                counters[i]++;
                added = true;
            }
        }
        if (added && ++increments >= sampleSize) {
            halve();
        }
    }

    private void halve() {
        for (int i = 0; i < counters.length; i++) {
            counters[i] = (byte) (counters[i] >>> 1);
        }
        increments /= 2;
    }
}
