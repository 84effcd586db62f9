package io.agni.store.crash;

import io.agni.api.AgniStore;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.WriteBatch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The operations of one writer thread of the crash test, generated from a seed so that the child that runs them and
 * the test that checks the outcome see the same sequence; and a model of what each prefix of them leaves. Single-key
 * writes, {@code setAll}s and {@code write(WriteBatch)}es mixing sets (with and without expiry, keeping it), deletes,
 * expires and persists over a few keys; every set writes a value no other operation writes, so a batch recovered in
 * part leaves a state that no prefix of the operations leaves.
 */
public final class CrashOps
{
    /**
     * An expiry time far in the future (2100-01-01), so entries never expire during a test.
     */
    static final long FAR = 4_102_444_800_000L;

    static final int KEYS_PER_THREAD = 40;

    /**
     * The most operations in one {@link Kind#WRITE_BATCH}.
     */
    static final int MAX_BATCH_STEPS = 8;

    enum Kind
    {
        SET, SET_EXPIRING, SET_KEEPING_EXPIRY, MSET, WRITE_BATCH, DELETE, EXPIRE, PERSIST
    }

    /**
     * One operation: its kind, the keys and values it writes, and for {@link Kind#WRITE_BATCH} the single-key
     * operations of the batch, in order.
     */
    public record Op(Kind kind, List<String> keys, List<String> values, long expireAt, List<Op> steps)
    {
        Op(final Kind kind, final List<String> keys, final List<String> values, final long expireAt)
        {
            this(kind, keys, values, expireAt, List.of());
        }
    }

    /**
     * An entry of the model: value and expiry time (0 for none).
     */
    public record Entry(String value, long expireAt)
    {
    }

    private final int thread;
    private final Random random;
    private int number;

    public CrashOps(final long seed, final int thread)
    {
        this.thread = thread;
        this.random = new Random(seed * 1_000_003L + thread);
    }

    static String key(final int thread, final int i)
    {
        return "t" + thread + "-k" + i;
    }

    public Op next()
    {
        number++;
        final int roll = random.nextInt(100);
        final String key = key(thread, random.nextInt(KEYS_PER_THREAD));
        if (roll < 35)
        {
            return new Op(Kind.SET, List.of(key), List.of(value(0)), 0);
        }
        if (roll < 43)
        {
            return new Op(Kind.SET_EXPIRING, List.of(key), List.of(value(0)), FAR + random.nextInt(1_000_000));
        }
        if (roll < 60)
        {
            final int n = 2 + random.nextInt(4);
            final List<String> keys = new ArrayList<>();
            final List<String> values = new ArrayList<>();
            for (int i = 0; i < n; i++)
            {
                keys.add(key(thread, random.nextInt(KEYS_PER_THREAD)));
                values.add(value(i));
            }
            return new Op(Kind.MSET, keys, values, 0);
        }
        if (roll < 80)
        {
            return batch();
        }
        if (roll < 90)
        {
            return new Op(Kind.DELETE, List.of(key), List.of(), 0);
        }
        if (roll < 95)
        {
            return new Op(Kind.EXPIRE, List.of(key), List.of(), FAR + random.nextInt(1_000_000));
        }
        return new Op(Kind.PERSIST, List.of(key), List.of(), 0);
    }

    /**
     * A batch of 2 to {@link #MAX_BATCH_STEPS} single-key operations over a few of the thread's keys, so that a key
     * often comes up more than once: every kind of step, each set with a value of its own.
     */
    private Op batch()
    {
        final int steps = 2 + random.nextInt(MAX_BATCH_STEPS - 1);
        final int first = random.nextInt(KEYS_PER_THREAD);
        final List<Op> batch = new ArrayList<>();
        for (int i = 0; i < steps; i++)
        {
            final String key = key(thread, (first + random.nextInt(4)) % KEYS_PER_THREAD);
            final int roll = random.nextInt(100);
            final long expireAt = FAR + random.nextInt(1_000_000);
            if (roll < 30)
            {
                batch.add(new Op(Kind.SET, List.of(key), List.of(value(i)), 0));
            }
            else if (roll < 45)
            {
                batch.add(new Op(Kind.SET_EXPIRING, List.of(key), List.of(value(i)), expireAt));
            }
            else if (roll < 55)
            {
                batch.add(new Op(Kind.SET_KEEPING_EXPIRY, List.of(key), List.of(value(i)), 0));
            }
            else if (roll < 75)
            {
                batch.add(new Op(Kind.DELETE, List.of(key), List.of(), 0));
            }
            else if (roll < 90)
            {
                batch.add(new Op(Kind.EXPIRE, List.of(key), List.of(), expireAt));
            }
            else
            {
                batch.add(new Op(Kind.PERSIST, List.of(key), List.of(), 0));
            }
        }
        return new Op(Kind.WRITE_BATCH, List.of(), List.of(), 0, batch);
    }

    /**
     * A value no other operation writes: the thread, the operation's number and its part in the operation.
     */
    private String value(final int part)
    {
        return "t" + thread + "-o" + number + "-p" + part + "-" + "v".repeat(random.nextInt(300));
    }

    public static void apply(final AgniStore store, final Op op)
    {
        if (op.kind() == Kind.WRITE_BATCH)
        {
            final WriteBatch batch = new WriteBatch();
            for (final Op step : op.steps())
            {
                add(batch, step);
            }
            store.write(batch);
            return;
        }
        final byte[] key = bytes(op.keys().get(0));
        switch (op.kind())
        {
            case SET -> store.set(key, bytes(op.values().get(0)));
            case SET_KEEPING_EXPIRY -> store.set(key, bytes(op.values().get(0)), SetCondition.ALWAYS, ExpiryMode.KEEP, 0);
            case SET_EXPIRING -> store.set(key, bytes(op.values().get(0)), SetCondition.ALWAYS, ExpiryMode.AT,
                op.expireAt());
            case MSET -> store.setAll(op.keys().stream().map(CrashOps::bytes).toList(),
                op.values().stream().map(CrashOps::bytes).toList(), SetCondition.ALWAYS);
            case DELETE -> store.delete(key);
            case EXPIRE -> store.expire(key, op.expireAt(), ExpireCondition.ALWAYS);
            case PERSIST -> store.persist(key);
            default -> throw new IllegalStateException(op.kind().name());
        }
    }

    private static void add(final WriteBatch batch, final Op step)
    {
        final byte[] key = bytes(step.keys().get(0));
        switch (step.kind())
        {
            case SET -> batch.set(key, bytes(step.values().get(0)));
            case SET_EXPIRING -> batch.set(key, bytes(step.values().get(0)), ExpiryMode.AT, step.expireAt());
            case SET_KEEPING_EXPIRY -> batch.set(key, bytes(step.values().get(0)), ExpiryMode.KEEP, 0);
            case DELETE -> batch.delete(key);
            case EXPIRE -> batch.expire(key, step.expireAt());
            case PERSIST -> batch.persist(key);
            default -> throw new IllegalStateException(step.kind().name());
        }
    }

    public static void apply(final Map<String, Entry> model, final Op op)
    {
        if (op.kind() == Kind.WRITE_BATCH)
        {
            for (final Op step : op.steps())
            {
                apply(model, step);
            }
            return;
        }
        final String key = op.keys().get(0);
        switch (op.kind())
        {
            case SET -> model.put(key, new Entry(op.values().get(0), 0));
            case SET_KEEPING_EXPIRY -> model.put(key, new Entry(op.values().get(0),
                model.containsKey(key) ? model.get(key).expireAt() : 0));
            case SET_EXPIRING -> model.put(key, new Entry(op.values().get(0), op.expireAt()));
            case MSET ->
            {
                for (int i = 0; i < op.keys().size(); i++)
                {
                    model.put(op.keys().get(i), new Entry(op.values().get(i), 0));
                }
            }
            case DELETE -> model.remove(key);
            case EXPIRE -> model.computeIfPresent(key, (k, e) -> new Entry(e.value(), op.expireAt()));
            case PERSIST -> model.computeIfPresent(key, (k, e) -> new Entry(e.value(), 0));
            default -> throw new IllegalStateException(op.kind().name());
        }
    }

    /**
     * What a store holds for one thread's keys.
     */
    public static Map<String, Entry> read(final AgniStore store, final int thread)
    {
        final Map<String, Entry> state = new HashMap<>();
        for (int i = 0; i < KEYS_PER_THREAD; i++)
        {
            final String key = key(thread, i);
            final byte[] value = store.get(bytes(key));
            if (value != null)
            {
                final long expireAt = store.expireTimeMillis(bytes(key));
                state.put(key, new Entry(new String(value, StandardCharsets.UTF_8), expireAt < 0 ? 0 : expireAt));
            }
        }
        return state;
    }

    static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
