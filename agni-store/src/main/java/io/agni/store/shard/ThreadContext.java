package io.agni.store.shard;

import io.agni.store.arena.EntryCursor;
import io.agni.store.log.ChangeRecorder;
import io.agni.store.memory.ReaderState;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The per-thread working state of one store: cursors, scratch buffers, an in-flight marker and counters, so that
 * operations allocate nothing and count hits without sharing a cache line between threads.
 *
 * <h2>Concurrency</h2>
 * Every field is written only by the owning thread. The in-flight marker and the count of quiescent points it
 * inherits from {@link ReaderState} are what {@code OperationGate} (close) and reclamation read, the count of holds
 * what close alone reads (volatile store by the owner, volatile read by the closer); {@link #hits} and
 * {@link #misses} are plain counters that {@code stats()} reads racily (a snapshot may be a few operations old,
 * never torn on a 64-bit JVM).
 */
public final class ThreadContext extends ReaderState
{
    /**
     * The entry a lookup found.
     */
    public final EntryCursor entry = new EntryCursor();
    /**
     * Scratch cursor for a new version of an entry.
     */
    public final EntryCursor fresh = new EntryCursor();
    /**
     * Scratch for formatting a 64-bit decimal.
     */
    public final UnsafeBuffer digits = new UnsafeBuffer(new byte[DecimalLong.MAX_LENGTH]);
    /**
     * Wraps a caller's {@code byte[]} key.
     */
    public final UnsafeBuffer keyWrapper = new UnsafeBuffer(new byte[0]);
    /**
     * Wraps a caller's {@code byte[]} value.
     */
    public final UnsafeBuffer valueWrapper = new UnsafeBuffer(new byte[0]);
    /**
     * Where this thread logs the changes it makes, {@code null} when the store keeps no log.
     */
    public ChangeRecorder changes;
    /**
     * Whether this thread's operations return before their log records are durable, in a store that otherwise waits
     * for them ({@code PARANOID}); the thread then waits for them itself ({@code OffHeapStore.awaitDurable}).
     */
    public boolean deferDurability;
    /**
     * A value copied out as a new array.
     */
    public byte[] array;
    /**
     * The capacity of a destination that was too small, for the exception message.
     */
    public int dstCapacity;
    /**
     * The bytes a destination that was too small had to hold, for the exception message.
     */
    public int dstNeeded;
    /**
     * The home buckets the last {@code Shard.scan} step visited, so a store-wide step can spend the rest of its
     * count on the next shard.
     */
    public int scannedBuckets;
    /**
     * The live keys the last {@code Shard.scan} step saw, matching its pattern or not.
     */
    public int scannedKeys;
    /**
     * Reads that found a live entry.
     */
    public long hits;
    /**
     * Reads that found none.
     */
    public long misses;
    /**
     * The owner's holds of the store ({@code OperationGate.hold}) that have not ended: work that keeps the store open
     * without reading its memory outside a shard's lock.
     */
    private volatile int holding;

    /**
     * A context for the current thread.
     */
    public ThreadContext()
    {
    }

    /**
     * Marks one more hold (a volatile store, which the caller follows with a volatile read of the gate's closed
     * flag). The owning thread.
     */
    public void markHolding()
    {
        holding = holding + 1;
    }

    /**
     * Marks one hold ended. The owning thread.
     */
    public void markReleased()
    {
        holding = holding - 1;
    }

    /**
     * The owner's holds now. Any thread.
     *
     * @return the count; {@code 0} when it holds the store in no way.
     */
    public int holding()
    {
        return holding;
    }
}
