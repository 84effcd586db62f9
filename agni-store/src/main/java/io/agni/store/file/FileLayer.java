package io.agni.store.file;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The file operations the durable store uses, behind one seam: the system's, or in tests one that can drop what was
 * never synced or fail on demand (the method of RocksDB's fault-injection file system and of LazyFS).
 */
public interface FileLayer
{
    /**
     * The operating system's files, memory-mapped.
     *
     * @return the layer every store uses unless a test gives another.
     */
    static FileLayer system()
    {
        return MappedFileLayer.INSTANCE;
    }

    /**
     * Creates a file of {@code capacity} bytes of which the first {@code allocated} are written as zeros and the rest
     * is a hole, syncs it (its length included), and maps the whole of it. The mapping must not be written past what
     * is allocated ({@link MappedFile#allocate}): a write to a hole needs a block, and a full disk would then fault
     * in the middle of the copy rather than fail a call.
     *
     * @param path      a path that does not exist.
     * @param capacity  the file's length.
     * @param allocated the bytes written at its start, at most {@code capacity}.
     * @return the mapped file.
     * @throws IOException when the file exists or cannot be written (a full disk among others).
     */
    MappedFile create(Path path, long capacity, long allocated) throws IOException;

    /**
     * Creates an empty file to be written from start to end.
     *
     * @param path a path that does not exist.
     * @return the file, open for appending.
     * @throws IOException when the file exists or cannot be created.
     */
    WritableFile createWritable(Path path) throws IOException;

    /**
     * Maps an existing file at its current length.
     *
     * @param path the file.
     * @return the mapped file.
     * @throws IOException when it cannot be opened or mapped.
     */
    MappedFile open(Path path) throws IOException;

    /**
     * Makes the directory's entries (created, renamed and deleted files) durable.
     *
     * @param directory the directory.
     * @throws IOException when the sync fails.
     */
    void syncDirectory(Path directory) throws IOException;

    /**
     * Renames a file atomically, replacing any file at {@code to}; durable once the directory is synced.
     *
     * @param from the file.
     * @param to   its new path, in the same directory.
     * @throws IOException when the rename fails.
     */
    void move(Path from, Path to) throws IOException;

    /**
     * Deletes a file if it exists; durable once the directory is synced.
     *
     * @param path the file.
     * @throws IOException when it exists and cannot be deleted.
     */
    void delete(Path path) throws IOException;

    /**
     * Bytes this process may still write into the directory's file system (a quota or a full disk counted).
     *
     * @param directory a directory of the file system.
     * @return bytes.
     * @throws IOException when the file system cannot be asked.
     */
    default long usableSpace(final Path directory) throws IOException
    {
        return java.nio.file.Files.getFileStore(directory).getUsableSpace();
    }
}
