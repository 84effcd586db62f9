package io.agni.store.shard;

import io.agni.api.CapacityExceededException;
import io.agni.store.arena.Segment;
import io.agni.store.memory.DebugMemoryLeakCheck;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-based test of compaction in steps: random chains of writes of many sizes (some with an expiry time),
 * deletes, batches that pin their segments, sweep ticks (a compaction step without a write), time moves and clears,
 * on one shard with a roomy or a tight budget, against a map. After every step: the shard's integrity (including
 * "every entry before the evacuation's resume offset is dead"), every key's value, and the bytes the step moved
 * within its bound. 32 keys and values up to 10 KB, so that segments fill, garbage passes the threshold and an
 * evacuation is under way for many steps; the statistics check that chains do interleave with evacuations.
 */
class CompactionPropertyTest
{
    private static final int KEYS = 64;
    private static final int TRIES = 120;
    private static final int STEPS = 200;

    private final List<Run> runs = new ArrayList<>();

    @Property(tries = TRIES)
    void compactionInStepsKeepsTheShardIntactAndItsContents(@ForAll("chains") final ActionChain<Run> chain)
    {
        try
        {
            chain.withInvariant("shard invariants", Run::check).run();
            Statistics.label("ran while an evacuation was under way").collect(runs.get(0).whilePending > 0);
            Statistics.label("an evacuation ended short of its victim's end").collect(runs.get(0).cutShort > 0);
        }
        finally
        {
            runs.forEach(Run::close);
            runs.clear();
        }
        Statistics.label("ran while an evacuation was under way")
            .coverage(checker -> checker.check(true).percentage(p -> p >= 30));
    }

    @AfterProperty
    void noOffHeapMemoryLeaked()
    {
        DebugMemoryLeakCheck.verifyNoLeaks();
    }

    @Provide
    Arbitrary<ActionChain<Run>> chains()
    {
        return Arbitraries.of(48L * 1024, 256L * 1024, 4L * 1024 * 1024).flatMap(this::chain);
    }

    private Arbitrary<ActionChain<Run>> chain(final long budget)
    {
        return ActionChain.<Run>startWith(() ->
            {
                final Run run = new Run(budget);
                runs.add(run);
                return run;
            })
            .withAction(10, set())
            .withAction(3, delete())
            .withAction(2, batch())
            .withAction(4, tick())
            .withAction(1, advanceTime())
            .withAction(1, clear())
            .withMaxTransformations(STEPS);
    }

    private static Arbitrary<Integer> keys()
    {
        return Arbitraries.integers().between(0, KEYS - 1);
    }

    private static Arbitrary<Integer> lengths()
    {
        return Arbitraries.frequencyOf(
            Tuple.of(10, Arbitraries.integers().between(0, 400)),
            Tuple.of(8, Arbitraries.integers().between(400, 2_000)),
            Tuple.of(1, Arbitraries.integers().between(2_000, 10_000)));
    }

    private static Action.Independent<Run> set()
    {
        final Arbitrary<Long> ttl = Arbitraries.frequencyOf(
            Tuple.of(5, Arbitraries.just(0L)), Tuple.of(1, Arbitraries.longs().between(1, 50)));
        return () -> Combinators.combine(keys(), lengths(), ttl).as((k, length, ttlMs) -> Transformer.<Run>mutate(
            "set " + k + " " + length + " B" + (ttlMs > 0 ? " ttl " + ttlMs : ""), run -> run.set(k, length, ttlMs)));
    }

    private static Action.Independent<Run> delete()
    {
        return () -> keys().map(k -> Transformer.<Run>mutate("delete " + k, run -> run.delete(k)));
    }

    private static Action.Independent<Run> batch()
    {
        return () -> Combinators.combine(keys().set().ofMinSize(1).ofMaxSize(4), lengths())
            .as((keys, length) -> Transformer.<Run>mutate("batch " + keys + " " + length + " B",
                run -> run.batch(keys, length)));
    }

    private static Action.Independent<Run> tick()
    {
        return () -> Arbitraries.just(Transformer.<Run>mutate("tick", Run::tick));
    }

    private static Action.Independent<Run> advanceTime()
    {
        return () -> Arbitraries.longs().between(1, 30).map(ms -> Transformer.<Run>mutate("advance " + ms + " ms",
            run -> run.driver.clock.advance(ms)));
    }

    private static Action.Independent<Run> clear()
    {
        return () -> Arbitraries.just(Transformer.<Run>mutate("clear", Run::clear));
    }

    /**
     * One chain's shard and model.
     */
    static final class Run implements AutoCloseable
    {
        final ShardDriver driver;
        private final long budget;
        private final Map<Integer, byte[]> values = new HashMap<>();
        private final Map<Integer, Long> expiries = new HashMap<>();
        private int version;
        private int longestEntry;
        int whilePending;
        int cutShort;

        Run(final long budget)
        {
            this.budget = budget;
            this.driver = new ShardDriver(budget);
        }

        void set(final int k, final int length, final long ttlMs)
        {
            final byte[] v = ShardDriver.value(k, ++version, length);
            final long expireAt = ttlMs > 0 ? driver.clock.time() + ttlMs : 0;
            final int entry = ShardDriver.entryLength(k, length) + (expireAt > 0 ? Long.BYTES : 0);
            longestEntry = Math.max(longestEntry, entry);
            final long before = driver.moved();
            observe(() ->
            {
                try
                {
                    driver.set(k, v, expireAt);
                    values.put(k, v);
                    expiries.put(k, expireAt);
                }
                catch (final CapacityExceededException refused)
                {
                    // nothing changed; the model keeps the old value
                }
            });
            final long moved = driver.moved() - before;
            assertTrue(moved <= Math.max(Compactor.stepBytes(entry), longestEntry),
                "one write moved " + moved + " bytes; its entry is " + entry + " bytes");
        }

        void delete(final int k)
        {
            observe(() ->
            {
                driver.delete(k);
                values.remove(k);
                expiries.remove(k);
            });
        }

        void batch(final Set<Integer> keys, final int length)
        {
            final int[] ks = keys.stream().mapToInt(Integer::intValue).toArray();
            final byte[][] vs = new byte[ks.length][];
            for (int i = 0; i < ks.length; i++)
            {
                vs[i] = ShardDriver.value(ks[i], ++version, length + i);
                longestEntry = Math.max(longestEntry, ShardDriver.entryLength(ks[i], length + i));
            }
            observe(() ->
            {
                boolean written;
                try
                {
                    written = driver.setBatch(ks, vs);
                }
                catch (final CapacityExceededException refused)
                {
                    written = false;
                }
                if (written)
                {
                    for (int i = 0; i < ks.length; i++)
                    {
                        values.put(ks[i], vs[i]);
                        expiries.put(ks[i], 0L);
                    }
                }
            });
        }

        void tick()
        {
            final long before = driver.moved();
            final Segment victim = driver.victim();
            final int resume = driver.compactor().resumeOffset();
            observe(driver::tick);
            assertTrue(driver.moved() - before <= Math.max(Compactor.STEP_BYTES, longestEntry),
                "a tick moved " + (driver.moved() - before));
            assertTrue(victim == null || driver.victim() != victim || driver.compactor().resumeOffset() > resume,
                "a tick made no progress in the evacuation, at " + resume);
        }

        void clear()
        {
            observe(driver::clear);
            values.clear();
            expiries.clear();
        }

        private void observe(final Runnable action)
        {
            final Segment victim = driver.victim();
            final int resume = driver.compactor().resumeOffset();
            if (victim != null)
            {
                whilePending++;
            }
            action.run();
            if (victim != null && driver.victim() == null && victim.live() > 0 && resume < victim.used())
            {
                cutShort++;
            }
        }

        /**
         * Integrity, then every key against the model (an expired key reads as absent).
         */
        void check()
        {
            driver.verify();
            final long now = driver.clock.time();
            for (int k = 0; k < KEYS; k++)
            {
                final byte[] v = values.get(k);
                final long expireAt = expiries.getOrDefault(k, 0L);
                final byte[] want = v == null || expireAt != 0 && expireAt <= now ? null : v;
                assertArrayEquals(want, driver.get(k), "key " + k);
            }
        }

        @Override
        public void close()
        {
            driver.close();
        }

        @Override
        public String toString()
        {
            return "Run{budget=" + budget + ", keys=" + values.size() + "}";
        }
    }
}
