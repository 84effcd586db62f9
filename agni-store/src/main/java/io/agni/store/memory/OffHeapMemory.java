package io.agni.store.memory;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Allocates, accounts and releases the off-heap memory of one store. Every buffer a store touches comes from here,
 * as an Agrona {@link UnsafeBuffer} over a direct {@link ByteBuffer}.
 *
 * <h2>Memory</h2>
 * Two ways out, because optimistic readers may still be reading a buffer a writer has just replaced
 * (docs/architecture.md, "Reclamation"):
 * <ul>
 *     <li>{@link #retire(UnsafeBuffer)}: the store stops using a buffer while it is open (an index that grew, a
 *     segment no longer needed). Its bytes leave the budget at once, but the memory is returned to the OS by the
 *     JVM's cleaner only when no thread can reach the buffer any more: a reader that still holds it keeps it
 *     mapped, so a stale read sees stale bytes, never unmapped memory.</li>
 *     <li>{@link #free(UnsafeBuffer)}: at close, after every operation in flight has finished. The memory is
 *     returned at once and the buffer is re-pointed at an empty array, so any later access throws
 *     {@link IndexOutOfBoundsException} instead of touching freed memory.</li>
 * </ul>
 * <p>
 * {@link #allocate(int)} refuses, as the budget does, a buffer that would take the JVM's direct memory past its
 * limit ({@link DirectMemory}), so the JDK's collect-and-sleep path is never entered under a shard's lock.
 *
 * <h2>Concurrency</h2>
 * Any thread; callers hold the lock of the structure that owns the buffer.
 */
public final class OffHeapMemory
{
    private static final byte[] EMPTY = new byte[0];

    private final MemoryBudget budget;
    private final long directLimit;

    /**
     * Memory accounted against a budget.
     *
     * @param budget the budget shared by the store's shards.
     */
    public OffHeapMemory(final MemoryBudget budget)
    {
        this(budget, DirectMemory.limit());
    }

    /**
     * Memory with a stated direct-memory limit, for tests.
     *
     * @param budget      the budget.
     * @param directLimit the most direct-buffer bytes the JVM may hold for an allocation to go ahead.
     */
    OffHeapMemory(final MemoryBudget budget, final long directLimit)
    {
        this.budget = budget;
        this.directLimit = directLimit;
    }

    /**
     * Allocates zeroed off-heap memory if the budget and the JVM's direct-memory limit allow.
     *
     * @param capacity bytes wanted.
     * @return the buffer, or {@code null} if the budget or the JVM's direct-memory limit refuses.
     */
    public UnsafeBuffer allocate(final int capacity)
    {
        if (!budget.tryReserve(capacity))
        {
            return null;
        }
        // the JDK's own test before it falls back to collecting and sleeping; racy only against direct buffers that
        // other code allocates at this moment, since this store's own stay within its budget
        if (capacity > directLimit - DirectMemory.totalCapacity())
        {
            budget.release(capacity);
            return null;
        }
        final ByteBuffer memory;
        try
        {
            memory = ByteBuffer.allocateDirect(capacity);
        }
        catch (final OutOfMemoryError ex)
        {
            budget.release(capacity);
            return null;
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(memory);
        DebugMemory.recordAllocation(buffer, capacity);
        return buffer;
    }

    /**
     * Stops accounting a buffer the store no longer uses while open; the JVM frees it once unreachable.
     *
     * @param buffer a buffer from {@link #allocate(int)}.
     */
    public void retire(final UnsafeBuffer buffer)
    {
        DebugMemory.recordRelease(buffer, "retired");
        budget.release(buffer.capacity());
    }

    /**
     * Frees a buffer now. Only when no thread can be reading it: at close, after operations in flight drained.
     *
     * @param buffer a buffer from {@link #allocate(int)}.
     */
    public void free(final UnsafeBuffer buffer)
    {
        DebugMemory.recordRelease(buffer, "freed");
        final ByteBuffer memory = buffer.byteBuffer();
        budget.release(buffer.capacity());
        buffer.wrap(EMPTY);
        if (memory != null)
        {
            BufferUtil.free(memory);
        }
    }

    /**
     * The budget this memory is accounted against.
     *
     * @return the budget.
     */
    public MemoryBudget budget()
    {
        return budget;
    }
}
