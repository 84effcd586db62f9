package io.agni.store.file;

import org.agrona.BufferUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * {@link FileLayer#system()}: files mapped with {@link FileChannel#map}, synced with {@link FileChannel#force}.
 */
final class MappedFileLayer implements FileLayer
{
    static final MappedFileLayer INSTANCE = new MappedFileLayer();

    private static final int ZERO_PIECE = 64 * 1024;

    private MappedFileLayer()
    {
    }

    @Override
    public MappedFile create(final Path path, final long capacity, final long allocated) throws IOException
    {
        if (capacity <= 0 || capacity > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("a mapped file holds 1 byte to 2 GiB: " + capacity);
        }
        if (allocated < 0 || allocated > capacity)
        {
            throw new IllegalArgumentException("allocated must be 0 to " + capacity + ": " + allocated);
        }
        final FileChannel channel = FileChannel.open(
            path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try
        {
            writeZeros(channel, 0, allocated);
            // Mapping past the end sets the file's length, with a hole after what was written.
            final MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, capacity);
            try
            {
                channel.force(true);
            }
            catch (final IOException | RuntimeException ex)
            {
                IoUtil.unmap(mapping);
                throw ex;
            }
            return new Mapped(channel, mapping);
        }
        catch (final IOException | RuntimeException | Error ex)
        {
            closeQuietly(channel, ex);
            throw ex;
        }
    }

    @Override
    public WritableFile createWritable(final Path path) throws IOException
    {
        final FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new WritableFile()
        {
            private long size;

            @Override
            public void write(final ByteBuffer bytes) throws IOException
            {
                while (bytes.hasRemaining())
                {
                    size += channel.write(bytes, size);
                }
            }

            @Override
            public void sync() throws IOException
            {
                channel.force(true);
            }

            @Override
            public long size()
            {
                return size;
            }

            @Override
            public void close() throws IOException
            {
                channel.close();
            }
        };
    }

    @Override
    public MappedFile open(final Path path) throws IOException
    {
        final FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try
        {
            final long size = channel.size();
            if (size <= 0 || size > Integer.MAX_VALUE)
            {
                throw new IOException("cannot map " + path + ": its length is " + size + " bytes");
            }
            return map(channel);
        }
        catch (final IOException | RuntimeException | Error ex)
        {
            closeQuietly(channel, ex);
            throw ex;
        }
    }

    @Override
    public void syncDirectory(final Path directory) throws IOException
    {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ))
        {
            channel.force(true);
        }
    }

    @Override
    public void move(final Path from, final Path to) throws IOException
    {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void delete(final Path path) throws IOException
    {
        Files.deleteIfExists(path);
    }

    /**
     * Writes zeros over {@code [from, to)} in pieces of 64 KiB: a file written in larger pieces gets large page-cache
     * folios on Linux, and a sync of a few bytes in one then counts the whole folio as written; pieces of a page
     * cost four times as many system calls (16 us each, about 260 ms per 64 MiB, measured on the development
     * machine, against 33 ms in pieces of 64 KiB).
     */
    static void writeZeros(final FileChannel channel, final long from, final long to) throws IOException
    {
        if (to <= from)
        {
            return;
        }
        final ByteBuffer zeros = ByteBuffer.allocateDirect((int)Math.min(ZERO_PIECE, to - from));
        try
        {
            long written = from;
            while (written < to)
            {
                zeros.clear().limit((int)Math.min(zeros.capacity(), to - written));
                while (zeros.hasRemaining())
                {
                    written += channel.write(zeros, written);
                }
            }
        }
        finally
        {
            BufferUtil.free(zeros);
        }
    }

    private static MappedFile map(final FileChannel channel) throws IOException
    {
        final MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
        return new Mapped(channel, mapping);
    }

    private static void closeQuietly(final FileChannel channel, final Throwable cause)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            cause.addSuppressed(ex);
        }
    }

    private static final class Mapped implements MappedFile
    {
        private final FileChannel channel;
        private final MappedByteBuffer mapping;
        private final UnsafeBuffer buffer;

        Mapped(final FileChannel channel, final MappedByteBuffer mapping)
        {
            this.channel = channel;
            this.mapping = mapping;
            this.buffer = new UnsafeBuffer(mapping);
        }

        @Override
        public UnsafeBuffer buffer()
        {
            return buffer;
        }

        @Override
        public ByteBuffer memory()
        {
            return mapping;
        }

        @Override
        public long capacity()
        {
            return mapping.capacity();
        }

        @Override
        public void write(final ByteBuffer bytes, final long position) throws IOException
        {
            long at = position;
            while (bytes.hasRemaining())
            {
                at += channel.write(bytes, at);
            }
        }

        @Override
        public void allocate(final long from, final long to) throws IOException
        {
            writeZeros(channel, from, Math.min(to, capacity()));
        }

        @Override
        public void sync() throws IOException
        {
            // On Linux the page cache is shared by the mapping and the file, so fdatasync writes what the mapping
            // dirtied; the file's length never changes after create, so no metadata needs forcing.
            channel.force(false);
        }

        @Override
        public void close()
        {
            buffer.wrap(new byte[0]);
            IoUtil.unmap(mapping);
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // Nothing was pending: every write that mattered was synced or is in the page cache already.
            }
        }
    }
}
