package io.agni.bench.eviction;

import io.agni.api.EvictionPolicy;
import io.agni.store.OffHeapStore;
import io.agni.store.arena.Arena;

/**
 * The bytes of one cached entry when the harness replays a real store (agni, Redis): an 8-byte key (the trace's key,
 * big-endian) and a fixed-size value, the same for every request of a case.
 *
 * <p>Why the value size depends on the case: agni's budget buys memory a segment at a time, at least
 * {@link Arena#FIRST_SEGMENT_BYTES} (4 KiB), so the entries a budget holds move in steps of a segment's worth of
 * entries. With 100-byte values that step is 36 entries, a quarter of a 140-entry cache, and no budget would hold
 * the case's entry count. So each case gets the smallest entry of {@link #MIN_ENTRY_BYTES} or more, a power of two
 * (so that entries fill a segment without a gap), of which one 4 KiB segment holds at most
 * {@link #MAX_SEGMENT_SHARE} of the cache: 4,096 bytes at 140 entries, 512 at 1,000, 128 from 3,200 entries up.
 * The value is then the longest whose entry, as the store lays it out (measured, not assumed: {@link #probe}), takes
 * no more than that.
 *
 * @param capacity    the case's entry count.
 * @param entryBytes  what one entry takes in agni's arena (padded), measured.
 * @param valueLength the value's length.
 */
public record EntryShape(int capacity, int entryBytes, int valueLength) {
    /** Every key is the trace's 64-bit key, big-endian. */
    public static final int KEY_LENGTH = Long.BYTES;
    /** The smallest entry the harness uses: a 117-byte value with an 8-byte key, a typical small cached object. */
    public static final int MIN_ENTRY_BYTES = 128;
    /** The largest: one entry per smallest segment. */
    public static final int MAX_ENTRY_BYTES = Arena.FIRST_SEGMENT_BYTES;
    /** At most this share of the cache's entries fits one smallest segment: the step in entries a budget can buy. */
    public static final double MAX_SEGMENT_SHARE = 0.01;

    /**
     * The shape for a cache of {@code capacity} entries.
     *
     * @param capacity the entry count
     * @return the shape, its value length measured against agni's layout
     */
    public static EntryShape forCapacity(int capacity) {
        int target = MIN_ENTRY_BYTES;
        while (target < MAX_ENTRY_BYTES && (double) Arena.FIRST_SEGMENT_BYTES / target > MAX_SEGMENT_SHARE * capacity) {
            target <<= 1;
        }
        int value = target - KEY_LENGTH;
        int bytes = probe(value);
        while (bytes > target) {
            value--;
            bytes = probe(value);
        }
        return new EntryShape(capacity, bytes, value);
    }

    /** Key and value bytes of one entry: what a byte weigher counts. */
    public int payloadBytes() {
        return KEY_LENGTH + valueLength;
    }

    /**
     * What one entry with a value of {@code valueLength} bytes takes in agni's arena: {@code liveEntryBytes} of a store
     * holding just that entry.
     */
    static int probe(int valueLength) {
        try (OffHeapStore store = OffHeapStore.builder().shards(1).maxMemory(1 << 20)
                .evictionPolicy(EvictionPolicy.ALL_KEYS).build()) {
            store.set(new byte[KEY_LENGTH], new byte[valueLength]);
            return (int) store.stats().liveEntryBytes();
        }
    }
}
