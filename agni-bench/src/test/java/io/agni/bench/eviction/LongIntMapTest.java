package io.agni.bench.eviction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongIntMapTest {
    @Test
    void agreesWithHashMapUnderRandomPutsAndRemoves() {
        LongIntMap map = new LongIntMap(1000);
        Map<Long, Integer> model = new HashMap<>();
        SplittableRandom random = new SplittableRandom(1);
        for (int step = 0; step < 200_000; step++) {
            long key = random.nextInt(1500) - 700L;
            if (random.nextBoolean() && (model.size() < 1000 || model.containsKey(key))) {
                int value = random.nextInt(1 << 20);
                map.put(key, value);
                model.put(key, value);
            } else {
                Integer old = model.remove(key);
                assertEquals(old == null ? LongIntMap.ABSENT : old, map.remove(key));
            }
            long probe = random.nextInt(1500) - 700L;
            assertEquals(model.getOrDefault(probe, LongIntMap.ABSENT), map.get(probe));
            assertEquals(model.size(), map.size());
        }
    }
}
