package io.agni.store.memory;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Allocates, accounts and releases the off-heap memory of one store. Every buffer a store touches comes from here,
 * as an Agrona {@link UnsafeBuffer} over a direct {@link ByteBuffer}.
 *
 * <h2>Memory</h2>
 * Two ways out, because optimistic readers may still be reading a buffer a writer has just replaced
 * (docs/architecture.md, "Memory, the budget and reclamation"):
 * <ul>
 *     <li>{@link #retire(UnsafeBuffer)}: the store stops using a buffer while it is open (an index that grew, a
 *     segment no longer needed). The buffer waits in a limbo ({@code RetiredBuffers}) until every reader that was
 *     in flight when it was retired has left its operation, and is then freed by agni, not by the garbage
 *     collector. Its bytes stay in the budget until then, so the store's direct buffers, in use or waiting, never
 *     exceed the budget: {@link #DIRECT_BYTES_BEYOND_BUDGET}.</li>
 *     <li>{@link #free(UnsafeBuffer)}: at close, after every operation in flight has finished.</li>
 * </ul>
 * A freed buffer is re-pointed at an empty array, so any later access throws {@link IndexOutOfBoundsException}
 * (with Agrona's bounds checks on) instead of touching freed memory; its bytes leave the budget only after the
 * memory is returned.
 * <p>
 * The limbo is drained (without ever waiting for a reader) before every allocation, after every retirement, and by
 * the store's expiry-sweep tick, {@code stats()}, {@code clear()} and close ({@link #reclaim()},
 * {@link #freeRetired()}).
 * <p>
 * {@link #allocate(int)} refuses, as the budget does, a buffer that would take the JVM's direct memory past its
 * limit ({@link DirectMemory}), so the JDK's collect-and-sleep path is never entered under a shard's lock.
 *
 * <h2>Concurrency</h2>
 * Any thread; callers hold the lock of the structure that owns the buffer.
 */
public final class OffHeapMemory
{
    /**
     * Direct-buffer bytes a store may hold beyond its budget: none. Retired buffers count against the budget until
     * they are freed, and a buffer is freed before its bytes return to the budget.
     */
    public static final long DIRECT_BYTES_BEYOND_BUDGET = 0;

    private static final byte[] EMPTY = new byte[0];

    private final MemoryBudget budget;
    private final RetiredBuffers retired;
    private final long directLimit;

    /**
     * Memory with no concurrent readers to wait for: a retired buffer is freed at the next drain.
     *
     * @param budget the budget.
     */
    public OffHeapMemory(final MemoryBudget budget)
    {
        this(budget, List.of());
    }

    /**
     * Memory accounted against a budget, read by the given readers.
     *
     * @param budget  the budget shared by the store's shards.
     * @param readers the contexts of every thread that may read the store's memory (a live view: threads register
     *                as they arrive).
     */
    public OffHeapMemory(final MemoryBudget budget, final Iterable<? extends ReaderState> readers)
    {
        this(budget, readers, DirectMemory.limit());
    }

    /**
     * Memory with a stated direct-memory limit, for tests.
     *
     * @param budget      the budget.
     * @param readers     the readers.
     * @param directLimit the most direct-buffer bytes the JVM may hold for an allocation to go ahead.
     */
    OffHeapMemory(final MemoryBudget budget, final Iterable<? extends ReaderState> readers, final long directLimit)
    {
        this.budget = budget;
        this.retired = new RetiredBuffers(readers, this::release);
        this.directLimit = directLimit;
    }

    /**
     * Allocates zeroed off-heap memory if the budget and the JVM's direct-memory limit allow. Frees retired buffers
     * that no reader can reach any more first.
     *
     * @param capacity bytes wanted.
     * @return the buffer, or {@code null} if the budget or the JVM's direct-memory limit refuses.
     */
    public UnsafeBuffer allocate(final int capacity)
    {
        retired.drain();
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
     * Hands over a buffer the store no longer uses while open, already unlinked from every structure a reader could
     * load it from; it is freed once no reader can be inside it.
     *
     * @param buffer a buffer from {@link #allocate(int)}.
     */
    public void retire(final UnsafeBuffer buffer)
    {
        DebugMemory.recordRelease(buffer, "retired");
        retired.add(buffer);
        retired.drain();
    }

    /**
     * Frees the retired buffers that no reader can reach any more. Any thread; never waits for a reader.
     */
    public void reclaim()
    {
        retired.drain();
    }

    /**
     * Frees a buffer now. Only when no thread can be reading it: at close, after operations in flight drained.
     *
     * @param buffer a buffer from {@link #allocate(int)}.
     */
    public void free(final UnsafeBuffer buffer)
    {
        DebugMemory.recordRelease(buffer, "freed");
        release(buffer);
    }

    /**
     * Frees every retired buffer. Only when no operation can be in flight: at close.
     */
    public void freeRetired()
    {
        retired.freeAll();
    }

    /**
     * Bytes of retired buffers not freed yet; they are still in the budget.
     *
     * @return bytes.
     */
    public long retiredBytes()
    {
        return retired.bytes();
    }

    /**
     * Checks the budget against what the store's structures hold: the reservation is their bytes plus the retired
     * buffers not freed yet (read together), and within the limit. For integrity checks, with no allocation in
     * flight.
     *
     * @param held the bytes the shards hold.
     * @throws IllegalStateException if the accounting is broken.
     */
    public void verifyAccounting(final long held)
    {
        final long inUse = retired.reservedInUse(budget);
        if (held != inUse)
        {
            throw new IllegalStateException("integrity: shards hold " + held + " bytes, budget accounts " + inUse +
                " besides retired buffers waiting to be freed");
        }
        if (budget.reserved() > budget.ceiling())
        {
            throw new IllegalStateException("integrity: held " + budget.reserved() + " bytes over the budget of " +
                budget.limit() + " (ceiling " + budget.ceiling() + ")");
        }
    }

    /**
     * Whether the budget would give {@code bytes} more now, counting {@code releasable} (bytes the caller would
     * release first) as given back, and the JVM's direct-memory limit would too, after freeing the retired buffers
     * no reader can reach. Retired buffers that readers in flight still hold do not count: they come back as those
     * readers leave, which is what eviction, cleaning on, waits for (a reader stalled inside an operation makes a
     * write evict up to its bounds and then be refused). Racy against other shards' allocations: an answer to plan
     * eviction by, not a reservation.
     *
     * @param bytes      bytes wanted.
     * @param releasable bytes the caller holds and would release before allocating.
     * @return {@code true} if an allocation of {@code bytes} would succeed now.
     */
    public boolean hasRoom(final long bytes, final long releasable)
    {
        retired.drain();
        return budget.reserved() - releasable + bytes <= budget.limit() &&
            bytes <= directLimit - DirectMemory.totalCapacity() + releasable;
    }

    /**
     * Whether the store holds more than its budget (which only a budget lowered at run time makes it do), not
     * counting retired buffers, which are on their way back to the budget. Any thread; a racy answer.
     *
     * @return {@code true} while memory is to be given back.
     */
    public boolean overBudget()
    {
        final long over = budget.reserved() - budget.limit();
        return over > 0 && over > retired.bytes();
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

    private void release(final UnsafeBuffer buffer)
    {
        final int capacity = buffer.capacity();
        final ByteBuffer memory = buffer.byteBuffer();
        buffer.wrap(EMPTY);
        if (memory != null)
        {
            BufferUtil.free(memory);
        }
        budget.release(capacity);
    }
}
