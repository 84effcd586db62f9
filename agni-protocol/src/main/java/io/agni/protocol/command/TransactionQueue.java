package io.agni.protocol.command;

import io.agni.protocol.BufferLimitException;
import io.agni.protocol.BufferMemory;
import io.agni.protocol.GrowableDirectBuffer;
import io.agni.protocol.RespArgs;

/**
 * One connection's transaction: whether {@code MULTI} opened one, whether an error while queuing dooms it (Redis's
 * {@code CLIENT_DIRTY_EXEC}), and the commands queued, copied out of the read buffer, whose views are valid only
 * while a command executes.
 *
 * <h2>Layout</h2>
 * The queued commands lie one after another in one buffer; a command is its argument count, then each argument as
 * its length and its bytes (ints in the buffer's native order):
 * <pre>
 *  +-------+--------+-----------+--------+-----------+-----
 *  | count | length | arg bytes | length | arg bytes | ...
 *  +-------+--------+-----------+--------+-----------+-----
 * </pre>
 * {@link #read} points a {@link RespArgs} at one command in place, so executing a queued command copies nothing.
 *
 * <h2>Memory</h2>
 * The buffer is allocated at the first command queued (most connections never open a transaction), grows as a
 * {@link GrowableDirectBuffer} does, reporting to the connection's account ({@link #memory}: the server's client
 * memory, so a client that queues much is evicted as one with a large query buffer is), and holds at most
 * {@link #limit} bytes. After a transaction that grew it past {@link #RETAINED_CAPACITY} it returns to
 * {@link #INITIAL_CAPACITY}; {@link #free()} gives it back when the connection closes.
 *
 * <h2>Threads</h2>
 * Only the thread serving the connection changes it. {@code CLIENT LIST} on other threads reads
 * {@link #queuedCount()} and {@link #capacity()}, which are volatile: a listing may be slightly stale, never torn.
 */
final class TransactionQueue
{
    /**
     * The buffer's first capacity.
     */
    static final int INITIAL_CAPACITY = 1024;

    /**
     * A buffer larger than this after a transaction is given back (returned to {@link #INITIAL_CAPACITY}).
     */
    static final int RETAINED_CAPACITY = 64 * 1024;

    /**
     * The most bytes queued by default: Redis's {@code client-query-buffer-limit}, as a server's own
     * {@code maxQueryBuffer}.
     */
    static final int DEFAULT_LIMIT = 1 << 30;

    /**
     * {@link #add} queued the command.
     */
    static final int QUEUED = 0;

    /**
     * {@link #add} refused the command: the queue would pass its limit.
     */
    static final int REFUSED_BY_LIMIT = 1;

    /**
     * {@link #add} refused the command: the connection's memory account refused the growth (the client is being
     * evicted).
     */
    static final int REFUSED_BY_MEMORY = 2;

    private BufferMemory memory = BufferMemory.UNCOUNTED;
    private int limit = DEFAULT_LIMIT;
    private GrowableDirectBuffer buffer;
    private int length;
    private int count;
    private boolean open;
    private boolean dirty;
    private volatile int publishedCount = -1;
    private volatile int publishedCapacity;

    /**
     * Sets the account the buffer reports to and the most bytes it queues. Before the first transaction.
     *
     * @param memory the account.
     * @param limit  the most bytes, at least 1.
     */
    void limits(final BufferMemory memory, final int limit)
    {
        if (buffer != null)
        {
            throw new IllegalStateException("the transaction queue is in use");
        }
        if (limit < 1)
        {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
        this.memory = memory;
        this.limit = limit;
    }

    /**
     * Opens a transaction: nothing queued, nothing wrong yet.
     */
    void begin()
    {
        open = true;
        dirty = false;
        length = 0;
        count = 0;
        publishedCount = 0;
    }

    /**
     * Whether a transaction is open.
     *
     * @return whether {@code MULTI} opened one that {@code EXEC} or {@code DISCARD} has not ended.
     */
    boolean isOpen()
    {
        return open;
    }

    /**
     * Whether a command was refused while queuing, so that {@code EXEC} must abort.
     *
     * @return whether the transaction is doomed.
     */
    boolean isDirty()
    {
        return dirty;
    }

    /**
     * Dooms the open transaction, if there is one: a command was refused while queuing (Redis's
     * {@code flagTransaction}).
     */
    void flag()
    {
        if (open)
        {
            dirty = true;
        }
    }

    /**
     * How many commands are queued.
     *
     * @return the count.
     */
    int count()
    {
        return count;
    }

    /**
     * Queues a copy of a command. A doomed transaction queues nothing (its {@code EXEC} will abort) but accepts the
     * command all the same, as Redis does.
     *
     * @param args the command, its name first.
     * @return {@link #QUEUED}, {@link #REFUSED_BY_LIMIT} or {@link #REFUSED_BY_MEMORY}; a refusal dooms the
     * transaction.
     */
    int add(final RespArgs args)
    {
        if (dirty)
        {
            return QUEUED;
        }
        final int argc = args.count();
        long bytes = Integer.BYTES + (long)Integer.BYTES * argc;
        for (int i = 0; i < argc; i++)
        {
            bytes += args.length(i);
        }
        if (length + bytes > limit)
        {
            dirty = true;
            return REFUSED_BY_LIMIT;
        }
        final GrowableDirectBuffer b = buffer();
        try
        {
            b.checkLimit((int)(length + bytes));
        }
        catch (final BufferLimitException ex)
        {
            b.clearRefusal();
            dirty = true;
            return REFUSED_BY_MEMORY;
        }
        finally
        {
            publishedCapacity = b.capacity();
        }
        int p = length;
        b.putInt(p, argc);
        p += Integer.BYTES;
        for (int i = 0; i < argc; i++)
        {
            final int argLength = args.length(i);
            b.putInt(p, argLength);
            b.putBytes(p + Integer.BYTES, args.buffer(), args.offset(i), argLength);
            p += Integer.BYTES + argLength;
        }
        length = p;
        publishedCount = ++count;
        return QUEUED;
    }

    /**
     * The error reply to a command the queue refused for its limit.
     *
     * @return {@code ERR transaction too large: ...} with the limit.
     */
    String tooLargeError()
    {
        return "ERR transaction too large: the queued commands would pass limit=" + limit + " bytes";
    }

    /**
     * Points {@code into} at the queued command that starts at {@code position}: {@code 0} for the first, then what
     * the previous call returned. Valid until the queue changes.
     *
     * @param position where the command starts.
     * @param into     the arguments to fill.
     * @return where the next command starts.
     */
    int read(final int position, final RespArgs into)
    {
        final GrowableDirectBuffer b = buffer;
        into.wrap(b);
        final int argc = b.getInt(position);
        int p = position + Integer.BYTES;
        for (int i = 0; i < argc; i++)
        {
            final int argLength = b.getInt(p);
            into.add(p + Integer.BYTES, argLength);
            p += Integer.BYTES + argLength;
        }
        return p;
    }

    /**
     * Ends the transaction ({@code EXEC}, {@code DISCARD}, {@code RESET}): forgets the commands, and gives a large
     * buffer back.
     */
    void end()
    {
        open = false;
        dirty = false;
        length = 0;
        count = 0;
        publishedCount = -1;
        if (buffer != null && buffer.capacity() > RETAINED_CAPACITY)
        {
            buffer.shrink(Math.min(INITIAL_CAPACITY, limit), 0);
            publishedCapacity = buffer.capacity();
        }
    }

    /**
     * Ends the transaction and frees the buffer: the connection is closing.
     */
    void free()
    {
        end();
        if (buffer != null)
        {
            buffer.free();
            buffer = null;
            publishedCapacity = 0;
        }
    }

    /**
     * The commands queued, for {@code CLIENT LIST}'s {@code multi}. Any thread.
     *
     * @return the count, or {@code -1} when no transaction is open.
     */
    int queuedCount()
    {
        return publishedCount;
    }

    /**
     * The bytes the queue holds allocated, for {@code CLIENT LIST}'s {@code multi-mem}. Any thread.
     *
     * @return the buffer's capacity, 0 when there is none.
     */
    int capacity()
    {
        return publishedCapacity;
    }

    private GrowableDirectBuffer buffer()
    {
        if (buffer == null)
        {
            buffer = new GrowableDirectBuffer(Math.min(INITIAL_CAPACITY, limit), limit, memory, "transaction queue");
            publishedCapacity = buffer.capacity();
        }
        return buffer;
    }
}
