package io.agni.store.crash;

import io.agni.api.AgniStore;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The operations of one writer thread of the crash test, generated from a seed so that the child that runs them and
 * the test that checks the outcome see the same sequence; and a model of what each prefix of them leaves.
 */
public final class CrashOps
{
    /**
     * An expiry time far in the future (2100-01-01), so entries never expire during a test.
     */
    static final long FAR = 4_102_444_800_000L;

    static final int KEYS_PER_THREAD = 40;

    enum Kind
    {
        SET, SET_EXPIRING, MSET, DELETE, EXPIRE, PERSIST
    }

    /**
     * One operation: its kind, the keys and values it writes.
     */
    public record Op(Kind kind, List<String> keys, List<String> values, long expireAt)
    {
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
        if (roll < 40)
        {
            return new Op(Kind.SET, List.of(key), List.of(value()), 0);
        }
        if (roll < 50)
        {
            return new Op(Kind.SET_EXPIRING, List.of(key), List.of(value()), FAR + random.nextInt(1_000_000));
        }
        if (roll < 75)
        {
            final int n = 2 + random.nextInt(4);
            final List<String> keys = new ArrayList<>();
            final List<String> values = new ArrayList<>();
            for (int i = 0; i < n; i++)
            {
                keys.add(key(thread, random.nextInt(KEYS_PER_THREAD)));
                values.add(value());
            }
            return new Op(Kind.MSET, keys, values, 0);
        }
        if (roll < 88)
        {
            return new Op(Kind.DELETE, List.of(key), List.of(), 0);
        }
        if (roll < 94)
        {
            return new Op(Kind.EXPIRE, List.of(key), List.of(), FAR + random.nextInt(1_000_000));
        }
        return new Op(Kind.PERSIST, List.of(key), List.of(), 0);
    }

    private String value()
    {
        return "t" + thread + "-o" + number + "-" + "v".repeat(random.nextInt(300));
    }

    public static void apply(final AgniStore store, final Op op)
    {
        final byte[] key = bytes(op.keys().get(0));
        switch (op.kind())
        {
            case SET -> store.set(key, bytes(op.values().get(0)));
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

    public static void apply(final Map<String, Entry> model, final Op op)
    {
        final String key = op.keys().get(0);
        switch (op.kind())
        {
            case SET -> model.put(key, new Entry(op.values().get(0), 0));
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
