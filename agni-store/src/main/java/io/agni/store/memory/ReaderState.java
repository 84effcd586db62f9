package io.agni.store.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What reclamation needs to know of one thread's operations on one store: how many are in flight, and how often
 * the thread has left all of them (its quiescent points). Each thread's per-store context extends this class, so
 * the state sits on the context's own cache line, which no other thread writes (docs/architecture.md,
 * "Reclamation").
 * <p>
 * Both live in one {@code long}: the in-flight depth in its low {@value #DEPTH_BITS} bits, the quiescent points
 * above them. Leaving the outermost operation therefore publishes both with one store, and a reclaimer reads both
 * at one instant. The depth cannot reach 2^32 (each level is a frame of a nested call), so it needs no check. The
 * points wrap after 2^32; a reclaimer only asks whether they changed since it looked, and a count that came round
 * to the same value exactly makes it keep a buffer longer, never free one early.
 *
 * <h2>Concurrency</h2>
 * Only the owning thread writes. {@link #markEntered()} is a volatile store, which the store's gate follows with a
 * volatile read (of its closed flag): together a full fence, so no load of the operation can be satisfied before
 * the mark is visible to a thread that fences and then reads it (the Dekker pattern of {@code OperationGate} and
 * {@code RetiredBuffers}). {@link #markExited()} publishes with a release store, of the lower depth and, when the
 * thread leaves its outermost operation, one more quiescent point. A thread that reads the state with acquire and
 * sees the new value therefore sees every access of the operations that ended before it.
 */
public class ReaderState
{
    /**
     * The bits of the state that hold the in-flight depth.
     */
    static final int DEPTH_BITS = 32;
    private static final long DEPTH_MASK = (1L << DEPTH_BITS) - 1;
    private static final long ONE_POINT = 1L << DEPTH_BITS;
    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(ReaderState.class, "state", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * The thread that owns this state (the one that created it): to prune the states of threads that ended, and so
     * that a thread's own outermost operation does not hold back the buffers it retires ({@code RetiredBuffers}).
     */
    public final Thread owner = Thread.currentThread();

    /**
     * The quiescent points (only ever grows) above the depth of the owner's operations in flight (more than 1 while
     * one operation runs inside another).
     */
    private long state;

    /**
     * A state with nothing in flight.
     */
    protected ReaderState()
    {
    }

    /**
     * Marks one more operation in flight. The owning thread; the caller must follow this with a volatile read
     * before its operation loads anything shared (the gate reads its closed flag).
     */
    public final void markEntered()
    {
        STATE.setVolatile(this, state + 1);
    }

    /**
     * Marks one operation finished; leaving the outermost one is a quiescent point. The owning thread.
     */
    public final void markExited()
    {
        final long s = state;
        // release: every access of the operation happens before a close() or a reclaimer that reads the new state
        STATE.setRelease(this, (s & DEPTH_MASK) == 1 ? s - 1 + ONE_POINT : s - 1);
    }

    /**
     * The depth of the owning thread's own operations, read by that thread (a plain read: it wrote it).
     *
     * @return the depth; {@code 0} outside any operation.
     */
    public final int ownDepth()
    {
        return (int)(state & DEPTH_MASK);
    }

    /**
     * The operations in flight now, as seen by another thread (volatile read). Any thread.
     *
     * @return the depth; {@code 0} when the owner is in no operation.
     */
    public final int inFlight()
    {
        return (int)((long)STATE.getVolatile(this) & DEPTH_MASK);
    }

    /**
     * The owner's state now, for a reclaimer: read once with acquire (pairs with the release in
     * {@link #markExited()}), then split with {@link #depthOf} and {@link #pointsOf}. Any thread.
     *
     * @return the state.
     */
    final long state()
    {
        return (long)STATE.getAcquire(this);
    }

    static int depthOf(final long state)
    {
        return (int)(state & DEPTH_MASK);
    }

    static long pointsOf(final long state)
    {
        return state >>> DEPTH_BITS;
    }

    /**
     * The owner's quiescent points so far (acquire). Any thread.
     *
     * @return the count.
     */
    final long quiescentPoints()
    {
        return pointsOf(state());
    }
}
