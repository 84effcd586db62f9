package io.agni.store.file;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file mapped into memory: what is written to {@link #buffer()} is in the operating system's page cache at once
 * (it survives the process, not a power loss) and on the device after {@link #sync()}.
 */
public interface MappedFile extends AutoCloseable
{
    /**
     * The file's bytes.
     *
     * @return a buffer over the whole file.
     */
    UnsafeBuffer buffer();

    /**
     * The same bytes as a direct {@link ByteBuffer}, for checksums; callers use their own duplicate.
     *
     * @return the mapping.
     */
    ByteBuffer memory();

    /**
     * The file's length.
     *
     * @return bytes.
     */
    long capacity();

    /**
     * Writes bytes at a position through the file, not the mapping (the page cache is the same, so the mapping sees
     * them): a sync then has no mapped pages to write-protect, which makes {@code fdatasync} after a small write
     * about twice as fast on Linux.
     *
     * @param bytes    from their position to their limit; consumed.
     * @param position where in the file.
     * @throws IOException when the write fails.
     */
    void write(ByteBuffer bytes, long position) throws IOException;

    /**
     * Writes zeros through the file over {@code [from, to)}, so that the file system gives those pages blocks now: a
     * full disk shows here, as an {@link IOException}, rather than as a fault in a later write to the mapping. Not
     * synced; written in pieces of 64 KiB, so that the page cache does not give the file megabyte folios, which a
     * later sync of a few bytes would count as written whole.
     *
     * @param from the first byte.
     * @param to   the byte after the last, at most {@link #capacity()}.
     * @throws IOException when the write fails.
     */
    void allocate(long from, long to) throws IOException;

    /**
     * Makes every byte written so far durable ({@code fdatasync}).
     *
     * @throws IOException when the device reports a failure; the written bytes may then be lost.
     */
    void sync() throws IOException;

    /**
     * Unmaps and closes the file; the buffer must not be used afterwards.
     */
    @Override
    void close();
}
