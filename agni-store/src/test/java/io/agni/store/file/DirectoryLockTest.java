package io.agni.store.file;

import io.agni.store.DirectoryInUseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DirectoryLockTest
{
    @TempDir
    Path directory;

    @Test
    void aSecondOpenInThisJvmFailsAndNamesTheHolder() throws Exception
    {
        try (DirectoryLock lock = DirectoryLock.acquire(directory))
        {
            final DirectoryInUseException ex = assertThrows(DirectoryInUseException.class,
                () -> DirectoryLock.acquire(directory.resolve(".")));
            assertEquals(directory.toRealPath(), ex.directory());
            assertTrue(ex.getMessage().contains("process " + ProcessHandle.current().pid()), ex.getMessage());
            assertTrue(ex.getMessage().contains(directory.toRealPath().toString()), ex.getMessage());
        }
        DirectoryLock.acquire(directory).close();
    }

    @Test
    void anOpenFromAnotherProcessFailsAndNamesIt() throws Exception
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process child = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
            DirectoryLockHolder.class.getName(), directory.toString())).redirectErrorStream(true).start();
        try
        {
            final BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            final String line = out.readLine();
            assertNotNull(line, "the child exited before taking the lock");
            assertEquals("held " + child.pid(), line);

            final DirectoryInUseException ex = assertThrows(DirectoryInUseException.class,
                () -> DirectoryLock.acquire(directory));
            assertTrue(ex.getMessage().contains("process " + child.pid()), ex.getMessage());
        }
        finally
        {
            child.getOutputStream().close();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not exit");
        }
        DirectoryLock.acquire(directory).close();
    }
}
