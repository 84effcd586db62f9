package io.agni.bench.eviction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.agni.bench.net.target.ProcessReaper;
import io.agni.bench.net.target.Targets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Redis replayed over the network against a real redis-server the replay starts and stops. Skipped with a message
 * when redis-server is not installed, except under CI (the CI variable set), where that is a failure.
 */
@Tag("redis")
@Tag("socket")
class RedisCacheTest {
    private static Path redisServer;

    @BeforeAll
    static void findRedis() {
        Optional<Path> found = Targets.onPath("redis-server");
        String ci = System.getenv("CI");
        if (found.isEmpty() && ci != null && !ci.isEmpty()) {
            fail("redis-server is not installed but CI is set: install it (apt-get install -y redis-server)");
        }
        assumeTrue(found.isPresent(), "redis-server is not installed: skipping the Redis replay tests");
        redisServer = found.get();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aWindowEndsBeforeARepeatedKeySoEveryRepeatHitsAsInAStrictSequence() throws Exception {
        EntryShape shape = EntryShape.forCapacity(10_000);
        long[] trace = {5, 5, 6, 5, 7, 7, 7, 6};
        for (int window : new int[] {1, 3, 64}) {
            RedisCache.Replay r = RedisCache.replay(redisServer, RedisCache.VARIANTS.get(0), "", trace, shape,
                    1 << 20, window, 0);
            assertEquals(100.0 * 5 / 8, r.hitRatio(), 1e-9, "window " + window);
            assertEquals(0, r.evicted());
            assertEquals(3, r.meanHeld(), "no eviction: the keys at the end");
        }
        assertTrue(ProcessReaper.running().isEmpty(), "every redis-server stopped: " + ProcessReaper.running());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void atAByteBudgetRedisEvictsAndHoldsFewerKeysThanTheBytesHoldPayloads() throws Exception {
        int capacity = 1_000;
        EntryShape shape = EntryShape.forCapacity(capacity);
        long budget = (long) capacity * shape.entryBytes();
        long[] trace = Workloads.zipf(10_000, 0.9, 30_000, 3);
        for (RedisCache.Variant v : RedisCache.VARIANTS) {
            RedisCache.Replay r = RedisCache.replay(redisServer, v, "", trace, shape, budget,
                    RedisCache.window(shape.valueLength()), 0);
            assertTrue(r.evicted() > 0, v.label());
            assertTrue(r.meanHeld() > capacity / 2 && r.meanHeld() < capacity, v.label() + " held " + r.meanHeld());
            assertTrue(r.hitRatio() > 10 && r.hitRatio() < 90, v.label() + " " + r.hitRatio());
            assertTrue(r.serverBytes() > 0 && r.maxClientBytes() > 0);
        }
    }

    @Test
    void theWindowKeepsItsRepliesWithinRedisReplyBuffer() {
        assertEquals(123, RedisCache.window(117));
        assertEquals(RedisCache.MAX_WINDOW, RedisCache.window(16));
        assertEquals(3, RedisCache.window(4084));
        assertEquals(1, RedisCache.window(1 << 20));
        RedisCache.LongSet set = new RedisCache.LongSet(4);
        assertTrue(set.add(1) && set.add(2) && set.add(-7));
        assertFalse(set.add(2));
        assertTrue(set.add(3));
        assertFalse(set.add(4), "full");
        set.clear();
        assertTrue(set.add(2));
    }
}
