package io.agni.store;

import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.WriteBatch;
import io.agni.store.memory.DebugMemoryLeakCheck;
import io.agni.testsupport.ByteArrayKey;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.ActionChainArbitrary;
import net.jqwik.api.state.Transformer;
import org.agrona.ExpandableArrayBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static io.agni.store.ModelRun.at3;
import static io.agni.store.ModelRun.copied;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-based test: random chains of every primitive, time moves and sweeps, run on a store and on a
 * {@link StoreModel}, with every result compared and the invariants checked after each step. Eight keys, so that
 * keys collide, are overwritten, expire and come back; values from empty to 300 bytes, integers, and now and then
 * 70 KiB (the large-entry path). The same chains run on a store that evicts, with more keys and values up to 8 KiB.
 */
class StoreModelBasedTest
{
    private static final List<ByteArrayKey> KEYS = List.of(
        ByteArrayKey.of(""), ByteArrayKey.of("a"), ByteArrayKey.of("k2"), ByteArrayKey.of("key-3"),
        ByteArrayKey.of("\0"), ByteArrayKey.of("\r\n"), ByteArrayKey.of("a-longer-key-of-forty-bytes-for-paths--6"),
        ByteArrayKey.of("k7"));

    /**
     * The keys of a store that evicts: the eight above and 32 more, so that its budget fills.
     */
    private static final List<ByteArrayKey> EVICTING_KEYS = evictingKeys();

    private static final int TRIES = 150;
    private static final int EVICTING_TRIES = 100;
    private static final int DURABLE_TRIES = 60;
    private static final int STEPS = 80;

    /**
     * The keys and values a chain draws from.
     */
    private record Universe(Arbitrary<ByteArrayKey> keys, Arbitrary<byte[]> values)
    {
    }

    private static final Universe PLAIN = new Universe(Arbitraries.of(KEYS), values(0));
    private static final Universe EVICTING = new Universe(Arbitraries.of(EVICTING_KEYS), values(20));

    private final List<ModelRun> runs = new ArrayList<>();

    @Property(tries = TRIES)
    void twoShardStoreAgreesWithTheModel(@ForAll("twoShards") final ActionChain<ModelRun> chain)
    {
        run(chain);
    }

    @Property(tries = TRIES)
    void fourShardStoreAgreesWithTheModel(@ForAll("fourShards") final ActionChain<ModelRun> chain)
    {
        run(chain);
    }

    /**
     * A durable store, closed and reopened now and then (cleanly or as a crash leaves it), must still agree with the
     * model: nothing acknowledged is lost, nothing comes back that was removed.
     */
    @Property(tries = DURABLE_TRIES)
    void durableStoreAgreesWithTheModelAcrossReopens(@ForAll("durable") final ActionChain<ModelRun> chain)
    {
        run(chain);
    }

    /**
     * A store with {@code ALL_KEYS} eviction and a budget that 40 keys of values up to 8 KiB overflow: eviction is
     * a permitted loss of entries, and a write the store refuses (it found nothing to evict) a permitted outcome that
     * changes nothing; otherwise it must agree with the model. After every step a key the model holds that the store
     * no longer has counts as evicted ({@link ModelRun#reconcileEvictions}) and is dropped from the model, so it must
     * stay absent until it is written again: never a wrong value, never an entry back from the dead.
     */
    @Property(tries = EVICTING_TRIES)
    void evictingStoreAgreesWithTheModelUpToEvictions(@ForAll("evicting") final ActionChain<ModelRun> chain)
    {
        final ModelRun run = run(chain);
        Statistics.label("evicted").collect(run.evictedSeen > 0);
        Statistics.label("refused").collect(run.refusals > 0);
        // the property is about eviction: many chains must have lost a key to it (about 60 % do)
        Statistics.label("evicted").coverage(coverage -> coverage.check(true).percentage(p -> p >= 40));
    }

    /**
     * A durable store that evicts, reopened now and then, cleanly or as a crash leaves it: the log replays into the
     * same budget, where the recovered entries may not fit as they did (segments are laid out anew), so recovery
     * evicts too. What it evicts counts as evicted, and stays gone: a second recovery must not bring it back.
     */
    @Property(tries = DURABLE_TRIES)
    void durableEvictingStoreAgreesWithTheModelAcrossReopens(@ForAll("durableEvicting") final ActionChain<ModelRun> chain)
    {
        run(chain);
    }

    @AfterProperty
    void noOffHeapMemoryLeaked()
    {
        DebugMemoryLeakCheck.verifyNoLeaks();
    }

    private ModelRun run(final ActionChain<ModelRun> chain)
    {
        // jqwik generates each step while the chain runs, on its own thread: the chain cannot move to a thread
        // with a deadline, so this test is bounded by its tries and steps (and surefire's fork timeout)
        try
        {
            return chain.withInvariant("store invariants", ModelRun::checkInvariants).run();
        }
        finally
        {
            runs.forEach(ModelRun::close);
            runs.clear();
        }
    }

    @Provide
    Arbitrary<ActionChain<ModelRun>> twoShards()
    {
        return chain(2, false, false);
    }

    @Provide
    Arbitrary<ActionChain<ModelRun>> fourShards()
    {
        return chain(4, false, false);
    }

    @Provide
    Arbitrary<ActionChain<ModelRun>> durable()
    {
        return chain(2, true, false);
    }

    @Provide
    Arbitrary<ActionChain<ModelRun>> durableEvicting()
    {
        return chain(2, true, true);
    }

    @Provide
    Arbitrary<ActionChain<ModelRun>> evicting()
    {
        return chain(2, false, true);
    }

    private Arbitrary<ActionChain<ModelRun>> chain(final int shards, final boolean durable, final boolean evicting)
    {
        final Universe u = evicting ? EVICTING : PLAIN;
        final ActionChainArbitrary<ModelRun> actions = ActionChain.<ModelRun>startWith(() ->
            {
                final ModelRun run;
                try
                {
                    run = new ModelRun(shards, durable ? Files.createTempDirectory("agni-model-") : null, evicting);
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
                runs.add(run);
                return run;
            })
            .withAction(6, get(u))
            .withAction(2, exists(u))
            .withAction(2, ttl(u))
            .withAction(4, set(u))
            .withAction(6, conditionalSet(u))
            .withAction(3, getAndSet(u))
            .withAction(2, delete(u))
            .withAction(2, getAndDelete(u))
            .withAction(2, getAndExpire(u))
            .withAction(4, incrementBy(u))
            .withAction(3, append(u))
            .withAction(3, expire(u))
            .withAction(2, persist(u))
            .withAction(2, setAll(u))
            .withAction(3, writeBatch(u))
            .withAction(2, getAll(u))
            .withAction(2, valueLength(u))
            .withAction(3, getRange(u))
            .withAction(4, setRange(u))
            .withAction(4, rename(u))
            .withAction(1, randomKey(u))
            .withAction(3, incrementByFloat(u))
            .withAction(4, advanceTime(u))
            .withAction(2, sweep(u))
            .withAction(1, scan(u))
            .withAction(1, clear(u));
        return (durable ? actions.withAction(4, reopen(u)) : actions).withMaxTransformations(STEPS);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Arbitraries
    // ------------------------------------------------------------------------------------------------------------

    private static List<ByteArrayKey> evictingKeys()
    {
        final List<ByteArrayKey> keys = new ArrayList<>(KEYS);
        for (int i = 0; i < 32; i++)
        {
            keys.add(ByteArrayKey.of("evicting-" + i));
        }
        return List.copyOf(keys);
    }

    /**
     * Values from empty to 300 bytes and integers; with {@code mediumWeight == 0} now and then 70 KiB (the
     * large-entry path), else values of 1 to 8 KiB with that weight (against 26 for the others), which a store that
     * evicts takes.
     */
    private static Arbitrary<byte[]> values(final int mediumWeight)
    {
        final Arbitrary<byte[]> small = Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(300);
        final Arbitrary<byte[]> numeric = Arbitraries.of(
            "0", "1", "-1", "42", "9223372036854775807", "-9223372036854775808", "01", " 7", "abc", "",
            "1.5", "10.50", "5.0e3", "-0.125", "0x10", "1e308", "inf", ".")
            .map(s -> s.getBytes(StandardCharsets.ISO_8859_1));
        final Arbitrary<byte[]> large = Arbitraries.integers().between(0, 1000)
            .map(seed -> patterned(70 * 1024 + seed, seed));
        final Arbitrary<byte[]> medium = Arbitraries.integers().between(1024, 8 * 1024)
            .map(length -> patterned(length, length));
        return mediumWeight == 0 ?
            Arbitraries.frequencyOf(Tuple.of(20, small), Tuple.of(6, numeric), Tuple.of(1, large)) :
            Arbitraries.frequencyOf(Tuple.of(20, small), Tuple.of(6, numeric), Tuple.of(mediumWeight, medium));
    }

    private static byte[] patterned(final int length, final int seed)
    {
        final byte[] value = new byte[length];
        for (int i = 0; i < length; i++)
        {
            value[i] = (byte)(i * 31 + seed);
        }
        return value;
    }

    /**
     * An expiry time relative to now, from a little in the past to a little ahead, with exactly now among them.
     */
    private static Arbitrary<Long> offsets()
    {
        return Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.longs().between(-5, 0)),
            Tuple.of(5, Arbitraries.longs().between(1, 60)));
    }

    private static Arbitrary<Long> deltas()
    {
        return Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.longs().between(-100, 100)),
            Tuple.of(1, Arbitraries.of(Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1)));
    }

    private static Arbitrary<Double> floatDeltas()
    {
        return Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.of(0.0, 0.1, -0.25, 1.5, 100.0, -7.75, 1e-3, 3.0)),
            Tuple.of(1, Arbitraries.of(1e308, -1e308, Double.NaN, Double.POSITIVE_INFINITY)));
    }

    /**
     * A byte offset into a value: mostly inside or just past a small value, now and then past the large-entry
     * threshold or the value limit.
     */
    private static Arbitrary<Long> rangeOffsets()
    {
        return Arbitraries.frequencyOf(
            Tuple.of(12, Arbitraries.longs().between(0, 320)),
            Tuple.of(1, Arbitraries.longs().between(70_000, 72_000)),
            Tuple.of(1, Arbitraries.of((long)ModelRun.MAX_VALUE_LENGTH - 1, (long)ModelRun.MAX_VALUE_LENGTH,
                Long.MAX_VALUE)));
    }

    private static Arbitrary<Long> rangeIndexes()
    {
        return Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.longs().between(-320, 320)),
            Tuple.of(1, Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 0L)));
    }

    private static Arbitrary<Boolean> direct()
    {
        return Arbitraries.of(true, false);
    }

    private static String describe(final byte[] value)
    {
        return value.length > 64 ? "<" + value.length + " bytes>" : ByteArrayKey.printable(value);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Actions
    // ------------------------------------------------------------------------------------------------------------

    private static Action.Independent<ModelRun> get(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), direct()).as((k, direct) -> Transformer.<ModelRun>mutate(
            "get " + k + (direct ? " (direct)" : ""), run ->
            {
                if (direct)
                {
                    final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(16);
                    run.same("get " + k, () -> run.model.get(k),
                        () -> copied(run.store.get(at3(k.bytes()), 3, k.length(), dst, 5), dst, 5));
                }
                else
                {
                    run.same("get " + k, () -> run.model.get(k), () -> run.store.get(k.bytes()));
                }
            }));
    }

    private static Action.Independent<ModelRun> exists(final Universe u)
    {
        return () -> u.keys().map(k -> Transformer.<ModelRun>mutate("exists " + k, run ->
            run.same("exists " + k, () -> run.model.get(k) != null, () -> run.store.exists(k.bytes()))));
    }

    private static Action.Independent<ModelRun> ttl(final Universe u)
    {
        return () -> u.keys().map(k -> Transformer.<ModelRun>mutate("ttl " + k, run ->
        {
            run.same("ttlMillis " + k, () -> run.model.ttlMillis(k), () -> run.store.ttlMillis(k.bytes()));
            run.same("expireTimeMillis " + k, () -> run.model.expireTimeMillis(k),
                () -> run.store.expireTimeMillis(at3(k.bytes()), 3, k.length()));
        }));
    }

    private static Action.Independent<ModelRun> set(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), u.values(), direct()).as((k, v, direct) -> Transformer.<ModelRun>mutate(
            "set " + k + " " + describe(v) + (direct ? " (direct)" : ""), run ->
                run.same("set " + k,
                    () -> run.model.set(k, v, SetCondition.ALWAYS, ExpiryMode.CLEAR, 0),
                    () ->
                    {
                        if (direct)
                        {
                            run.store.set(at3(k.bytes()), 3, k.length(), at3(v), 3, v.length);
                        }
                        else
                        {
                            run.store.set(k.bytes(), v);
                        }
                        return true;
                    })));
    }

    private static Action.Independent<ModelRun> conditionalSet(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), u.values(), Arbitraries.of(SetCondition.class),
            Arbitraries.of(ExpiryMode.class), offsets(), direct()).as((k, v, condition, mode, offset, direct) ->
            Transformer.<ModelRun>mutate("set " + k + " " + describe(v) + " " + condition + " " + mode + " now" +
                (offset < 0 ? "" : "+") + offset + (direct ? " (direct)" : ""), run ->
            {
                final long at = run.now() + offset;
                final long time = timeFor(mode, at, offset);
                run.same("conditional set " + k,
                    () -> run.model.set(k, v, condition, modelMode(mode), at),
                    () -> direct ?
                        run.store.set(at3(k.bytes()), 3, k.length(), at3(v), 3, v.length, condition, mode, time) :
                        run.store.set(k.bytes(), v, condition, mode, time));
            }));
    }

    private static Action.Independent<ModelRun> getAndSet(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), u.values(), Arbitraries.of(SetCondition.class),
            Arbitraries.of(ExpiryMode.class), offsets(), direct()).as((k, v, condition, mode, offset, direct) ->
            Transformer.<ModelRun>mutate("getAndSet " + k + " " + describe(v) + " " + condition + " " + mode + " now+" +
                offset + (direct ? " (direct)" : ""), run ->
            {
                final long at = run.now() + offset;
                final long time = timeFor(mode, at, offset);
                final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);
                run.same("getAndSet " + k,
                    () -> run.model.getAndSet(k, v, condition, modelMode(mode), at),
                    () -> direct ?
                        copied(run.store.getAndSet(at3(k.bytes()), 3, k.length(), at3(v), 3, v.length,
                            condition, mode, time, dst, 2), dst, 2) :
                        run.store.getAndSet(k.bytes(), v, condition, mode, time));
            }));
    }

    /**
     * The time the store is given with a mode: the absolute time for AT, the offset from now for AFTER (the store
     * adds it to the same fake clock), 0 for the modes that take none.
     */
    private static long timeFor(final ExpiryMode mode, final long at, final long offset)
    {
        return mode == ExpiryMode.AT ? at : mode == ExpiryMode.AFTER ? offset : 0;
    }

    /**
     * The model knows absolute times only: AFTER is AT at now plus the offset.
     */
    private static ExpiryMode modelMode(final ExpiryMode mode)
    {
        return mode == ExpiryMode.AFTER ? ExpiryMode.AT : mode;
    }

    private static Action.Independent<ModelRun> delete(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), direct()).as((k, direct) -> Transformer.<ModelRun>mutate(
            "delete " + k + (direct ? " (direct)" : ""), run ->
                run.same("delete " + k, () -> run.model.delete(k),
                    () -> direct ? run.store.delete(at3(k.bytes()), 3, k.length()) : run.store.delete(k.bytes()))));
    }

    private static Action.Independent<ModelRun> getAndDelete(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), direct()).as((k, direct) -> Transformer.<ModelRun>mutate(
            "getAndDelete " + k + (direct ? " (direct)" : ""), run ->
            {
                final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);
                run.same("getAndDelete " + k, () -> run.model.getAndDelete(k),
                    () -> direct ? copied(run.store.getAndDelete(at3(k.bytes()), 3, k.length(), dst, 0), dst, 0) :
                        run.store.getAndDelete(k.bytes()));
            }));
    }

    private static Action.Independent<ModelRun> getAndExpire(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), Arbitraries.of(ExpiryMode.class), offsets(), direct())
            .as((k, mode, offset, direct) -> Transformer.<ModelRun>mutate(
                "getAndExpire " + k + " " + mode + " now+" + offset + (direct ? " (direct)" : ""), run ->
                {
                    final long at = run.now() + offset;
                    final long time = timeFor(mode, at, offset);
                    final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);
                    run.same("getAndExpire " + k, () -> run.model.getAndExpire(k, modelMode(mode), at),
                        () -> direct ?
                            copied(run.store.getAndExpire(at3(k.bytes()), 3, k.length(), mode, time, dst, 1), dst, 1) :
                            run.store.getAndExpire(k.bytes(), mode, time));
                }));
    }

    private static Action.Independent<ModelRun> incrementBy(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), deltas(), direct()).as((k, delta, direct) -> Transformer.<ModelRun>mutate(
            "incrementBy " + k + " " + delta + (direct ? " (direct)" : ""), run ->
                run.same("incrementBy " + k, () -> run.model.incrementBy(k, delta),
                    () -> direct ? run.store.incrementBy(at3(k.bytes()), 3, k.length(), delta) :
                        run.store.incrementBy(k.bytes(), delta))));
    }

    private static Action.Independent<ModelRun> append(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), u.values(), direct()).as((k, v, direct) -> Transformer.<ModelRun>mutate(
            "append " + k + " " + describe(v) + (direct ? " (direct)" : ""), run ->
                run.same("append " + k, () -> run.model.append(k, v),
                    () -> direct ? run.store.append(at3(k.bytes()), 3, k.length(), at3(v), 3, v.length) :
                        run.store.append(k.bytes(), v))));
    }

    private static Action.Independent<ModelRun> expire(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), offsets(), Arbitraries.of(ExpireCondition.class), Arbitraries.of(0, 1, 2))
            .as((k, offset, condition, form) -> Transformer.<ModelRun>mutate(
                "expire " + k + " now+" + offset + " " + condition +
                    (form == 0 ? "" : form == 1 ? " (after)" : " (after, direct)"), run ->
                {
                    final long at = run.now() + offset;
                    run.same("expire " + k, () -> run.model.expire(k, at, condition),
                        () -> form == 0 ? run.store.expire(k.bytes(), at, condition) :
                            form == 1 ? run.store.expireAfter(k.bytes(), offset, condition) :
                                run.store.expireAfter(at3(k.bytes()), 3, k.length(), offset, condition));
                }));
    }

    private static Action.Independent<ModelRun> persist(final Universe u)
    {
        return () -> u.keys().map(k -> Transformer.<ModelRun>mutate("persist " + k, run ->
            run.same("persist " + k, () -> run.model.persist(k), () -> run.store.persist(at3(k.bytes()), 3, k.length()))));
    }

    private static Action.Independent<ModelRun> setAll(final Universe u)
    {
        return () -> Combinators.combine(
                u.keys().list().ofMinSize(1).ofMaxSize(4), u.values().list().ofSize(4),
                Arbitraries.of(SetCondition.class))
            .as((ks, vs, condition) ->
            {
                final List<byte[]> values = vs.subList(0, ks.size());
                final StringBuilder description = new StringBuilder("setAll " + condition);
                for (int i = 0; i < ks.size(); i++)
                {
                    description.append(' ').append(ks.get(i)).append('=').append(describe(values.get(i)));
                }
                return Transformer.<ModelRun>mutate(description.toString(), run ->
                {
                    final List<byte[]> keyBytes = new ArrayList<>();
                    ks.forEach(k -> keyBytes.add(k.bytes()));
                    run.same("setAll", () -> run.model.setAll(ks, values, condition),
                        () -> run.store.setAll(keyBytes, values, condition));
                });
            });
    }

    /**
     * One operation of a batch: its kind (0 set, 1 set AT, 2 set AFTER, 3 set KEEP, 4 delete, 5 expire, 6
     * expireAfter, 7 persist), key, value and time offset.
     */
    private record Step(int kind, ByteArrayKey key, byte[] value, long offset)
    {
        @Override
        public String toString()
        {
            return switch (kind)
            {
                case 0 -> "set " + key + "=" + describe(value);
                case 1 -> "set " + key + "=" + describe(value) + " at now+" + offset;
                case 2 -> "set " + key + "=" + describe(value) + " after " + offset;
                case 3 -> "set " + key + "=" + describe(value) + " keep";
                case 4 -> "delete " + key;
                case 5 -> "expire " + key + " at now+" + offset;
                case 6 -> "expireAfter " + key + " " + offset;
                default -> "persist " + key;
            };
        }

        void addTo(final WriteBatch batch, final long now)
        {
            switch (kind)
            {
                case 0 -> batch.set(key.bytes(), value);
                case 1 -> batch.set(key.bytes(), value, ExpiryMode.AT, now + offset);
                case 2 -> batch.set(key.bytes(), value, ExpiryMode.AFTER, offset);
                case 3 -> batch.set(key.bytes(), value, ExpiryMode.KEEP, 0);
                case 4 -> batch.delete(key.bytes());
                case 5 -> batch.expire(key.bytes(), now + offset);
                case 6 -> batch.expireAfter(key.bytes(), offset);
                default -> batch.persist(key.bytes());
            }
        }

        void applyTo(final StoreModel model, final long now)
        {
            switch (kind)
            {
                case 0 -> model.set(key, value, SetCondition.ALWAYS, ExpiryMode.CLEAR, 0);
                case 1, 2 -> model.set(key, value, SetCondition.ALWAYS, ExpiryMode.AT, now + offset);
                case 3 -> model.set(key, value, SetCondition.ALWAYS, ExpiryMode.KEEP, 0);
                case 4 -> model.delete(key);
                case 5, 6 -> model.expire(key, now + offset, ExpireCondition.ALWAYS);
                default -> model.persist(key);
            }
        }
    }

    private static Action.Independent<ModelRun> writeBatch(final Universe u)
    {
        final Arbitrary<Step> steps = Combinators.combine(Arbitraries.integers().between(0, 7), u.keys(), u.values(),
            offsets()).as(Step::new);
        return () -> steps.list().ofMinSize(1).ofMaxSize(8).map(list ->
            Transformer.<ModelRun>mutate("write " + list, run ->
            {
                final WriteBatch batch = new WriteBatch();
                list.forEach(step -> step.addTo(batch, run.now()));
                run.same("write " + list, () ->
                {
                    list.forEach(step -> step.applyTo(run.model, run.now()));
                    return null;
                }, () ->
                {
                    run.store.write(batch);
                    return null;
                });
            }));
    }

    private static Action.Independent<ModelRun> getAll(final Universe u)
    {
        return () -> Combinators.combine(u.keys().list().ofMinSize(1).ofMaxSize(5), direct()).as((ks, direct) ->
            Transformer.<ModelRun>mutate("getAll " + ks + (direct ? " (direct)" : ""), run ->
            {
                final List<byte[]> keyBytes = new ArrayList<>();
                ks.forEach(k -> keyBytes.add(k.bytes()));
                run.same("getAll " + ks, () -> run.model.getAll(ks),
                    () -> direct ? getAllDirect(run.store, keyBytes) : run.store.getAll(keyBytes));
            }));
    }

    /**
     * The zero-copy getAll, its keys packed into one buffer behind a byte of junk each, its values read back into
     * a list.
     */
    private static List<byte[]> getAllDirect(final OffHeapStore store, final List<byte[]> keys)
    {
        final ExpandableArrayBuffer packed = new ExpandableArrayBuffer(64);
        final int n = keys.size();
        final int[] offsets = new int[n];
        final int[] lengths = new int[n];
        int at = 0;
        for (int i = 0; i < n; i++)
        {
            packed.putByte(at++, (byte)'#');
            offsets[i] = at;
            lengths[i] = keys.get(i).length;
            packed.putBytes(at, keys.get(i));
            at += lengths[i];
        }
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);
        final int[] valueLengths = new int[n];
        final int total = store.getAll(packed, offsets, lengths, n, dst, 5, valueLengths);
        final List<byte[]> values = new ArrayList<>(n);
        int from = 5;
        for (int i = 0; i < n; i++)
        {
            values.add(copied(valueLengths[i], dst, from));
            from += Math.max(0, valueLengths[i]);
        }
        assertEquals(from - 5, total, "bytes copied");
        return values;
    }

    private static Action.Independent<ModelRun> valueLength(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), direct()).as((k, direct) -> Transformer.<ModelRun>mutate(
            "valueLength " + k + (direct ? " (direct)" : ""), run ->
                run.same("valueLength " + k, () -> run.model.valueLength(k),
                    () -> direct ? run.store.valueLength(at3(k.bytes()), 3, k.length()) :
                        run.store.valueLength(k.bytes()))));
    }

    private static Action.Independent<ModelRun> getRange(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), rangeIndexes(), rangeIndexes(), direct())
            .as((k, start, end, direct) -> Transformer.<ModelRun>mutate(
                "getRange " + k + " " + start + " " + end + (direct ? " (direct)" : ""), run ->
                {
                    final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);
                    run.same("getRange " + k, () -> run.model.getRange(k, start, end),
                        () -> direct ? copied(run.store.getRange(at3(k.bytes()), 3, k.length(), start, end, dst, 4),
                            dst, 4) : run.store.getRange(k.bytes(), start, end));
                }));
    }

    private static Action.Independent<ModelRun> setRange(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), rangeOffsets(), u.values(), direct())
            .as((k, offset, v, direct) -> Transformer.<ModelRun>mutate(
                "setRange " + k + " " + offset + " " + describe(v) + (direct ? " (direct)" : ""), run ->
                    run.same("setRange " + k, () -> run.model.setRange(k, offset, v),
                        () -> direct ? run.store.setRange(at3(k.bytes()), 3, k.length(), offset, at3(v), 3, v.length) :
                            run.store.setRange(k.bytes(), offset, v))));
    }

    private static Action.Independent<ModelRun> rename(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), u.keys(), Arbitraries.of(true, false), direct())
            .as((k, newKey, replace, direct) -> Transformer.<ModelRun>mutate(
                "rename " + k + " " + newKey + (replace ? "" : " (nx)") + (direct ? " (direct)" : ""), run ->
                    run.same("rename " + k + " " + newKey, () -> run.model.rename(k, newKey, replace),
                        () -> direct ? run.store.rename(at3(k.bytes()), 3, k.length(), at3(newKey.bytes()), 3,
                            newKey.length(), replace) : run.store.rename(k.bytes(), newKey.bytes(), replace))));
    }

    private static Action.Independent<ModelRun> randomKey(final Universe u)
    {
        return () -> Arbitraries.just(Transformer.<ModelRun>mutate("randomKey", run ->
        {
            final byte[] key = run.store.randomKey();
            if (run.model.liveCount() == 0)
            {
                assertNull(key, "randomKey of a store with no live key");
            }
            else
            {
                assertTrue(key != null && run.model.liveKeys().contains(new ByteArrayKey(key)),
                    "randomKey returned " + (key == null ? null : ByteArrayKey.printable(key)) + ", live keys are " +
                    run.model.liveKeys());
            }
        }));
    }

    private static Action.Independent<ModelRun> incrementByFloat(final Universe u)
    {
        return () -> Combinators.combine(u.keys(), floatDeltas(), direct()).as((k, delta, direct) ->
            Transformer.<ModelRun>mutate("incrementByFloat " + k + " " + delta + (direct ? " (direct)" : ""), run ->
            {
                final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(4);
                run.same("incrementByFloat " + k, () -> run.model.incrementByFloat(k, delta),
                    () -> direct ?
                        copied(run.store.incrementByFloat(at3(k.bytes()), 3, k.length(), delta, dst, 6), dst, 6) :
                        run.store.incrementByFloat(k.bytes(), delta));
            }));
    }

    private static Action.Independent<ModelRun> advanceTime(final Universe u)
    {
        return () -> Arbitraries.longs().between(1, 30).map(ms -> Transformer.<ModelRun>mutate("advance " + ms + "ms", run ->
            run.clock.advance(ms)));
    }

    private static Action.Independent<ModelRun> sweep(final Universe u)
    {
        return () -> Arbitraries.just(Transformer.<ModelRun>mutate("sweepExpired", run ->
        {
            final int expected = run.model.sweep();
            final int reclaimed = run.store.sweepExpired();
            assertTrue(reclaimed >= 0 && reclaimed <= expected,
                "sweepExpired reclaimed " + reclaimed + ", but only " + expected + " entries had expired");
            assertEquals(0, run.store.sweepExpired(), "a second sweep at the same instant reclaims nothing");
            run.checkExactCounts();
        }));
    }

    private static Action.Independent<ModelRun> scan(final Universe u)
    {
        return () -> Arbitraries.integers().between(1, 20).map(count -> Transformer.<ModelRun>mutate("scan count=" + count,
            run ->
            {
                final TreeSet<ByteArrayKey> found = new TreeSet<>();
                long cursor = 0;
                int steps = 0;
                do
                {
                    final io.agni.api.ScanResult result = run.store.scan(cursor, null, count);
                    result.keys().forEach(key -> found.add(new ByteArrayKey(key)));
                    cursor = result.cursor();
                    assertTrue(++steps < 1_000_000, "scan did not end");
                }
                while (cursor != 0);
                assertEquals(run.model.liveKeys(), found, "keys found by a full scan");
            }));
    }

    private static Action.Independent<ModelRun> reopen(final Universe u)
    {
        return () -> Arbitraries.of(true, false).map(clean -> Transformer.<ModelRun>mutate(
            clean ? "close and reopen" : "crash and reopen", run -> run.reopen(clean)));
    }

    private static Action.Independent<ModelRun> clear(final Universe u)
    {
        return () -> Arbitraries.just(Transformer.<ModelRun>mutate("clear", run ->
        {
            run.model.clear();
            run.store.clear();
            assertEquals(0, run.store.size());
        }));
    }
}
