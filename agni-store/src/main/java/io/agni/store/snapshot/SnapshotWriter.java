package io.agni.store.snapshot;

import io.agni.store.file.Crc;
import io.agni.store.file.FileLayer;
import io.agni.store.file.WritableFile;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Writes one snapshot under a temporary name, then publishes it with {@link #commit()}: sync, rename, sync the
 * directory. Not thread-safe.
 */
public final class SnapshotWriter implements AutoCloseable
{
    private final Path directory;
    private final FileLayer files;
    private final Path temporary;
    private final Path path;
    private final WritableFile file;
    private final ByteBuffer block;
    private final UnsafeBuffer blockView;
    private final Crc blockCrc;
    private int blockUsed;
    private long entries;
    private long blocks;
    private boolean finished;

    private SnapshotWriter(
        final Path directory, final FileLayer files, final Path temporary, final Path path, final WritableFile file)
    {
        this.directory = directory;
        this.files = files;
        this.temporary = temporary;
        this.path = path;
        this.file = file;
        this.block = ByteBuffer.allocateDirect(SnapshotLayout.BLOCK_HEADER_LENGTH + SnapshotLayout.BLOCK_BYTES)
            .order(SnapshotLayout.ORDER);
        this.blockView = new UnsafeBuffer(block);
        this.blockCrc = new Crc(block);
    }

    /**
     * Starts a snapshot.
     *
     * @param directory    the store's directory.
     * @param files        the file layer.
     * @param fromSequence the first log sequence a replay on top of this snapshot needs.
     * @param createdAt    the time it is taken, in milliseconds since the epoch.
     * @return the writer; call {@link #commit()} or {@link #close()}.
     * @throws IOException when the temporary file cannot be created or written.
     */
    public static SnapshotWriter create(
        final Path directory, final FileLayer files, final long fromSequence, final long createdAt)
        throws IOException
    {
        final Path path = directory.resolve(SnapshotLayout.fileName(fromSequence));
        final Path temporary = directory.resolve(SnapshotLayout.fileName(fromSequence) +
            SnapshotLayout.TEMPORARY_SUFFIX);
        files.delete(temporary);
        final WritableFile file = files.createWritable(temporary);
        final SnapshotWriter writer = new SnapshotWriter(directory, files, temporary, path, file);
        try
        {
            final ByteBuffer header = ByteBuffer.allocate(SnapshotLayout.HEADER_LENGTH).order(SnapshotLayout.ORDER);
            SnapshotLayout.writeHeader(header, new Crc(header), fromSequence, createdAt);
            file.write(header);
        }
        catch (final IOException | RuntimeException ex)
        {
            writer.close();
            throw ex;
        }
        return writer;
    }

    /**
     * Adds one entry.
     *
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param value          the value's bytes.
     * @param valueOffset    where they start.
     * @param valueLength    how many.
     * @param expireAtMillis the absolute expiry time, 0 for none.
     * @throws IOException when writing fails.
     */
    public void add(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength, final long expireAtMillis)
        throws IOException
    {
        final long length = (long)SnapshotLayout.ENTRY_FIXED_LENGTH + keyLength + valueLength;
        if (blockUsed + length > SnapshotLayout.BLOCK_BYTES)
        {
            flushBlock();
        }
        if (length > SnapshotLayout.BLOCK_BYTES)
        {
            writeLargeEntry(key, keyOffset, keyLength, value, valueOffset, valueLength, expireAtMillis, (int)length);
        }
        else
        {
            int p = SnapshotLayout.BLOCK_HEADER_LENGTH + blockUsed;
            blockView.putInt(p, keyLength, SnapshotLayout.ORDER);
            blockView.putInt(p + Integer.BYTES, valueLength, SnapshotLayout.ORDER);
            blockView.putLong(p + 2 * Integer.BYTES, expireAtMillis, SnapshotLayout.ORDER);
            p += SnapshotLayout.ENTRY_FIXED_LENGTH;
            blockView.putBytes(p, key, keyOffset, keyLength);
            blockView.putBytes(p + keyLength, value, valueOffset, valueLength);
            blockUsed += (int)length;
        }
        entries++;
    }

    /**
     * Entries added so far.
     *
     * @return the count.
     */
    public long entries()
    {
        return entries;
    }

    /**
     * Writes the footer, syncs, renames the file to its final name and syncs the directory.
     *
     * @return the published snapshot's path.
     * @throws IOException when any step fails; the temporary file is then removed.
     */
    public Path commit() throws IOException
    {
        try
        {
            flushBlock();
            final ByteBuffer footer = ByteBuffer.allocate(SnapshotLayout.FOOTER_LENGTH).order(SnapshotLayout.ORDER);
            footer.putInt(0, SnapshotLayout.FOOTER_MARK);
            footer.putLong(8, entries);
            footer.putLong(16, blocks);
            footer.putInt(4, new Crc(footer).of(8, 16));
            file.write(footer);
            file.sync();
            file.close();
            finished = true;
            files.move(temporary, path);
            files.syncDirectory(directory);
            return path;
        }
        catch (final IOException | RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * Abandons an uncommitted snapshot: closes and deletes the temporary file. Does nothing after {@link #commit()}.
     */
    @Override
    public void close()
    {
        BufferUtil.free(block);
        if (finished)
        {
            return;
        }
        finished = true;
        try
        {
            file.close();
        }
        catch (final IOException ignored)
        {
            // The file is deleted next; what it held does not matter.
        }
        try
        {
            files.delete(temporary);
        }
        catch (final IOException ignored)
        {
            // A leftover temporary file is removed on the next open.
        }
    }

    private void flushBlock() throws IOException
    {
        if (blockUsed == 0)
        {
            return;
        }
        block.putInt(0, blockUsed);
        block.putInt(Integer.BYTES, blockCrc.of(SnapshotLayout.BLOCK_HEADER_LENGTH, blockUsed));
        block.limit(SnapshotLayout.BLOCK_HEADER_LENGTH + blockUsed).position(0);
        file.write(block);
        block.clear();
        blockUsed = 0;
        blocks++;
    }

    private void writeLargeEntry(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength, final long expireAtMillis,
        final int length) throws IOException
    {
        // Rare (an entry over 64 KiB): one heap block of its own.
        final ByteBuffer large = ByteBuffer.allocate(SnapshotLayout.BLOCK_HEADER_LENGTH + length)
            .order(SnapshotLayout.ORDER);
        final UnsafeBuffer view = new UnsafeBuffer(large);
        int p = SnapshotLayout.BLOCK_HEADER_LENGTH;
        view.putInt(p, keyLength, SnapshotLayout.ORDER);
        view.putInt(p + Integer.BYTES, valueLength, SnapshotLayout.ORDER);
        view.putLong(p + 2 * Integer.BYTES, expireAtMillis, SnapshotLayout.ORDER);
        p += SnapshotLayout.ENTRY_FIXED_LENGTH;
        view.putBytes(p, key, keyOffset, keyLength);
        view.putBytes(p + keyLength, value, valueOffset, valueLength);
        large.putInt(0, length);
        large.putInt(Integer.BYTES, new Crc(large).of(SnapshotLayout.BLOCK_HEADER_LENGTH, length));
        file.write(large);
        blocks++;
    }
}
