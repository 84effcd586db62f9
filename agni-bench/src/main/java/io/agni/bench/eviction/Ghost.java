package io.agni.bench.eviction;

/**
 * S3-FIFO's ghost queue: the hashes of the last {@code capacity} keys evicted from the small queue, no data. As the
 * S3-FIFO paper suggests for a hash-table implementation, each remembered hash carries the sequence number of its
 * insertion; it is a member while fewer than {@code capacity} insertions have happened since. A ring of the hashes in
 * insertion order lets the oldest be forgotten in O(1), so memory is bounded by the capacity.
 */
final class Ghost {
    private final int capacity;
    private final long[] ring;
    private final LongIntMap insertedAt;
    private int inserted;

    Ghost(int capacity) {
        this.capacity = capacity;
        ring = new long[Math.max(1, capacity)];
        insertedAt = new LongIntMap(Math.max(1, capacity));
    }

    int capacity() {
        return capacity;
    }

    /** The number of hashes remembered now (at most the capacity). */
    int size() {
        return insertedAt.size();
    }

    void add(long hash) {
        if (capacity == 0) {
            return;
        }
        int slot = inserted % capacity;
        if (inserted >= capacity) {
            long forgotten = ring[slot];
            if (insertedAt.get(forgotten) == inserted - capacity) {
                insertedAt.remove(forgotten);
            }
        }
        ring[slot] = hash;
        insertedAt.put(hash, inserted);
        inserted++;
    }

    /** Removes the hash if remembered; returns whether it was. */
    boolean remove(long hash) {
        return capacity > 0 && insertedAt.remove(hash) != LongIntMap.ABSENT;
    }
}
