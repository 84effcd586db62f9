package io.agni.store;

import io.agni.api.DeferredDurability;
import io.agni.api.StoreClosedException;
import io.agni.store.log.ChangeRecorder;
import io.agni.store.log.LogWriter;
import io.agni.store.shard.ThreadContext;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets {@code close()} wait for every operation in flight before memory is freed, and lets retired memory be freed
 * once no reader can be inside it, without a shared counter on the hot path (docs/architecture.md, "Close" and
 * "Reclamation").
 *
 * <h2>Concurrency</h2>
 * Each thread has its own {@link ThreadContext}. An operation marks itself in flight with a volatile store to its
 * own context's in-flight depth ({@link ThreadContext#markEntered()}) and only then reads {@link #closed}
 * (volatile); {@link #close()} writes {@code closed} (volatile) and only then reads every context's depth. Volatile
 * accesses are sequentially consistent, so either the operation sees {@code closed} and backs out, or the closer
 * sees it in flight and waits: the Dekker pattern, one fence per operation on a line no other thread writes.
 * Leaving ({@link ThreadContext#markExited()}) is one release store, which pairs with the closer's volatile read.
 * <p>
 * The same store-then-load order makes the contexts the readers of {@code OffHeapMemory}'s limbo: a writer that
 * retires a buffer fences and reads every context, and a context that was in flight then keeps the buffer until it
 * counts a quiescent point (leaves its outermost operation). The depth and the count of quiescent points are one
 * word, so leaving the outermost operation is the same one release store; nested operations (depth above 1) only
 * move the depth.
 * <p>
 * Work that keeps the store open but reads none of its memory outside a shard's lock (the log's background sync and
 * spare segments, a checkpoint, whose snapshot reads each shard under its read lock, the expiry sweep, which works
 * under each shard's write lock in turn) <em>holds</em> the gate instead
 * ({@link #hold()}): the same Dekker pairing with {@code closed} on a counter of its own, which close waits for and
 * reclamation does not read. A buffer is retired only under the write lock of the shard that owned it, after it is
 * unlinked, so a thread that reads a shard only under that shard's lock never holds a retired buffer. An fsync or a
 * snapshot of many seconds therefore does not keep the memory that writers retire meanwhile out of the budget (it
 * did, as an operation: a store at its budget refused writes that eviction had made room for).
 */
final class OperationGate implements DeferredDurability
{
    private final String name;
    private final ThreadLocal<ThreadContext> local = ThreadLocal.withInitial(this::register);
    private final List<ThreadContext> contexts = new CopyOnWriteArrayList<>();
    private final Object registry = new Object();
    private volatile long endedHits;
    private volatile long endedMisses;
    private volatile boolean closed;
    /**
     * The store's log once recovery is over, {@code null} without one; guarded by {@link #registry}.
     */
    private LogWriter log;
    /**
     * Whether an operation waits, before it returns, for its log records to be on the device ({@code PARANOID}).
     * Plain, since every operation reads it: it is set by {@link #attachLog} inside the store's constructor, before
     * the freeze of the store's final fields, through which every other thread reaches this gate.
     */
    private boolean awaitDurable;

    OperationGate(final String name)
    {
        this.name = name;
    }

    /**
     * Holds the store open for work that reads its memory only under shard locks, or not at all (class comment):
     * {@link #close()} waits for it, reclamation does not. Any thread; pair with {@link #release}.
     *
     * @return the thread's context, to pass to {@link #release}.
     * @throws StoreClosedException if the store is closed.
     */
    ThreadContext hold()
    {
        final ThreadContext c = local.get();
        c.markHolding();
        // volatile read after the volatile store, as in enter()
        if (closed)
        {
            c.markReleased();
            throw new StoreClosedException(name + " is closed");
        }
        return c;
    }

    /**
     * Ends a {@link #hold()}. As {@link #exit} does, an outermost one first waits for the records the thread logged
     * (the expiry sweep's deletes) to be on the device where writes wait for that ({@code PARANOID}); a thread that
     * logged nothing does not wait.
     *
     * @param c the context {@link #hold()} returned.
     */
    void release(final ThreadContext c)
    {
        try
        {
            if (awaitDurable && c.ownDepth() == 0 && c.holding() == 1 && !c.deferDurability && c.changes != null)
            {
                c.changes.awaitOwnRecords();
            }
        }
        finally
        {
            c.markReleased();
        }
    }

    /**
     * Marks the calling thread's operation in flight. Any thread.
     *
     * @return the thread's context, to pass to {@link #exit}.
     * @throws StoreClosedException if the store is closed.
     */
    ThreadContext enter()
    {
        final ThreadContext c = local.get();
        c.markEntered();
        // volatile read after the volatile store: no load of the operation comes before the mark is visible, which
        // both close() and the reclamation of retired buffers rely on
        if (closed)
        {
            c.markExited();
            throw new StoreClosedException(name + " is closed");
        }
        return c;
    }

    /**
     * Marks the operation finished. The thread that called {@link #enter}.
     *
     * @param c its context.
     */
    void exit(final ThreadContext c)
    {
        try
        {
            if (awaitDurable && c.ownDepth() == 1 && !c.deferDurability)
            {
                // After every lock is released, so writers of other shards and threads can share the sync.
                c.changes.awaitOwnRecords();
            }
        }
        finally
        {
            c.markExited();
        }
    }

    /**
     * Wraps a caller's {@code byte[]} key in the calling thread's key wrapper, for a {@code byte[]} form of an
     * operation that delegates to its zero-copy form. The wrapper is the thread's own and only the operation that
     * follows reads it.
     *
     * @param key the caller's key.
     * @return the thread's key wrapper, over {@code key}.
     */
    UnsafeBuffer wrapKey(final byte[] key)
    {
        final UnsafeBuffer k = local.get().keyWrapper;
        k.wrap(key);
        return k;
    }

    /**
     * As {@link #wrapKey}, for a second array of the same operation (a value, or a second key).
     *
     * @param value the caller's array.
     * @return the thread's value wrapper, over {@code value}.
     */
    UnsafeBuffer wrapValue(final byte[] value)
    {
        final UnsafeBuffer v = local.get().valueWrapper;
        v.wrap(value);
        return v;
    }

    /**
     * Whether writes wait for their log records to be on the device ({@code PARANOID}).
     *
     * @return {@code true} once a {@code PARANOID} store's log is attached.
     */
    @Override
    public boolean writesAwaitDurable()
    {
        return awaitDurable;
    }

    /**
     * Makes the calling thread's operations return without waiting for their log records to be on the device, or
     * wait again; see {@link DeferredDurability}. The calling thread.
     *
     * @param defer whether to return at once.
     */
    @Override
    public void deferDurability(final boolean defer)
    {
        local.get().deferDurability = defer;
    }

    /**
     * Returns once every record the calling thread appended is on the device; group commit with every other thread
     * waiting meanwhile. The calling thread.
     *
     * @throws StoreClosedException if the store is closed.
     * @throws io.agni.api.StoreReadOnlyException if the sync failed.
     */
    @Override
    public void awaitDurable()
    {
        final ThreadContext c = enter();
        try
        {
            final ChangeRecorder changes = c.changes;
            if (changes != null)
            {
                changes.awaitDurable();
            }
        }
        finally
        {
            exit(c);
        }
    }

    /**
     * Gives every thread, present and future, its way into the log. Called once, when recovery is over and before
     * the store is shared.
     *
     * @param log          the store's log.
     * @param waitForSync  whether operations wait for their records to be on the device.
     */
    void attachLog(final LogWriter log, final boolean waitForSync)
    {
        synchronized (registry)
        {
            this.log = log;
            for (final ThreadContext c : contexts)
            {
                c.changes = new ChangeRecorder(log);
            }
            this.awaitDurable = waitForSync;
        }
    }

    /**
     * The contexts of every thread that has used the store: a live view for reclamation to read. Any thread.
     *
     * @return the contexts (do not modify).
     */
    List<ThreadContext> contexts()
    {
        return contexts;
    }

    /**
     * Whether close has begun.
     *
     * @return {@code true} once {@link #close()} was called.
     */
    boolean isClosed()
    {
        return closed;
    }

    /**
     * Refuses new operations and holds, and waits for those in flight. Nothing an operation or a hold calls may take
     * this gate's monitor, or close would wait for an operation that waits for close.
     *
     * @return {@code false} if the gate was already closed.
     */
    synchronized boolean close()
    {
        if (closed)
        {
            return false;
        }
        closed = true;
        for (final ThreadContext c : contexts)
        {
            long parkNanos = 1_000;
            while (c.inFlight() != 0 || c.holding() != 0)
            {
                LockSupport.parkNanos(parkNanos);
                parkNanos = Math.min(TimeUnit.MILLISECONDS.toNanos(1), parkNanos * 2);
            }
        }
        return true;
    }

    /**
     * Hits over all threads, including ended ones (racy).
     *
     * @return the sum.
     */
    long hits()
    {
        long sum = endedHits;
        for (final ThreadContext c : contexts)
        {
            sum += c.hits;
        }
        return sum;
    }

    /**
     * Misses over all threads, including ended ones (racy).
     *
     * @return the sum.
     */
    long misses()
    {
        long sum = endedMisses;
        for (final ThreadContext c : contexts)
        {
            sum += c.misses;
        }
        return sum;
    }

    private ThreadContext register()
    {
        synchronized (registry)
        {
            for (final ThreadContext c : contexts)
            {
                if (!c.owner.isAlive() && c.inFlight() == 0)
                {
                    endedHits += c.hits;
                    endedMisses += c.misses;
                    contexts.remove(c);
                }
            }
            final ThreadContext c = new ThreadContext();
            if (log != null)
            {
                c.changes = new ChangeRecorder(log);
            }
            contexts.add(c);
            return c;
        }
    }
}
