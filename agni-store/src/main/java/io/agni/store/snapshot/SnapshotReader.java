package io.agni.store.snapshot;

import io.agni.store.SnapshotDamagedException;
import io.agni.store.file.Crc;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads a snapshot, checking every block before any of its entries is handed on, and its footer at the end: a
 * handler may see the entries of the blocks before a damaged one, so a caller that loads a store from a snapshot
 * clears it when {@link SnapshotDamagedException} comes.
 */
public final class SnapshotReader
{
    private SnapshotReader()
    {
    }

    /**
     * The from sequence and creation time in a snapshot's header.
     *
     * @param fromSequence the first log sequence a replay on top of it needs.
     * @param createdAt    when it was taken, in milliseconds since the epoch.
     * @param entries      entries it holds.
     */
    public record Summary(long fromSequence, long createdAt, long entries)
    {
    }

    /**
     * Reads every entry of a snapshot.
     *
     * @param path    the snapshot file.
     * @param handler receives the entries.
     * @return what its header and footer say.
     * @throws IOException               when the file cannot be read.
     * @throws SnapshotDamagedException  when it is not whole.
     */
    public static Summary read(final Path path, final SnapshotEntryHandler handler) throws IOException
    {
        return read(path, new BlockSink()
        {
            @Override
            public ByteBuffer buffer(final int capacity)
            {
                return null;
            }

            @Override
            public void accept(final ByteBuffer block, final UnsafeBuffer view, final int length)
            {
                handOn(view, length, handler);
            }
        });
    }

    /**
     * Where {@link #read(Path, BlockSink)} puts each block once its checksum and entry lengths are checked.
     */
    interface BlockSink
    {
        /**
         * A buffer to read the next block into, or {@code null} to reuse the reader's own (the sink is done with a
         * block when {@link #accept} returns).
         *
         * @param capacity the bytes it must hold.
         * @return a direct buffer, or {@code null}.
         * @throws IOException when the sink failed.
         */
        ByteBuffer buffer(int capacity) throws IOException;

        /**
         * A checked block.
         *
         * @param block  the buffer it was read into.
         * @param view   a view of it.
         * @param length its length.
         * @throws IOException when the sink failed.
         */
        void accept(ByteBuffer block, UnsafeBuffer view, int length) throws IOException;
    }

    /**
     * Reads every block of a snapshot into the sink, checking each one's checksum and entry lengths first and the
     * footer's counts at the end.
     */
    static Summary read(final Path path, final BlockSink sink) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final long size = channel.size();
            final ByteBuffer header = ByteBuffer.allocate(SnapshotLayout.HEADER_LENGTH).order(SnapshotLayout.ORDER);
            if (readFully(channel, header, 0) < SnapshotLayout.HEADER_LENGTH)
            {
                throw new SnapshotDamagedException(path, 0, "the file is shorter than a snapshot header");
            }
            final String problem = SnapshotLayout.headerProblem(header, new Crc(header));
            if (problem != null)
            {
                throw new SnapshotDamagedException(path, 0, problem);
            }
            final long fromSequence = header.getLong(SnapshotLayout.FROM_SEQUENCE_OFFSET);
            final long createdAt = header.getLong(SnapshotLayout.CREATED_AT_OFFSET);

            ByteBuffer own = ByteBuffer.allocateDirect(SnapshotLayout.BLOCK_BYTES).order(SnapshotLayout.ORDER);
            final ByteBuffer blockHeader = ByteBuffer.allocate(SnapshotLayout.BLOCK_HEADER_LENGTH)
                .order(SnapshotLayout.ORDER);
            final UnsafeBuffer ownView = new UnsafeBuffer(own);
            long position = SnapshotLayout.HEADER_LENGTH;
            long entries = 0;
            long blocks = 0;
            try
            {
                while (true)
                {
                    blockHeader.clear();
                    if (readFully(channel, blockHeader, position) < SnapshotLayout.BLOCK_HEADER_LENGTH)
                    {
                        throw new SnapshotDamagedException(path, position, "the file ends before its footer");
                    }
                    final int length = blockHeader.getInt(0);
                    if (length == SnapshotLayout.FOOTER_MARK)
                    {
                        checkFooter(channel, path, position, size, blockHeader.getInt(Integer.BYTES), entries,
                            blocks);
                        return new Summary(fromSequence, createdAt, entries);
                    }
                    if (length <= 0 || position + SnapshotLayout.BLOCK_HEADER_LENGTH + length > size)
                    {
                        throw new SnapshotDamagedException(path, position, "block length " + length);
                    }
                    ByteBuffer block = sink.buffer(length);
                    final UnsafeBuffer view;
                    if (block == null)
                    {
                        if (length > own.capacity())
                        {
                            BufferUtil.free(own);
                            own = ByteBuffer.allocateDirect(length).order(SnapshotLayout.ORDER);
                            ownView.wrap(own);
                        }
                        block = own;
                        view = ownView;
                    }
                    else
                    {
                        view = new UnsafeBuffer(block);
                    }
                    block.clear().limit(length);
                    readFully(channel, block, position + SnapshotLayout.BLOCK_HEADER_LENGTH);
                    if (new Crc(block).of(0, length) != blockHeader.getInt(Integer.BYTES))
                    {
                        throw new SnapshotDamagedException(path, position, "a block's checksum does not match");
                    }
                    entries += checkEntries(view, length, path, position);
                    sink.accept(block, view, length);
                    blocks++;
                    position += SnapshotLayout.BLOCK_HEADER_LENGTH + length;
                }
            }
            finally
            {
                ownView.wrap(new byte[0]);
                BufferUtil.free(own);
            }
        }
    }

    /**
     * Hands on the entries of a block whose checksum matched and whose entry lengths tile it exactly (checked by
     * {@link #read(Path, BlockSink)}: a checksum proves the bytes are the ones written, not that they were written
     * right).
     */
    static void handOn(final UnsafeBuffer view, final int length, final SnapshotEntryHandler handler)
    {
        int p = 0;
        while (p < length)
        {
            final int keyLength = view.getInt(p, SnapshotLayout.ORDER);
            final int valueLength = view.getInt(p + Integer.BYTES, SnapshotLayout.ORDER);
            final long expireAt = view.getLong(p + 2 * Integer.BYTES, SnapshotLayout.ORDER);
            final int keyOffset = p + SnapshotLayout.ENTRY_FIXED_LENGTH;
            handler.onEntry(view, keyOffset, keyLength, keyOffset + keyLength, valueLength, expireAt);
            p = keyOffset + keyLength + valueLength;
        }
    }

    /**
     * Counts a block's entries, checking that each one's lengths fit in the block and that the last ends where it
     * does.
     */
    private static long checkEntries(
        final UnsafeBuffer view, final int length, final Path path, final long blockPosition)
    {
        long entries = 0;
        int p = 0;
        while (p < length)
        {
            if (length - p < SnapshotLayout.ENTRY_FIXED_LENGTH)
            {
                throw new SnapshotDamagedException(path, blockPosition, "a block ends inside an entry");
            }
            final int keyLength = view.getInt(p, SnapshotLayout.ORDER);
            final int valueLength = view.getInt(p + Integer.BYTES, SnapshotLayout.ORDER);
            final int keyOffset = p + SnapshotLayout.ENTRY_FIXED_LENGTH;
            if (keyLength < 0 || valueLength < 0 || (long)keyLength + valueLength > length - keyOffset)
            {
                throw new SnapshotDamagedException(path, blockPosition, "an entry does not fit in its block");
            }
            entries++;
            p = keyOffset + keyLength + valueLength;
        }
        return entries;
    }

    private static void checkFooter(
        final FileChannel channel, final Path path, final long position, final long size, final int storedCrc,
        final long entries, final long blocks) throws IOException
    {
        final ByteBuffer counts = ByteBuffer.allocate(SnapshotLayout.FOOTER_LENGTH - SnapshotLayout.BLOCK_HEADER_LENGTH)
            .order(SnapshotLayout.ORDER);
        if (readFully(channel, counts, position + SnapshotLayout.BLOCK_HEADER_LENGTH) < counts.capacity() ||
            new Crc(counts).of(0, counts.capacity()) != storedCrc)
        {
            throw new SnapshotDamagedException(path, position, "the footer is damaged");
        }
        if (counts.getLong(0) != entries || counts.getLong(Long.BYTES) != blocks)
        {
            throw new SnapshotDamagedException(path, position, "the footer counts " + counts.getLong(0) +
                " entries in " + counts.getLong(Long.BYTES) + " blocks, the file holds " + entries + " in " + blocks);
        }
        if (position + SnapshotLayout.FOOTER_LENGTH != size)
        {
            throw new SnapshotDamagedException(path, position + SnapshotLayout.FOOTER_LENGTH,
                "bytes follow the footer");
        }
    }

    private static int readFully(final FileChannel channel, final ByteBuffer buffer, final long position)
        throws IOException
    {
        int read = 0;
        while (buffer.hasRemaining())
        {
            final int n = channel.read(buffer, position + read);
            if (n < 0)
            {
                break;
            }
            read += n;
        }
        return read;
    }
}
