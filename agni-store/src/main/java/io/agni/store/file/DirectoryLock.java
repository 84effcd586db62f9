package io.agni.store.file;

import io.agni.store.DirectoryInUseException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exclusive ownership of a store's directory: an operating-system lock on its {@code LOCK} file, which also names
 * the holder, plus a registry for this JVM (Java's file locks belong to the whole JVM, so a second open from the same
 * process would not be refused by the lock alone).
 */
public final class DirectoryLock implements AutoCloseable
{
    /**
     * The lock file's name.
     */
    public static final String FILE_NAME = "LOCK";

    private static final ConcurrentHashMap<Path, String> HELD_IN_THIS_JVM = new ConcurrentHashMap<>();

    private final Path directory;
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(final Path directory, final FileChannel channel, final FileLock lock)
    {
        this.directory = directory;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the directory, or fails at once.
     *
     * @param directory an existing directory.
     * @return the lock, to close when the store closes.
     * @throws DirectoryInUseException when another store, in this JVM or another process, holds it.
     * @throws IOException             when the lock file cannot be created or locked.
     */
    public static DirectoryLock acquire(final Path directory) throws IOException
    {
        final Path canonical = directory.toRealPath();
        final String holder = describeThisProcess();
        final String previous = HELD_IN_THIS_JVM.putIfAbsent(canonical, holder);
        if (previous != null)
        {
            throw new DirectoryInUseException(canonical, previous + ", in this JVM");
        }
        FileChannel channel = null;
        try
        {
            channel = FileChannel.open(canonical.resolve(FILE_NAME),
                StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            final FileLock lock;
            try
            {
                lock = channel.tryLock();
            }
            catch (final OverlappingFileLockException ex)
            {
                throw new DirectoryInUseException(canonical, "another channel of this JVM");
            }
            if (lock == null)
            {
                throw new DirectoryInUseException(canonical, readHolder(channel));
            }
            final ByteBuffer text = ByteBuffer.wrap((holder + "\n").getBytes(StandardCharsets.UTF_8));
            channel.truncate(0);
            while (text.hasRemaining())
            {
                channel.write(text, text.position());
            }
            channel.force(false);
            return new DirectoryLock(canonical, channel, lock);
        }
        catch (final IOException | RuntimeException ex)
        {
            HELD_IN_THIS_JVM.remove(canonical, holder);
            if (channel != null)
            {
                try
                {
                    channel.close();
                }
                catch (final IOException closing)
                {
                    ex.addSuppressed(closing);
                }
            }
            throw ex;
        }
    }

    /**
     * The directory held.
     *
     * @return its real path.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * Gives the directory up. The lock file stays, naming the last holder; the lock on it is what counts.
     */
    @Override
    public void close()
    {
        try
        {
            lock.release();
            channel.close();
        }
        catch (final IOException ignored)
        {
            // Closing the channel releases the lock whatever happened; nothing is left to undo.
        }
        finally
        {
            HELD_IN_THIS_JVM.remove(directory);
        }
    }

    private static String readHolder(final FileChannel channel) throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.allocate(512);
        channel.read(bytes, 0);
        final String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8).trim();
        return text.isEmpty() ? "another process" : text;
    }

    private static String describeThisProcess()
    {
        // No host name: looking it up can wait on DNS, and a store directory is local to its machine.
        return "process " + ProcessHandle.current().pid() + " since " + Instant.now();
    }
}
