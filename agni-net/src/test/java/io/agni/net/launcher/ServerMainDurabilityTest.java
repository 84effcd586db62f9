package io.agni.net.launcher;

import io.agni.api.Durability;
import io.agni.store.OffHeapStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's {@code --dir} and {@code --durability}: the errors of a command line that does not go together,
 * a directory that keeps the data across a restart, a directory another process holds, and a SAVE over the wire
 * that a killed server's directory still has.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("socket")
class ServerMainDurabilityTest
{
    private static final String[] SMALL = {"--threads", "1", "--shards", "2", "--max-memory", "16mb", "--port", "0"};

    @TempDir
    Path directory;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<StandaloneServer> started = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stop()
    {
        started.forEach(StandaloneServer::close);
        processes.forEach(Process::destroyForcibly);
    }

    @Test
    void aDurabilityThatKeepsDataNeedsADirectory()
    {
        assertEquals(ServerMain.EXIT_USAGE, run("--durability", "paranoid"));
        assertTrue(err().startsWith("agni-server: --durability paranoid needs --dir: the store keeps its data on " +
            "disk in a directory"), err());
        assertTrue(started.isEmpty());
    }

    @Test
    void noneWithADirectoryIsAUsageError()
    {
        assertEquals(ServerMain.EXIT_USAGE, run("--dir", directory.toString(), "--durability", "none"));
        assertTrue(err().startsWith("agni-server: --durability none keeps nothing on disk, so it takes no --dir: " +
            "--dir=" + directory), err());
    }

    @Test
    void anUnknownDurabilityIsAUsageError()
    {
        assertEquals(ServerMain.EXIT_USAGE, run("--dir", directory.toString(), "--durability", "sometimes"));
        assertTrue(err().startsWith("agni-server: --durability must be none, fast, durable or paranoid: " +
            "--durability=sometimes"), err());
    }

    @Test
    void withoutADirectoryTheDataIsInMemoryOnly()
    {
        assertEquals(ServerMain.RUNNING, run());
        assertEquals(Durability.NONE, started.get(0).store().durability());
    }

    @Test
    void aDirectoryIsDurableByDefaultAndKeepsTheDataAcrossARestart() throws IOException
    {
        final Path dir = directory.resolve("data");
        assertEquals(ServerMain.RUNNING, run("--dir", dir.toString()));
        final StandaloneServer first = started.get(0);
        assertEquals(Durability.DURABLE, first.store().durability());
        assertEquals("+OK", ServerMainTest.exchange(first.localAddress().getPort(), "SET k v\r\n"));
        first.close();

        assertEquals(ServerMain.RUNNING, run("--dir", dir.toString(), "--durability", "PARANOID"));
        final StandaloneServer second = started.get(1);
        assertEquals(Durability.PARANOID, second.store().durability());
        assertEquals("v", ServerMainTest.exchange(second.localAddress().getPort(), "GET k\r\n", 2));
    }

    @Test
    void aDirectoryHeldByAnotherProcessIsAStartupErrorThatNamesItAndTheHolder() throws Exception
    {
        final Path dir = directory.resolve("held");
        final Process holder = startChild("--dir", dir.toString());
        ServerMainTest.awaitPort(holder, log(holder));

        assertEquals(ServerMain.EXIT_FAILURE, run("--dir", dir.toString()));
        assertTrue(err().startsWith("agni-server: cannot start: the store directory " + dir.toRealPath() +
            " is already open (held by process " + holder.pid() + " since "), err());
        assertTrue(started.isEmpty());
    }

    @Test
    void saveOverTheWireWritesASnapshotThatAKilledServersDirectoryKeeps() throws Exception
    {
        final Path dir = directory.resolve("fast");
        final Process server = startChild("--dir", dir.toString(), "--durability", "fast");
        final int port = ServerMainTest.awaitPort(server, log(server));
        assertEquals("+OK", ServerMainTest.exchange(port, "SET saved yes\r\n"));
        assertEquals("+OK", ServerMainTest.exchange(port, "SAVE\r\n"));
        assertEquals("+OK", ServerMainTest.exchange(port, "SET unsaved no\r\n"));

        server.destroyForcibly(); // SIGKILL: no shutdown hook, no last snapshot
        assertTrue(server.waitFor(30, TimeUnit.SECONDS));

        try (OffHeapStore store = OffHeapStore.builder().shards(2).maxMemory(16L << 20).directory(dir)
            .durability(Durability.FAST).build())
        {
            assertArrayEquals(bytes("yes"), store.get(bytes("saved")));
            assertNull(store.get(bytes("unsaved")), "FAST keeps what the last SAVE held");
        }
    }

    private int run(final String... args)
    {
        final String[] all = new String[SMALL.length + args.length];
        System.arraycopy(SMALL, 0, all, 0, SMALL.length);
        System.arraycopy(args, 0, all, SMALL.length, args.length);
        return ServerMain.run(all, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), started::add);
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Process startChild(final String... args) throws IOException
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new ArrayList<>(List.of(
            java, "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), ServerMain.class.getName()));
        command.addAll(List.of(SMALL));
        command.addAll(List.of(args));
        final Path logFile = directory.resolve("server-" + processes.size() + ".log");
        final Process process = new ProcessBuilder(command)
            .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
        processes.add(process);
        return process;
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private Path log(final Process process)
    {
        return directory.resolve("server-" + processes.indexOf(process) + ".log");
    }
}
