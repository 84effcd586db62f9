package io.agni.store.memory;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The debug-memory mode: when the JVM runs with {@code -Dagni.debugMemory=true}, every off-heap allocation of every
 * store is recorded with the stack that made it, so that tests can catch leaks, double frees and use after free.
 * The flag is read once; with it off, every method here is a no-op the JIT removes.
 *
 * <h2>Concurrency</h2>
 * Any thread; the registry is guarded by its own monitor (debug mode is for tests, not for speed).
 */
public final class DebugMemory
{
    /**
     * Whether the debug-memory mode is on, read once from the system property {@code agni.debugMemory}.
     */
    public static final boolean ENABLED = Boolean.getBoolean("agni.debugMemory");

    private static final Map<UnsafeBuffer, Throwable> LIVE = new IdentityHashMap<>();
    private static final Map<UnsafeBuffer, Throwable> RELEASED = new IdentityHashMap<>();
    private static final Map<UnsafeBuffer, Throwable> REPORTED = new IdentityHashMap<>();

    private DebugMemory()
    {
    }

    static void recordAllocation(final UnsafeBuffer buffer, final int capacity)
    {
        if (ENABLED)
        {
            synchronized (LIVE)
            {
                LIVE.put(buffer, new Throwable("allocated " + capacity + " bytes"));
            }
        }
    }

    static void recordRelease(final UnsafeBuffer buffer, final String how)
    {
        if (ENABLED)
        {
            synchronized (LIVE)
            {
                if (LIVE.remove(buffer) == null && REPORTED.remove(buffer) == null)
                {
                    final Throwable first = RELEASED.get(buffer);
                    throw new IllegalStateException(
                        "double free: buffer " + describe(buffer) + " " + how + " after it was already released" +
                        (first == null ? " (or never allocated by agni)" : ""), first);
                }
                RELEASED.put(buffer, new Throwable(how));
            }
        }
    }

    /**
     * Allocations neither freed nor retired yet, over all stores in this JVM.
     *
     * @return the number of outstanding allocations; always {@code 0} with the mode off.
     */
    public static long outstanding()
    {
        if (!ENABLED)
        {
            return 0;
        }
        synchronized (LIVE)
        {
            return LIVE.size();
        }
    }

    /**
     * Fails if any allocation is outstanding, listing each with the stack that made it. Reported allocations are
     * set aside, so that one leaking test does not fail every later one, and releasing them later is not taken for
     * a double free.
     *
     * @throws AssertionError if memory leaked.
     */
    public static void assertNoLeaks()
    {
        if (!ENABLED)
        {
            return;
        }
        final List<Throwable> leaks;
        synchronized (LIVE)
        {
            leaks = new ArrayList<>(LIVE.values());
            REPORTED.putAll(LIVE);
            LIVE.clear();
            RELEASED.clear();
        }
        if (!leaks.isEmpty())
        {
            final AssertionError error = new AssertionError(leaks.size() + " off-heap allocation(s) leaked");
            leaks.forEach(error::addSuppressed);
            throw error;
        }
    }

    private static String describe(final UnsafeBuffer buffer)
    {
        return "@" + Integer.toHexString(System.identityHashCode(buffer));
    }
}
