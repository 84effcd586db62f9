package io.agni.store.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The off-heap bytes one store may hold, shared by its shards.
 *
 * <h2>A limit that changes</h2>
 * The limit can be raised or lowered while the store runs ({@link #limit(long)}). Nothing is reserved past the limit
 * in force when {@link #tryReserve} reads it, so after a lowering the store may hold more than the limit until it
 * gives memory back; meanwhile every reservation is refused. The <em>ceiling</em>, for integrity checks, is the most
 * the store may hold now: the limit, or what was held when the limit was lowered below it, coming down with every
 * release until it meets the limit.
 *
 * <h2>Concurrency</h2>
 * Any thread. {@link #tryReserve(long)} is a CAS loop on one counter: it runs once per segment or index allocation,
 * never per entry, so contention on it is negligible. The limit is a volatile field.
 */
public final class MemoryBudget
{
    private volatile long limit;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong ceiling;

    /**
     * A budget of {@code limit} bytes.
     *
     * @param limit the most bytes that may be reserved at once.
     */
    public MemoryBudget(final long limit)
    {
        this.limit = limit;
        this.ceiling = new AtomicLong(limit);
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
                if (next > limit)
                {
                    // granted under a limit that was lowered meanwhile: the store may hold it until it gives it back
                    ceiling.accumulateAndGet(next, Math::max);
                }
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
        while (true)
        {
            final long c = ceiling.get();
            final long lowered = Math.max(limit, reserved.get());
            // a CAS that fails because the limit changed meanwhile reads the new one
            if (lowered >= c || ceiling.compareAndSet(c, lowered))
            {
                return;
            }
        }
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

    /**
     * Changes the limit. Raising it lets reservations up to the new limit succeed at once; lowering it below what is
     * reserved refuses every reservation until enough is released.
     *
     * @param bytes the new limit, positive.
     */
    public synchronized void limit(final long bytes)
    {
        limit = bytes;
        ceiling.set(Math.max(bytes, reserved.get()));
    }

    /**
     * The most bytes that may be reserved now: the limit, or more while the store gives back what it held when the
     * limit was lowered. For integrity checks.
     *
     * @return bytes.
     */
    public long ceiling()
    {
        return ceiling.get();
    }
}
