package io.agni.store.crash;

import io.agni.store.crash.CrashOps.Kind;
import io.agni.store.crash.CrashOps.Op;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The operations of the global-prefix tests, numbered by one counter that every writer thread shares (see
 * {@link Recorder}): operation n is generated from the seed, n and its thread alone, so a test can tell from a
 * recovered store which operations it holds and whether each is whole.
 * <p>
 * Operation n writes its own keys {@code n<n>-p<part>}, which no other operation touches, with values that carry n.
 * A {@code setAll} also writes its thread's key {@code last-t<thread>} and, half of the time, the key {@code last}
 * that every thread writes; a {@code write(WriteBatch)} always writes {@code last} and, half of the time, its
 * thread's key; both with n as the value. Among the operations a store holds, the value of a shared key names the
 * one it applied last, which the check compares with the real-time order. A batch mixes sets (with and without
 * expiry, keeping it), deletes, expires and persists of a few of its own keys, some set and deleted again inside
 * the batch, so a batch recovered in part leaves own keys that differ from what the whole batch leaves. About a
 * third of the operations are single sets of one own key, which run in parallel with everything on other shards.
 */
final class NumberedOps
{
    static final String LAST = "last";
    static final String THREAD_LAST = "last-t";

    /**
     * Own keys a batch chooses from; a batch that leaves none of them adds a set of one more.
     */
    private static final int OWN_PARTS = 4;
    private static final int MAX_BATCH_STEPS = 8;

    private NumberedOps()
    {
    }

    static String threadLast(final int thread)
    {
        return THREAD_LAST + thread;
    }

    /**
     * The prefix of every own key of operation {@code n}.
     */
    static String ownPrefix(final long n)
    {
        return "n" + n + "-p";
    }

    static Op op(final long seed, final long n, final int thread)
    {
        final Random random = new Random(seed * 1_000_003L ^ n * 0x9E3779B97F4A7C15L);
        final int roll = random.nextInt(100);
        if (roll < 35)
        {
            final String key = ownPrefix(n) + 0;
            return roll < 25 ? new Op(Kind.SET, List.of(key), List.of(value(random, n, 0)), 0) :
                new Op(Kind.SET_EXPIRING, List.of(key), List.of(value(random, n, 0)), expireAt(random));
        }
        if (roll < 65)
        {
            return setAll(random, n, thread);
        }
        return batch(random, n, thread);
    }

    private static Op setAll(final Random random, final long n, final int thread)
    {
        final List<String[]> pairs = new ArrayList<>();
        final int own = 1 + random.nextInt(3);
        for (int part = 0; part < own; part++)
        {
            pairs.add(new String[] {ownPrefix(n) + part, value(random, n, part)});
        }
        pairs.add(new String[] {threadLast(thread), Long.toString(n)});
        if (random.nextBoolean())
        {
            pairs.add(new String[] {LAST, Long.toString(n)});
        }
        Collections.shuffle(pairs, random);
        return new Op(Kind.MSET, pairs.stream().map(p -> p[0]).toList(), pairs.stream().map(p -> p[1]).toList(), 0);
    }

    private static Op batch(final Random random, final long n, final int thread)
    {
        final List<Op> steps = new ArrayList<>();
        final int ownSteps = 1 + random.nextInt(MAX_BATCH_STEPS - 1);
        for (int i = 0; i < ownSteps; i++)
        {
            final String key = ownPrefix(n) + random.nextInt(OWN_PARTS);
            final int roll = random.nextInt(100);
            if (roll < 35)
            {
                steps.add(new Op(Kind.SET, List.of(key), List.of(value(random, n, i)), 0));
            }
            else if (roll < 55)
            {
                steps.add(new Op(Kind.SET_EXPIRING, List.of(key), List.of(value(random, n, i)), expireAt(random)));
            }
            else if (roll < 65)
            {
                steps.add(new Op(Kind.SET_KEEPING_EXPIRY, List.of(key), List.of(value(random, n, i)), 0));
            }
            else if (roll < 80)
            {
                steps.add(new Op(Kind.DELETE, List.of(key), List.of(), 0));
            }
            else if (roll < 90)
            {
                steps.add(new Op(Kind.EXPIRE, List.of(key), List.of(), expireAt(random)));
            }
            else
            {
                steps.add(new Op(Kind.PERSIST, List.of(key), List.of(), 0));
            }
        }
        if (ownState(new Op(Kind.WRITE_BATCH, List.of(), List.of(), 0, steps), n).isEmpty())
        {
            steps.add(new Op(Kind.SET, List.of(ownPrefix(n) + OWN_PARTS), List.of(value(random, n, ownSteps)), 0));
        }
        steps.add(random.nextInt(steps.size() + 1), new Op(Kind.SET, List.of(LAST), List.of(Long.toString(n)), 0));
        if (random.nextBoolean())
        {
            steps.add(random.nextInt(steps.size() + 1),
                new Op(Kind.SET, List.of(threadLast(thread)), List.of(Long.toString(n)), 0));
        }
        return new Op(Kind.WRITE_BATCH, List.of(), List.of(), 0, steps);
    }

    /**
     * What operation {@code n} leaves in its own keys: since no other operation touches them, the same in every
     * store that holds it whole.
     */
    static Map<String, CrashOps.Entry> ownState(final Op op, final long n)
    {
        final Map<String, CrashOps.Entry> model = new HashMap<>();
        CrashOps.apply(model, op);
        model.keySet().removeIf(key -> !key.startsWith(ownPrefix(n)));
        return model;
    }

    /**
     * Whether the operation writes {@code key}, itself or in a step of its batch.
     */
    static boolean writes(final Op op, final String key)
    {
        return op.keys().contains(key) || op.steps().stream().anyMatch(step -> step.keys().contains(key));
    }

    /**
     * A value no other operation writes: the operation's number, the step, then a random length of padding.
     */
    private static String value(final Random random, final long n, final int step)
    {
        return "n" + n + "-s" + step + "-" + "v".repeat(random.nextInt(200));
    }

    private static long expireAt(final Random random)
    {
        return CrashOps.FAR + random.nextInt(1_000_000);
    }
}
