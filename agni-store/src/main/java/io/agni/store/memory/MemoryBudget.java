package io.agni.store.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The off-heap bytes one store may hold, shared by its shards.
 *
 * <h2>Concurrency</h2>
 * Any thread. {@link #tryReserve(long)} is a CAS loop on one counter: it runs once per segment or index allocation,
 * never per entry, so contention on it is negligible.
 */
public final class MemoryBudget
{
    private final long limit;
    private final AtomicLong reserved = new AtomicLong();

    /**
     * A budget of {@code limit} bytes.
     *
     * @param limit the most bytes that may be reserved at once.
     */
    public MemoryBudget(final long limit)
    {
        this.limit = limit;
    }

    /**
     * Reserves bytes if the budget allows.
     *
     * @param bytes how many.
     * @return {@code true} if reserved; {@code false} (and nothing reserved) if it would exceed the limit.
     */
    public boolean tryReserve(final long bytes)
    {
        while (true)
        {
            final long current = reserved.get();
            final long next = current + bytes;
            if (next > limit || next < 0)
            {
                return false;
            }
            if (reserved.compareAndSet(current, next))
            {
                return true;
            }
        }
    }

    /**
     * Returns bytes reserved earlier.
     *
     * @param bytes how many.
     */
    public void release(final long bytes)
    {
        reserved.addAndGet(-bytes);
    }

    /**
     * Bytes reserved now.
     *
     * @return the reserved bytes.
     */
    public long reserved()
    {
        return reserved.get();
    }

    /**
     * The limit.
     *
     * @return the budget in bytes.
     */
    public long limit()
    {
        return limit;
    }
}
