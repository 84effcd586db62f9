package io.agni.protocol;

/**
 * An account that buffers report their allocations to, so that their owner (a server) can count the memory its
 * clients hold, report it and bound it. A buffer asks before it allocates and gives back after it frees: what the
 * account holds is never less than what is really allocated.
 *
 * <h2>Threads</h2>
 * Called by the thread that owns the buffer; an implementation shared by several such threads is thread-safe.
 */
public interface BufferMemory
{
    /**
     * An account that counts nothing and refuses nothing: for buffers nobody needs to bound.
     */
    BufferMemory UNCOUNTED = new BufferMemory()
    {
        @Override
        public boolean tryReserve(final long bytes)
        {
            return true;
        }

        @Override
        public void reserve(final long bytes)
        {
        }

        @Override
        public void release(final long bytes)
        {
        }
    };

    /**
     * Asks to allocate bytes a buffer could do without: growth.
     *
     * @param bytes the bytes about to be allocated, at least 0.
     * @return whether they may be; on false nothing is reserved and the buffer must not allocate them.
     */
    boolean tryReserve(long bytes);

    /**
     * Counts bytes whatever any limit says: a buffer's first allocation, or the smaller one it shrinks to.
     *
     * @param bytes the bytes about to be allocated, at least 0.
     */
    void reserve(long bytes);

    /**
     * Gives back bytes just freed, or reserved and then not allocated.
     *
     * @param bytes the bytes, at most what this buffer holds reserved.
     */
    void release(long bytes);
}
