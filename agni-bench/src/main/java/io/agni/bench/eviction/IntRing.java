package io.agni.bench.eviction;

/** A bounded FIFO of {@code int}s in a ring buffer: the simulators' queues of entry numbers. */
final class IntRing {
    private final int[] items;
    private int head;
    private int size;

    IntRing(int capacity) {
        items = new int[Math.max(1, capacity)];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(int item) {
        if (size == items.length) {
            throw new IllegalStateException("ring full: capacity=" + items.length);
        }
        int tail = head + size;
        items[tail >= items.length ? tail - items.length : tail] = item;
        size++;
    }

    int poll() {
        if (size == 0) {
            throw new IllegalStateException("ring empty");
        }
        int item = items[head];
        head = head + 1 == items.length ? 0 : head + 1;
        size--;
        return item;
    }
}
