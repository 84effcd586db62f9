package io.agni.store.file;

import java.nio.file.Path;

/**
 * Run in a child JVM by {@link DirectoryLockTest}: takes the directory, says so, and holds it until its input ends.
 */
public final class DirectoryLockHolder
{
    private DirectoryLockHolder()
    {
    }

    /**
     * @param args the directory.
     * @throws Exception when the lock cannot be taken.
     */
    public static void main(final String[] args) throws Exception
    {
        try (DirectoryLock lock = DirectoryLock.acquire(Path.of(args[0])))
        {
            System.out.println("held " + ProcessHandle.current().pid());
            System.out.flush();
            while (System.in.read() >= 0)
            {
                // Hold until the parent closes our input.
            }
        }
    }
}
