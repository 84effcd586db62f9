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
