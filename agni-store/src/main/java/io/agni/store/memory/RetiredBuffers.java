package io.agni.store.memory;

import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The limbo of one store: buffers the store no longer uses but that an optimistic reader may still be reading,
 * each with a snapshot of the readers that were in flight when it was retired. A buffer is freed once every one of
 * those readers has left its outermost operation since (docs/architecture.md, "Reclamation").
 *
 * <h2>Why no reader touches freed memory</h2>
 * A reader reaches a buffer only inside an operation, through references it loads after it marked itself in flight
 * ({@link ReaderState#markEntered()}, then the gate's volatile read). A writer first unlinks the buffer (no table,
 * segment array or field of the store refers to it any more), then calls {@link #add}, which issues a full fence and
 * then reads every reader's count of quiescent points and in-flight depth. Take a reader in an operation that holds
 * a reference to the buffer, possibly loaded long before the retirement:
 * <ul>
 *     <li>If its mark was visible to the snapshot, the reader is recorded with its count, and the buffer waits until
 *     that count changes, which happens only when the reader's depth falls to 0: after the operation, and after any
 *     operation it is nested in, has made its last access (the count is a release store, read with acquire).</li>
 *     <li>If its mark was not visible, its volatile store comes after the snapshot's reads, so (both sides fence
 *     between their store and their loads) the reader's loads see the unlinking: an operation that began after the
 *     snapshot never finds the buffer. An operation that ended before it published its end with a release store
 *     that the snapshot's acquire reads saw.</li>
 * </ul>
 * Readers that entered after the snapshot never hold the buffer, so they do not delay it; a reader that is idle
 * costs nothing.
 * <p>
 * The retiring thread is left out of the snapshot when the retirement happens in its outermost operation: the
 * operation unlinked the buffer itself, under the lock of the structure that owned it, and the store's write paths
 * read nothing through a reference to a buffer after retiring it (the segment a write still reads is kept out of
 * compaction and eviction; a cleaning reads nothing of a segment after its last entry). A nested operation keeps
 * its thread in the snapshot, since the operation around it may hold references loaded before. A breach of that
 * rule in the thread itself reads a buffer that {@link OffHeapMemory} re-pointed at an empty array when it freed it,
 * so (with Agrona's bounds checks, on by default) it throws rather than reads freed memory.
 * <p>
 * Buffers are freed oldest first: if the oldest snapshot has a reader whose count has not moved, that reader has
 * been in flight since, so every later snapshot holds it too, and nothing behind it could be freed.
 *
 * <h2>Concurrency</h2>
 * Any thread; one monitor guards the queue. {@link #add} runs under a shard's write lock (once per retired segment
 * or table, never per entry); {@link #drain()} runs wherever memory is allocated or retired, on the expiry-sweep
 * thread, in {@code stats()} and {@code clear()}. Nothing here waits for a reader: a writer must not, since a reader
 * may be waiting for that writer's shard lock.
 */
final class RetiredBuffers
{
    private static final ReaderState[] NO_READERS = new ReaderState[0];
    private static final long[] NO_POINTS = new long[0];

    private final Iterable<? extends ReaderState> readers;
    private final Consumer<UnsafeBuffer> free;
    private final ArrayDeque<Retired> queue = new ArrayDeque<>();
    private ReaderState[] inFlight = new ReaderState[8];
    private long[] points = new long[8];
    /**
     * Capacity of the buffers waiting; written under the monitor, read without it to skip an empty limbo.
     */
    private volatile long bytes;

    /**
     * An empty limbo.
     *
     * @param readers every reader of the store: the contexts of the threads that use it.
     * @param free    frees one buffer and returns its bytes to the budget.
     */
    RetiredBuffers(final Iterable<? extends ReaderState> readers, final Consumer<UnsafeBuffer> free)
    {
        this.readers = readers;
        this.free = free;
    }

    /**
     * Queues a buffer that the store has already unlinked, with the readers in flight now. The caller holds the lock
     * of the structure that owned the buffer.
     *
     * @param buffer the retired buffer.
     */
    synchronized void add(final UnsafeBuffer buffer)
    {
        // The Dekker pairing with ReaderState.markEntered(): the stores that unlinked the buffer (this thread's, and
        // those of earlier writers that it saw) are visible to every thread before the reads below.
        VarHandle.fullFence();
        final Thread self = Thread.currentThread();
        int n = 0;
        for (final ReaderState r : readers)
        {
            final long state = r.state();
            final long point = ReaderState.pointsOf(state);
            final int depth = ReaderState.depthOf(state);
            // The retiring thread itself, in its outermost operation, does not hold the buffer back: such an
            // operation never reads a buffer after retiring it (see the class comment), so a write that empties
            // segments to make room for a large entry gets their memory back within the same write.
            if (depth != 0 && !(depth == 1 && r.owner == self))
            {
                if (n == inFlight.length)
                {
                    inFlight = Arrays.copyOf(inFlight, n * 2);
                    points = Arrays.copyOf(points, n * 2);
                }
                inFlight[n] = r;
                points[n] = point;
                n++;
            }
        }
        queue.addLast(n == 0 ?
            new Retired(buffer, NO_READERS, NO_POINTS) :
            new Retired(buffer, Arrays.copyOf(inFlight, n), Arrays.copyOf(points, n)));
        Arrays.fill(inFlight, 0, n, null);
        bytes = bytes + buffer.capacity();
    }

    /**
     * Frees, oldest first, every buffer that no reader can be reading any more. Never waits for a reader.
     */
    void drain()
    {
        if (bytes == 0)
        {
            return;
        }
        synchronized (this)
        {
            Retired r;
            while ((r = queue.peekFirst()) != null && r.quiescent())
            {
                queue.pollFirst();
                release(r.buffer);
            }
        }
    }

    /**
     * Frees every buffer waiting, whoever was reading it: only once no operation can be in flight (at close).
     */
    synchronized void freeAll()
    {
        Retired r;
        while ((r = queue.pollFirst()) != null)
        {
            release(r.buffer);
        }
    }

    /**
     * Capacity of the buffers waiting to be freed, still counted in the budget.
     *
     * @return bytes.
     */
    long bytes()
    {
        return bytes;
    }

    /**
     * The budget's reservation less the buffers waiting here, read together so that a drain on another thread
     * cannot fall between the two reads.
     *
     * @param budget the budget the buffers are counted in.
     * @return bytes reserved for buffers the store still uses (or is allocating).
     */
    synchronized long reservedInUse(final MemoryBudget budget)
    {
        return budget.reserved() - bytes;
    }

    private void release(final UnsafeBuffer buffer)
    {
        final int capacity = buffer.capacity();
        free.accept(buffer);
        bytes = bytes - capacity;
    }

    /**
     * A retired buffer and the readers that were in flight when it was retired, each with its count of quiescent
     * points then.
     */
    private record Retired(UnsafeBuffer buffer, ReaderState[] readers, long[] points)
    {
        boolean quiescent()
        {
            for (int i = 0; i < readers.length; i++)
            {
                if (readers[i].quiescentPoints() == points[i])
                {
                    return false;
                }
            }
            return true;
        }
    }
}
