package io.agni.bench.eviction;

import java.util.Arrays;

/**
 * An open-addressing map from a {@code long} key to a non-negative {@code int}, with linear probing and
 * backward-shift deletion (no tombstones), the shape of the store's index. Sized once for a maximum entry count
 * and never grown: the simulators know their capacity.
 */
final class LongIntMap {
    /** What {@link #get} returns for an absent key. */
    static final int ABSENT = -1;

    private final long[] keys;
    private final int[] values;
    private final int mask;
    private int size;

    /**
     * Creates a map for up to {@code maxEntries} entries, at most half full.
     *
     * @param maxEntries the largest number of entries it will hold
     */
    LongIntMap(int maxEntries) {
        int capacity = Integer.highestOneBit(Math.max(4, maxEntries) * 2 - 1) << 1;
        keys = new long[capacity];
        values = new int[capacity];
        Arrays.fill(values, ABSENT);
        mask = capacity - 1;
    }

    static long mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        h ^= h >>> 32;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 29);
    }

    int size() {
        return size;
    }

    int get(long key) {
        for (int i = (int) mix(key) & mask; values[i] != ABSENT; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return values[i];
            }
        }
        return ABSENT;
    }

    void put(long key, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("value must not be negative: " + value);
        }
        int i = (int) mix(key) & mask;
        while (values[i] != ABSENT) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        if (size == keys.length - 1) {
            throw new IllegalStateException("map full: size=" + size);
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    /** Removes the key; returns its value or {@link #ABSENT}. */
    int remove(long key) {
        int i = (int) mix(key) & mask;
        while (values[i] != ABSENT && keys[i] != key) {
            i = (i + 1) & mask;
        }
        int old = values[i];
        if (old == ABSENT) {
            return ABSENT;
        }
        size--;
        int hole = i;
        for (int j = (hole + 1) & mask; values[j] != ABSENT; j = (j + 1) & mask) {
            int home = (int) mix(keys[j]) & mask;
            // j may move into the hole if its home is not in (hole, j] cyclically.
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        values[hole] = ABSENT;
        return old;
    }
}
