package io.agni.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file written from start to end (a snapshot): bytes reach the operating system on {@link #write} and the device
 * on {@link #sync()}.
 */
public interface WritableFile extends AutoCloseable
{
    /**
     * Appends the buffer's remaining bytes.
     *
     * @param bytes what to append; its position moves to its limit.
     * @throws IOException when the write fails, a full disk among other causes.
     */
    void write(ByteBuffer bytes) throws IOException;

    /**
     * Makes every byte written so far durable.
     *
     * @throws IOException when the device reports a failure.
     */
    void sync() throws IOException;

    /**
     * Bytes written so far.
     *
     * @return the file's length.
     */
    long size();

    /**
     * Closes the file; unsynced bytes stay in the operating system's care.
     *
     * @throws IOException when closing fails.
     */
    @Override
    void close() throws IOException;
}
