package io.agni.store.file;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FileLayer} whose files reach the disk only when synced: what is written to a file's buffer stays in this
 * layer's memory (the "page cache") until {@link MappedFile#sync()} copies the whole file to disk. After
 * {@link #powerLoss()} nothing more reaches the disk and renames not yet made durable by a directory sync are undone,
 * so the directory holds exactly what a machine that lost power would: what was synced. Syncs and creates can be
 * made to fail. Deletes take effect at once (a simplification: a lost delete would leave a file the store already
 * gave up, which replay must ignore anyway).
 */
public final class FaultInjectingFileLayer implements FileLayer
{
    private static final int PAGE = 4096;

    private final List<Path[]> unsyncedMoves = new ArrayList<>();
    private final List<Faulty> openFiles = new ArrayList<>();
    /**
     * The current path of every file made by {@link #createWritable}, one array of one path each, moved along with
     * renames (by identity, so a later file of the same name is not taken for an earlier one).
     */
    private final List<Path[]> writablePaths = new ArrayList<>();
    private final AtomicInteger syncs = new AtomicInteger();
    private volatile boolean powerLost;
    private volatile IOException nextSyncFailure;
    private volatile IOException nextCreateFailure;
    private volatile IOException createFailure;
    private volatile IOException nextWriteFailure;
    private volatile java.util.concurrent.CountDownLatch writeEntered;
    private volatile java.util.concurrent.CountDownLatch writeRelease;
    private volatile boolean mappedFault;
    /**
     * Linux's page cache after a failed sync ({@link #failedSyncsDropPages()}): whether that mode is on, and the
     * cache of closed files, by path, that a later open in the same boot reads; guarded by this layer's monitor.
     */
    private volatile boolean dropPagesOnFailedSync;
    private final java.util.Map<Path, Cached> pageCache = new java.util.HashMap<>();
    private volatile java.util.concurrent.CountDownLatch writableSyncEntered;
    private volatile java.util.concurrent.CountDownLatch writableSyncRelease;
    /**
     * The bytes of the files this layer made, by their current path, and the most they may add up to (a full disk);
     * guarded by this layer's monitor.
     */
    private final java.util.Map<Path, Long> sizes = new java.util.HashMap<>();
    private long used;
    private long quota = Long.MAX_VALUE;
    private volatile java.util.concurrent.CountDownLatch createWritableEntered;
    private volatile java.util.concurrent.CountDownLatch createWritableRelease;

    /**
     * Loses power: every byte not synced is gone, renames not made durable are undone, and every later sync fails.
     *
     * @throws IOException when a rename cannot be undone.
     */
    public synchronized void powerLoss() throws IOException
    {
        powerLost = true;
        pageCache.clear();
        for (int i = unsyncedMoves.size() - 1; i >= 0; i--)
        {
            final Path[] move = unsyncedMoves.get(i);
            if (Files.exists(move[1]))
            {
                Files.move(move[1], move[0], StandardCopyOption.REPLACE_EXISTING);
            }
        }
        unsyncedMoves.clear();
    }

    /**
     * Loses power after the operating system wrote back part of what was not synced: each page (4 KiB) of an open
     * file that differs from what is on disk reaches the disk with probability {@code writeback}, in no particular
     * order, then {@link #powerLoss()}.
     *
     * @param random    chooses the pages.
     * @param writeback the chance that an unsynced page was written back.
     * @throws IOException when a file cannot be written or a rename undone.
     */
    public synchronized void powerLoss(final java.util.Random random, final double writeback) throws IOException
    {
        checkPower();
        for (final Faulty file : openFiles)
        {
            file.writeBackSome(random, writeback);
        }
        powerLoss();
    }

    /**
     * Makes the next file sync fail with {@code failure}, writing nothing.
     *
     * @param failure what the sync throws.
     */
    public void failNextSync(final IOException failure)
    {
        nextSyncFailure = failure;
    }

    /**
     * Makes the next {@link MappedFile#write} fail with {@code failure}, writing nothing.
     *
     * @param failure what the write throws.
     */
    public void failNextWrite(final IOException failure)
    {
        nextWriteFailure = failure;
    }

    /**
     * Makes the next {@link MappedFile#write} count {@code entered} down, then wait for {@code release} before it
     * goes on (and fails, if {@link #failNextWrite} was called).
     *
     * @param entered counted down when the write starts.
     * @param release what the write waits for.
     */
    public void holdNextWrite(
        final java.util.concurrent.CountDownLatch entered, final java.util.concurrent.CountDownLatch release)
    {
        writeEntered = entered;
        writeRelease = release;
    }

    /**
     * Makes the next {@link #createWritable} (a snapshot file: a checkpoint's first file operation) count
     * {@code entered} down, then wait for {@code release} before it goes on: a checkpoint as slow as the test wants.
     *
     * @param entered counted down when the create starts.
     * @param release what the create waits for.
     */
    public void holdNextCreateWritable(
        final java.util.concurrent.CountDownLatch entered, final java.util.concurrent.CountDownLatch release)
    {
        createWritableRelease = release;
        createWritableEntered = entered;
    }

    /**
     * Makes the next sync of a {@link #createWritable} file (a snapshot's, before it is published) count
     * {@code entered} down, then wait for {@code release} before it goes on.
     *
     * @param entered counted down when the sync starts.
     * @param release what the sync waits for.
     */
    public void holdNextWritableSync(
        final java.util.concurrent.CountDownLatch entered, final java.util.concurrent.CountDownLatch release)
    {
        writableSyncRelease = release;
        writableSyncEntered = entered;
    }

    /**
     * Lets the files this layer makes from now on grow by at most {@code bytes} more (segments by their length when
     * created, snapshots by what is written to them; a delete gives its file's bytes back): a disk that fills. A
     * write or create past it fails with ENOSPC's message, and {@link #usableSpace} says what is left.
     *
     * @param bytes the room left.
     */
    public synchronized void quota(final long bytes)
    {
        quota = used + bytes;
    }

    private synchronized void take(final Path path, final long bytes) throws IOException
    {
        if (used + bytes > quota)
        {
            throw new IOException("No space left on device");
        }
        used += bytes;
        sizes.merge(path, bytes, Long::sum);
    }

    private synchronized void giveBack(final Path path)
    {
        final Long bytes = sizes.remove(path);
        if (bytes != null)
        {
            used -= bytes;
        }
    }

    @Override
    public synchronized long usableSpace(final Path directory) throws IOException
    {
        return quota == Long.MAX_VALUE ? FileLayer.super.usableSpace(directory) : quota - used;
    }

    /**
     * Makes the next copy of bytes into a mapped file's buffer fault as a write to a mapping does when the file
     * system cannot give the page a block (SIGBUS, an {@link InternalError} in the JVM), writing nothing.
     */
    public void faultNextMappedWrite()
    {
        mappedFault = true;
    }

    /**
     * From now on, behaves as Linux does after a failed {@code fsync} (the PostgreSQL "fsyncgate" lesson): the pages
     * the failed sync could not write are marked clean and stay in the page cache, never written; a later sync
     * writes only pages dirtied since (by a write through the mapping that changes them, or by any
     * {@link MappedFile#write}), and so succeeds without them. What a closed file held stays in the page cache for a
     * later open in the same boot (until {@link #powerLoss()}), as the kernel's does.
     */
    public void failedSyncsDropPages()
    {
        dropPagesOnFailedSync = true;
    }

    /**
     * A closed file's pages in the page cache: its bytes, what the kernel believes is on the device (after a failed
     * sync) and the pages dirtied by writes since.
     */
    private record Cached(byte[] memory, byte[] clean, java.util.BitSet written)
    {
    }

    /**
     * Makes the next create fail with {@code failure}.
     *
     * @param failure what the create throws.
     */
    public void failNextCreate(final IOException failure)
    {
        nextCreateFailure = failure;
    }

    /**
     * Makes every create from now on fail with {@code failure}, as a full disk does, whichever thread creates (a
     * store's background thread makes spare log segments too, so a failure of one create could land there).
     *
     * @param failure what each create throws, or {@code null} to let creates succeed again.
     */
    public void failCreates(final IOException failure)
    {
        createFailure = failure;
    }

    /**
     * Syncs of files so far.
     *
     * @return the count.
     */
    public int fileSyncs()
    {
        return syncs.get();
    }

    @Override
    public MappedFile create(final Path path, final long capacity, final long allocated) throws IOException
    {
        checkPower();
        final IOException failure = nextCreateFailure;
        if (failure != null)
        {
            nextCreateFailure = null;
            throw failure;
        }
        final IOException always = createFailure;
        if (always != null)
        {
            throw always;
        }
        final long room;
        synchronized (this)
        {
            room = quota - used;
        }
        if (room < allocated)
        {
            // As a file system does: the file is made and written until the disk is full.
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE))
            {
                MappedFileLayer.writeZeros(channel, 0, Math.max(0, room));
            }
            take(path, Math.max(0, room));
            throw new IOException("No space left on device");
        }
        take(path, allocated);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))
        {
            MappedFileLayer.writeZeros(channel, 0, allocated);
            channel.force(true);
        }
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(path.toFile(), "rw"))
        {
            // The rest a hole, as the system's layer leaves it.
            file.setLength(capacity);
        }
        final Faulty file = new Faulty(path, ByteBuffer.allocateDirect((int)capacity));
        file.allocatedTo = allocated;
        return opened(file);
    }

    @Override
    public WritableFile createWritable(final Path path) throws IOException
    {
        checkPower();
        final java.util.concurrent.CountDownLatch entered = createWritableEntered;
        if (entered != null)
        {
            createWritableEntered = null;
            entered.countDown();
            awaitRelease(createWritableRelease, "create of " + path);
            checkPower();
        }
        Files.createFile(path);
        final FaultInjectingFileLayer layer = this;
        final Path[] current = {path};
        synchronized (this)
        {
            writablePaths.add(current);
        }
        return new WritableFile()
        {
            private final java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();
            private long size;

            @Override
            public void write(final ByteBuffer bytes) throws IOException
            {
                checkPower();
                take(currentPath(current), bytes.remaining());
                final byte[] copy = new byte[bytes.remaining()];
                bytes.get(copy);
                pending.write(copy);
                size += copy.length;
            }

            @Override
            public void sync() throws IOException
            {
                checkPower();
                final java.util.concurrent.CountDownLatch entered = writableSyncEntered;
                if (entered != null)
                {
                    writableSyncEntered = null;
                    entered.countDown();
                    awaitRelease(writableSyncRelease, "sync of " + path);
                    checkPower();
                }
                final IOException failure = nextSyncFailure;
                if (failure != null)
                {
                    nextSyncFailure = null;
                    throw failure;
                }
                syncs.incrementAndGet();
                synchronized (layer)
                {
                    Files.write(current[0], pending.toByteArray(), StandardOpenOption.APPEND);
                }
                pending.reset();
            }

            @Override
            public long size()
            {
                return size;
            }

            @Override
            public void close()
            {
                synchronized (layer)
                {
                    writablePaths.remove(current);
                }
                // Unsynced bytes stay "in the page cache" (here: nowhere durable) until a power loss drops them.
            }
        };
    }

    private synchronized Path currentPath(final Path[] current)
    {
        return current[0];
    }

    @Override
    public MappedFile open(final Path path) throws IOException
    {
        checkPower();
        final Cached cached;
        synchronized (this)
        {
            cached = pageCache.remove(path);
        }
        final byte[] bytes = cached != null ? cached.memory() : Files.readAllBytes(path);
        final ByteBuffer memory = ByteBuffer.allocateDirect(bytes.length);
        memory.put(bytes).clear();
        final Faulty file = new Faulty(path, memory);
        if (cached != null)
        {
            file.clean = cached.clean();
            file.written.or(cached.written());
        }
        return opened(file);
    }

    @Override
    public synchronized void syncDirectory(final Path directory) throws IOException
    {
        checkPower();
        unsyncedMoves.removeIf(move -> move[1].getParent().equals(directory));
    }

    @Override
    public synchronized void move(final Path from, final Path to) throws IOException
    {
        checkPower();
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        unsyncedMoves.add(new Path[] {from, to});
        for (final Path[] current : writablePaths)
        {
            if (current[0].equals(from))
            {
                current[0] = to;
            }
        }
        final Cached cached = pageCache.remove(from);
        pageCache.remove(to);
        if (cached != null)
        {
            pageCache.put(to, cached);
        }
        giveBack(to);
        final Long bytes = sizes.remove(from);
        if (bytes != null)
        {
            sizes.put(to, bytes);
        }
        for (final Faulty file : openFiles)
        {
            if (file.path.equals(from))
            {
                file.path = to;
            }
        }
    }

    @Override
    public void delete(final Path path) throws IOException
    {
        checkPower();
        Files.deleteIfExists(path);
        synchronized (this)
        {
            pageCache.remove(path);
        }
        giveBack(path);
    }

    private static void awaitRelease(final java.util.concurrent.CountDownLatch release, final String what)
        throws IOException
    {
        try
        {
            if (!release.await(30, java.util.concurrent.TimeUnit.SECONDS))
            {
                throw new IOException("the test never released the " + what);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException(ex);
        }
    }

    private synchronized Faulty opened(final Faulty file)
    {
        openFiles.add(file);
        return file;
    }

    private void checkPower() throws IOException
    {
        if (powerLost)
        {
            throw new IOException("the power is off");
        }
    }

    private final class Faulty implements MappedFile
    {
        private Path path;
        private final ByteBuffer memory;
        private final UnsafeBuffer buffer;
        /**
         * What the kernel believes is on the device once a sync failed ({@link #failedSyncsDropPages()}), else
         * {@code null}: a sync then writes only the pages that differ from it or were written since.
         */
        private byte[] clean;
        private final java.util.BitSet written = new java.util.BitSet();
        /**
         * The bytes from the start with blocks on the device: a write through the mapping past it is a write to a
         * hole, which on a full disk would fault, and which the log must never make.
         */
        private volatile long allocatedTo = Long.MAX_VALUE;

        Faulty(final Path path, final ByteBuffer memory)
        {
            this.path = path;
            this.memory = memory;
            this.buffer = new UnsafeBuffer(memory)
            {
                @Override
                public void putBytes(final int index, final org.agrona.DirectBuffer src, final int offset,
                    final int length)
                {
                    if (mappedFault && length > 0)
                    {
                        mappedFault = false;
                        // What the JVM throws when a write to a mapping raises SIGBUS.
                        throw new InternalError("a fault occurred in an unsafe memory access operation");
                    }
                    checkAllocated(index, length);
                    super.putBytes(index, src, offset, length);
                }

                @Override
                public void setMemory(final int index, final int length, final byte value)
                {
                    checkAllocated(index, length);
                    super.setMemory(index, length, value);
                }
            };
        }

        private void checkAllocated(final int index, final int length)
        {
            if (length > 0 && index + (long)length > allocatedTo)
            {
                throw new AssertionError("a write through the mapping of " + path + " to " + (index + length) +
                    " past its allocated " + allocatedTo + " bytes: a hole, which a full disk would fault on");
            }
        }

        @Override
        public void allocate(final long from, final long to) throws IOException
        {
            checkPower();
            final long end = Math.min(to, memory.capacity());
            final long need = Math.max(0, end - Math.max(from, Math.min(allocatedTo, memory.capacity())));
            final long room;
            synchronized (FaultInjectingFileLayer.this)
            {
                room = quota - used;
            }
            if (room < need)
            {
                throw new IOException("No space left on device");
            }
            take(path, need);
            for (long p = from; p < end; p++)
            {
                memory.put((int)p, (byte)0);
            }
            synchronized (this)
            {
                if (end > from)
                {
                    written.set((int)(from / PAGE), (int)((end - 1) / PAGE) + 1);
                }
            }
            if (allocatedTo != Long.MAX_VALUE)
            {
                allocatedTo = Math.max(allocatedTo, end);
            }
        }

        @Override
        public UnsafeBuffer buffer()
        {
            return buffer;
        }

        @Override
        public ByteBuffer memory()
        {
            return memory;
        }

        @Override
        public long capacity()
        {
            return memory.capacity();
        }

        @Override
        public void write(final ByteBuffer bytes, final long position) throws IOException
        {
            checkPower();
            final java.util.concurrent.CountDownLatch entered = writeEntered;
            if (entered != null)
            {
                writeEntered = null;
                entered.countDown();
                try
                {
                    if (!writeRelease.await(30, java.util.concurrent.TimeUnit.SECONDS))
                    {
                        throw new IOException("the test never released the write");
                    }
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    throw new IOException(ex);
                }
            }
            final IOException failure = nextWriteFailure;
            if (failure != null)
            {
                nextWriteFailure = null;
                throw failure;
            }
            final int length = bytes.remaining();
            buffer.putBytes((int)position, bytes, bytes.position(), length);
            bytes.position(bytes.limit());
            if (allocatedTo != Long.MAX_VALUE && position <= allocatedTo)
            {
                // A write through the file gives the pages it writes their blocks.
                allocatedTo = Math.max(allocatedTo, position + length);
            }
            if (length > 0)
            {
                synchronized (this)
                {
                    written.set((int)(position / PAGE), (int)((position + length - 1) / PAGE) + 1);
                }
            }
        }

        @Override
        public void sync() throws IOException
        {
            checkPower();
            final IOException failure = nextSyncFailure;
            if (failure != null)
            {
                nextSyncFailure = null;
                if (dropPagesOnFailedSync)
                {
                    synchronized (this)
                    {
                        // The pages it could not write are clean now, and never written.
                        clean = image();
                        written.clear();
                    }
                }
                throw failure;
            }
            syncs.incrementAndGet();
            synchronized (FaultInjectingFileLayer.this)
            {
                synchronized (this)
                {
                    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE))
                    {
                        for (int from = 0; from < memory.capacity(); from += PAGE)
                        {
                            final int length = Math.min(PAGE, memory.capacity() - from);
                            if (clean == null || written.get(from / PAGE) || !samePage(from, length))
                            {
                                final ByteBuffer view = memory.duplicate().clear().position(from)
                                    .limit(from + length);
                                while (view.hasRemaining())
                                {
                                    channel.write(view, view.position());
                                }
                            }
                        }
                        channel.force(false);
                    }
                    if (clean != null)
                    {
                        clean = image();
                    }
                    written.clear();
                }
            }
        }

        private byte[] image()
        {
            final byte[] bytes = new byte[memory.capacity()];
            memory.duplicate().clear().get(bytes);
            return bytes;
        }

        private boolean samePage(final int from, final int length)
        {
            for (int i = 0; i < length; i++)
            {
                if (memory.get(from + i) != clean[from + i])
                {
                    return false;
                }
            }
            return true;
        }

        void writeBackSome(final java.util.Random random, final double writeback) throws IOException
        {
            final int page = 4096;
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                final ByteBuffer onDisk = ByteBuffer.allocate(page);
                for (int from = 0; from < memory.capacity(); from += page)
                {
                    final int length = Math.min(page, memory.capacity() - from);
                    onDisk.clear().limit(length);
                    while (onDisk.hasRemaining() && channel.read(onDisk, from + onDisk.position()) >= 0)
                    {
                        // Read the page as the disk has it.
                    }
                    onDisk.flip();
                    final ByteBuffer inMemory = memory.duplicate().clear().position(from).limit(from + length);
                    if (!inMemory.equals(onDisk) && random.nextDouble() < writeback)
                    {
                        while (inMemory.hasRemaining())
                        {
                            channel.write(inMemory, inMemory.position());
                        }
                    }
                }
            }
        }

        @Override
        public void close()
        {
            synchronized (FaultInjectingFileLayer.this)
            {
                openFiles.remove(this);
                if (dropPagesOnFailedSync && !powerLost)
                {
                    synchronized (this)
                    {
                        pageCache.put(path, new Cached(image(), clean, (java.util.BitSet)written.clone()));
                    }
                }
            }
            buffer.wrap(new byte[0]);
            BufferUtil.free(memory);
        }
    }
}
