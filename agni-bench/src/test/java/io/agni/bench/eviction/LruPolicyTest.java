package io.agni.bench.eviction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LruPolicyTest {
    @Test
    void evictsTheLeastRecentlyUsed() {
        LruPolicy lru = new LruPolicy(3);
        assertFalse(lru.access(1));
        assertFalse(lru.access(2));
        assertFalse(lru.access(3));
        assertTrue(lru.access(1)); // order now 2, 3, 1
        assertFalse(lru.access(4)); // evicts 2
        assertFalse(lru.contains(2));
        assertTrue(lru.contains(1));
        assertTrue(lru.contains(3));
        assertTrue(lru.access(3)); // order 1, 4, 3
        assertFalse(lru.access(5)); // evicts 1
        assertFalse(lru.contains(1));
        assertEquals(3, lru.size());
    }

    @Test
    void capacityOneKeepsOnlyTheLastKey() {
        LruPolicy lru = new LruPolicy(1);
        assertFalse(lru.access(7));
        assertTrue(lru.access(7));
        assertFalse(lru.access(8));
        assertFalse(lru.access(7));
        assertEquals(1, lru.size());
    }

    @Test
    void agreesWithAnAccessOrderedLinkedHashMapOnEveryRequest() {
        int capacity = 500;
        Map<Long, Boolean> model = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > capacity;
            }
        };
        LruPolicy lru = new LruPolicy(capacity);
        long[] trace = Workloads.zipf(5000, 0.8, 100_000, 3);
        for (long key : trace) {
            boolean expected = model.get(key) != null;
            if (!expected) {
                model.put(key, Boolean.TRUE);
            }
            assertEquals(expected, lru.access(key));
        }
    }
}
