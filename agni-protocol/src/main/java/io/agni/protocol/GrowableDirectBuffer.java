package io.agni.protocol;

import org.agrona.AbstractMutableDirectBuffer;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;

import java.nio.ByteBuffer;

/**
 * A direct buffer that grows as it is written, like Agrona's {@code ExpandableDirectByteBuffer}, but within bounds
 * and in the open: it never grows past its limit, it asks its {@link BufferMemory} before every allocation, it frees
 * the buffer a growth replaces at once instead of leaving it to the garbage collector, and it can be shrunk.
 *
 * <h2>Memory</h2>
 * A growth to {@code n} bytes reserves {@code n} with {@link BufferMemory#tryReserve}, allocates, copies, frees the
 * old buffer and releases its bytes: the account covers the moment both buffers exist. The new capacity is the
 * larger of twice the old one and what was asked for, at most the limit. A growth the limit or the account refuses
 * allocates nothing, throws the buffer's {@link BufferLimitException} and leaves {@link #refusal()} set, so that a
 * caller that caught the exception (a store read) still cannot miss it. The first allocation and
 * {@link #shrink(int, int)} use {@link BufferMemory#reserve}, which is never refused; a shrink that keeps nothing
 * frees the old buffer before it allocates the new one, so it never adds to the account even for a moment.
 *
 * <h2>Threads</h2>
 * Not thread-safe: one owner thread. {@link #free()} must be the last call.
 */
public final class GrowableDirectBuffer extends AbstractMutableDirectBuffer
{
    /**
     * What {@link #refusal()} returns when no growth was refused.
     */
    public static final int NOT_REFUSED = 0;

    /**
     * What {@link #refusal()} returns when a growth would have passed the buffer's own limit.
     */
    public static final int REFUSED_BY_LIMIT = 1;

    /**
     * What {@link #refusal()} returns when the {@link BufferMemory} refused a growth.
     */
    public static final int REFUSED_BY_MEMORY = 2;

    private final int limit;
    private final BufferMemory memory;
    private final BufferLimitException limitReached;
    private ByteBuffer byteBuffer;
    private int refusal = NOT_REFUSED;

    /**
     * A buffer of {@code initialCapacity} bytes that can grow up to {@code limit}.
     *
     * @param initialCapacity the first capacity, from 1 to {@code limit}.
     * @param limit           the most the buffer grows to.
     * @param memory          the account every allocation is reported to.
     * @param name            what the buffer is for, in the message of its {@link BufferLimitException}, e.g.
     *                        {@code "reply buffer"}.
     * @throws IllegalArgumentException if the capacities are out of range.
     */
    public GrowableDirectBuffer(
        final int initialCapacity, final int limit, final BufferMemory memory, final String name)
    {
        if (initialCapacity < 1 || initialCapacity > limit)
        {
            throw new IllegalArgumentException("initialCapacity must be from 1 to limit: initialCapacity=" +
                initialCapacity + ", limit=" + limit);
        }
        this.limit = limit;
        this.memory = memory;
        this.limitReached = new BufferLimitException(name + " limit reached: limit=" + limit);
        memory.reserve(initialCapacity);
        try
        {
            allocate(initialCapacity);
        }
        catch (final OutOfMemoryError ex)
        {
            memory.release(initialCapacity);
            throw ex;
        }
    }

    /**
     * Returns the most the buffer grows to.
     *
     * @return the most the buffer grows to.
     */
    public int limit()
    {
        return limit;
    }

    /**
     * Returns {@link #NOT_REFUSED}, or why a growth was refused since the last {@link #clearRefusal()}.
     *
     * @return {@link #NOT_REFUSED}, or why a growth was refused since the last {@link #clearRefusal()}.
     */
    public int refusal()
    {
        return refusal;
    }

    /**
     * Forgets a refusal, once its caller has dealt with it.
     */
    public void clearRefusal()
    {
        refusal = NOT_REFUSED;
    }

    /**
     * Checks that the buffer could grow to {@code required} bytes, without allocating: for a caller that knows how
     * much it is about to write (and would rather not build it) before it writes.
     *
     * @param required the capacity needed.
     * @throws BufferLimitException if it is above the limit; {@link #refusal()} is then set.
     */
    public void checkRoom(final long required)
    {
        if (required > limit)
        {
            refusal = REFUSED_BY_LIMIT;
            throw limitReached;
        }
    }

    /**
     * Reallocates to a smaller capacity, keeping the first {@code keep} bytes. Does nothing unless the buffer is
     * larger than {@code capacity}.
     *
     * @param capacity the new capacity, at least 1.
     * @param keep     how many bytes from offset 0 to keep, at most {@code capacity}.
     */
    public void shrink(final int capacity, final int keep)
    {
        if (keep < 0 || keep > capacity || capacity < 1)
        {
            throw new IllegalArgumentException("cannot shrink: capacity=" + capacity + ", keep=" + keep);
        }
        if (this.capacity > capacity && byteBuffer != null)
        {
            if (keep == 0)
            {
                // Nothing to copy: free first, so that the account never holds both buffers for a shrink.
                final ByteBuffer old = byteBuffer;
                final int oldCapacity = this.capacity;
                byteBuffer = null;
                addressOffset = 0;
                this.capacity = 0;
                BufferUtil.free(old);
                memory.release(oldCapacity);
                memory.reserve(capacity);
                try
                {
                    allocate(capacity);
                }
                catch (final OutOfMemoryError ex)
                {
                    memory.release(capacity);
                    throw ex;
                }
            }
            else
            {
                memory.reserve(capacity);
                replace(capacity, keep);
            }
        }
    }

    /**
     * Frees the memory and gives it back to the account; the buffer must not be used again.
     */
    public void free()
    {
        if (byteBuffer != null)
        {
            final ByteBuffer old = byteBuffer;
            final int oldCapacity = capacity;
            byteBuffer = null;
            addressOffset = 0;
            capacity = 0;
            BufferUtil.free(old);
            memory.release(oldCapacity);
        }
    }

    @Override
    public boolean isExpandable()
    {
        return true;
    }

    @Override
    public ByteBuffer byteBuffer()
    {
        return byteBuffer;
    }

    @Override
    public int wrapAdjustment()
    {
        return 0;
    }

    @Override
    public void checkLimit(final int limit)
    {
        ensureCapacity(limit, 0);
    }

    @Override
    protected void ensureCapacity(final int index, final int length)
    {
        final long required = (long)index + length;
        if (required > capacity)
        {
            grow(index, length, required);
        }
    }

    private void grow(final int index, final int length, final long required)
    {
        if (index < 0 || length < 0)
        {
            throw new IndexOutOfBoundsException("negative index or length: index=" + index + ", length=" + length);
        }
        if (byteBuffer == null)
        {
            throw new IllegalStateException("buffer freed");
        }
        checkRoom(required);
        final int newCapacity = (int)Math.min(limit, Math.max(required, 2L * capacity));
        if (!memory.tryReserve(newCapacity))
        {
            refusal = REFUSED_BY_MEMORY;
            throw limitReached;
        }
        replace(newCapacity, capacity);
    }

    /**
     * Moves to a new buffer of {@code newCapacity} bytes, already reserved, keeping the first {@code keep} bytes.
     */
    private void replace(final int newCapacity, final int keep)
    {
        final ByteBuffer old = byteBuffer;
        final int oldCapacity = capacity;
        try
        {
            allocate(newCapacity);
        }
        catch (final OutOfMemoryError ex)
        {
            memory.release(newCapacity);
            throw ex;
        }
        if (keep > 0)
        {
            putBytes(0, old, 0, keep);
        }
        BufferUtil.free(old);
        memory.release(oldCapacity);
    }

    private void allocate(final int newCapacity)
    {
        final ByteBuffer allocated = ByteBuffer.allocateDirect(newCapacity);
        byteBuffer = allocated;
        byteArray = null;
        addressOffset = BufferUtil.address(allocated);
        capacity = newCapacity;
    }

    @Override
    public void wrap(final byte[] buffer)
    {
        throw unsupported();
    }

    @Override
    public void wrap(final byte[] buffer, final int offset, final int length)
    {
        throw unsupported();
    }

    @Override
    public void wrap(final ByteBuffer buffer)
    {
        throw unsupported();
    }

    @Override
    public void wrap(final ByteBuffer buffer, final int offset, final int length)
    {
        throw unsupported();
    }

    @Override
    public void wrap(final DirectBuffer buffer)
    {
        throw unsupported();
    }

    @Override
    public void wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        throw unsupported();
    }

    @Override
    public void wrap(final long address, final int length)
    {
        throw unsupported();
    }

    private static UnsupportedOperationException unsupported()
    {
        return new UnsupportedOperationException("a GrowableDirectBuffer owns its memory and cannot wrap another");
    }

    @Override
    public String toString()
    {
        return "GrowableDirectBuffer{capacity=" + capacity + ", limit=" + limit + '}';
    }
}
