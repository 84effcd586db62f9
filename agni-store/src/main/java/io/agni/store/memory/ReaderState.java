package io.agni.store.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What reclamation needs to know of one thread's operations on one store: how many are in flight, and how often
 * the thread has left all of them (its quiescent points). Each thread's per-store context extends this class, so
 * both fields sit on the context's own cache line, which no other thread writes (docs/architecture.md,
 * "Reclamation").
 *
 * <h2>Concurrency</h2>
 * Only the owning thread writes. {@link #markEntered()} is a volatile store, which the store's gate follows with a
 * volatile read (of its closed flag): together a full fence, so no load of the operation can be satisfied before
 * the mark is visible to a thread that fences and then reads it (the Dekker pattern of {@code OperationGate} and
 * {@code RetiredBuffers}). {@link #markExited()} publishes with release stores: first the count of quiescent
 * points, when the thread leaves its outermost operation, then the in-flight depth. A thread that reads either with
 * acquire and sees the new value therefore sees every access of the operations that ended before it.
 */
public class ReaderState
{
    private static final VarHandle IN_FLIGHT;
    private static final VarHandle QUIESCENT_POINTS;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            IN_FLIGHT = lookup.findVarHandle(ReaderState.class, "inFlight", int.class);
            QUIESCENT_POINTS = lookup.findVarHandle(ReaderState.class, "quiescentPoints", long.class);
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
     * How often the owner left its outermost operation; only ever grows.
     */
    private long quiescentPoints;

    /**
     * The owner's operations in flight: more than 1 while one operation runs inside another.
     */
    private int inFlight;

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
        IN_FLIGHT.setVolatile(this, inFlight + 1);
    }

    /**
     * Marks one operation finished; leaving the outermost one is a quiescent point. The owning thread.
     */
    public final void markExited()
    {
        final int depth = inFlight - 1;
        if (depth == 0)
        {
            // release: every access of the operation happens before a reclaimer that reads the new count
            QUIESCENT_POINTS.setRelease(this, quiescentPoints + 1);
        }
        // release: pairs with close()'s volatile read and the reclaimer's acquire read
        IN_FLIGHT.setRelease(this, depth);
    }

    /**
     * The operations in flight now, as seen by another thread (volatile read). Any thread.
     *
     * @return the depth; {@code 0} when the owner is in no operation.
     */
    public final int inFlight()
    {
        return (int)IN_FLIGHT.getVolatile(this);
    }

    /**
     * The owner's quiescent points so far (acquire: pairs with the release in {@link #markExited()}). Any thread.
     *
     * @return the count.
     */
    final long quiescentPoints()
    {
        return (long)QUIESCENT_POINTS.getAcquire(this);
    }
}
