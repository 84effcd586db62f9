package io.agni.store.snapshot;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Loads a snapshot with several threads: the caller reads and checks the blocks ({@link SnapshotReader}), and one
 * worker per handler hands on the entries of whichever block it takes next. A snapshot holds each key once, so the
 * order in which its entries reach the store does not matter; the handlers must be safe to call at once (each has
 * its own cursor, and the store locks each shard). A failure of any thread stops the load and is thrown.
 */
public final class ParallelSnapshotLoad
{
    /**
     * Blocks read ahead of the workers, per worker.
     */
    private static final int BLOCKS_PER_WORKER = 4;

    private static final long POLL_MILLIS = 50;

    private ParallelSnapshotLoad()
    {
    }

    /**
     * Reads every entry of a snapshot into the handlers, one worker thread each.
     *
     * @param path     the snapshot file.
     * @param handlers receive the entries, each from a thread of its own; one handler reads on the calling thread.
     * @param name     names the threads.
     * @return what its header and footer say.
     * @throws IOException when the file cannot be read, or a handler failed (with its failure as the cause).
     * @throws io.agni.store.SnapshotDamagedException when it is not whole.
     */
    public static SnapshotReader.Summary read(
        final Path path, final List<SnapshotEntryHandler> handlers, final String name) throws IOException
    {
        if (handlers.size() == 1)
        {
            return SnapshotReader.read(path, handlers.get(0));
        }
        final int workers = handlers.size();
        final int buffers = workers * BLOCKS_PER_WORKER;
        final BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(buffers);
        final BlockingQueue<Block> work = new ArrayBlockingQueue<>(buffers + workers);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < buffers; i++)
        {
            free.add(ByteBuffer.allocateDirect(SnapshotLayout.BLOCK_BYTES).order(SnapshotLayout.ORDER));
        }
        final Thread[] threads = new Thread[workers];
        for (int i = 0; i < workers; i++)
        {
            final SnapshotEntryHandler handler = handlers.get(i);
            threads[i] = new Thread(() -> work(handler, work, free, failure), name + " snapshot load " + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        try
        {
            return SnapshotReader.read(path, new SnapshotReader.BlockSink()
            {
                /**
                 * The pooled buffer a block of one large entry holds while it is in flight, so that no more blocks
                 * are in flight than the pool has buffers.
                 */
                private ByteBuffer token;

                @Override
                public ByteBuffer buffer(final int capacity) throws IOException
                {
                    final ByteBuffer pooled = takeFree(free, failure, path);
                    if (capacity <= SnapshotLayout.BLOCK_BYTES)
                    {
                        return pooled;
                    }
                    token = pooled;
                    return ByteBuffer.allocateDirect(capacity).order(SnapshotLayout.ORDER);
                }

                @Override
                public void accept(final ByteBuffer block, final UnsafeBuffer view, final int length)
                    throws IOException
                {
                    rethrow(failure);
                    // Never blocks: no more blocks are in flight than the pool has buffers.
                    work.add(new Block(block, view, length, token));
                    token = null;
                }
            });
        }
        finally
        {
            for (int i = 0; i < workers; i++)
            {
                work.add(Block.END);
            }
            for (final Thread thread : threads)
            {
                joinUninterruptibly(thread);
            }
            ByteBuffer buffer;
            while ((buffer = free.poll()) != null)
            {
                BufferUtil.free(buffer);
            }
            Block left;
            while ((left = work.poll()) != null)
            {
                if (left != Block.END)
                {
                    release(left, free);
                }
            }
            // A worker's failure wins over what the reader saw after it (it stopped the reader).
            rethrow(failure);
        }
    }

    private static void work(
        final SnapshotEntryHandler handler, final BlockingQueue<Block> work, final BlockingQueue<ByteBuffer> free,
        final AtomicReference<Throwable> failure)
    {
        try
        {
            while (true)
            {
                final Block block = work.take();
                if (block == Block.END)
                {
                    return;
                }
                try
                {
                    if (failure.get() == null)
                    {
                        SnapshotReader.handOn(block.view, block.length, handler);
                    }
                }
                finally
                {
                    release(block, free);
                }
            }
        }
        catch (final Throwable ex)
        {
            failure.compareAndSet(null, ex);
            // Drains to its end mark, so that the reader's finally finds every buffer.
            try
            {
                Block block;
                while ((block = work.take()) != Block.END)
                {
                    release(block, free);
                }
            }
            catch (final InterruptedException interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Gives a block's buffer back to the pool, or frees a large block's own and gives back the one it held.
     */
    private static void release(final Block block, final BlockingQueue<ByteBuffer> free)
    {
        if (block.token != null)
        {
            BufferUtil.free(block.buffer);
            free.add(block.token);
        }
        else
        {
            free.add(block.buffer);
        }
    }

    private static ByteBuffer takeFree(
        final BlockingQueue<ByteBuffer> free, final AtomicReference<Throwable> failure, final Path path)
        throws IOException
    {
        while (true)
        {
            rethrow(failure);
            try
            {
                final ByteBuffer buffer = free.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (buffer != null)
                {
                    return buffer;
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted loading " + path);
            }
        }
    }

    private static void rethrow(final AtomicReference<Throwable> failure) throws IOException
    {
        final Throwable failed = failure.get();
        if (failed instanceof RuntimeException)
        {
            throw (RuntimeException)failed;
        }
        if (failed instanceof Error)
        {
            throw (Error)failed;
        }
        if (failed != null)
        {
            throw new IOException("loading the snapshot failed", failed);
        }
    }

    private static void joinUninterruptibly(final Thread thread)
    {
        boolean interrupted = false;
        while (true)
        {
            try
            {
                thread.join();
                break;
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A checked block for a worker.
     */
    private record Block(ByteBuffer buffer, UnsafeBuffer view, int length, ByteBuffer token)
    {
        static final Block END = new Block(ByteBuffer.allocate(0), new UnsafeBuffer(new byte[0]), 0, null);
    }
}
