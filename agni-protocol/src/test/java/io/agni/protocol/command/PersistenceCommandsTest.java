package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.CheckpointStatus;
import io.agni.api.Checkpointing;
import io.agni.api.Durability;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import io.agni.store.OffHeapStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * SAVE, BGSAVE, LASTSAVE, INFO's persistence section and CONFIG GET appendonly, on stores with and without a
 * directory, and on a store whose checkpoint status the test sets.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PersistenceCommandsTest
{
    private static final String NOTHING_ON_DISK = "-" + PersistenceCommands.NOTHING_ON_DISK + "\r\n";
    private static final String IN_PROGRESS = "-ERR Background save already in progress\r\n";

    @TempDir
    Path directory;

    private final List<CommandHarness> harnesses = new ArrayList<>();

    @AfterEach
    void close()
    {
        harnesses.forEach(CommandHarness::close);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SAVE", "BGSAVE", "LASTSAVE"})
    void aStoreThatKeepsNothingOnDiskCannotSave(final String command)
    {
        assertEquals(NOTHING_ON_DISK, inMemory().reply(command));
    }

    @Test
    void saveTakesASnapshotThatACopyOfTheDirectoryOpensWith() throws IOException
    {
        final CommandHarness harness = onDisk(Durability.FAST);
        harness.reply("SET", "k", "v");
        final Path before = copyOfTheDirectory("before");
        harness.advanceMillis(61_000);

        assertEquals("+OK\r\n", harness.reply("SAVE"));

        assertEquals(":" + (CommandHarness.START_MILLIS + 61_000) / 1000 + "\r\n", harness.reply("LASTSAVE"));
        final Path after = copyOfTheDirectory("after");
        try (OffHeapStore copy = OffHeapStore.builder().shards(2).directory(after).durability(Durability.FAST).build())
        {
            assertArrayEquals(bytes("v"), copy.get(bytes("k")));
        }
        try (OffHeapStore copy = OffHeapStore.builder().shards(2).directory(before).durability(Durability.FAST).build())
        {
            assertNull(copy.get(bytes("k")), "nothing was saved before SAVE");
        }
    }

    @Test
    void lastsaveIsTheServersStartUntilTheDirectoryHasASnapshot()
    {
        final CommandHarness harness = onDisk(Durability.DURABLE);
        harness.advanceMillis(5_000);
        assertEquals(":" + CommandHarness.START_MILLIS / 1000 + "\r\n", harness.reply("LASTSAVE"));
        assertEquals("-ERR wrong number of arguments for 'lastsave' command\r\n", harness.reply("LASTSAVE", "x"));
        assertEquals("-ERR wrong number of arguments for 'save' command\r\n", harness.reply("SAVE", "x"));
    }

    @Test
    void bgsaveStartsACheckpointWhoseEndLastsaveShows()
    {
        final CommandHarness harness = onDisk(Durability.DURABLE);
        harness.reply("SET", "k", "v");
        harness.advanceMillis(7_000);

        assertEquals("+Background saving started\r\n", harness.reply("BGSAVE"));

        final String expected = ":" + (CommandHarness.START_MILLIS + 7_000) / 1000 + "\r\n";
        awaitReply(harness, expected, "LASTSAVE");
        awaitReply(harness, "rdb_bgsave_in_progress:0", "INFO", "persistence");
        assertTrue(info(harness).contains("\r\nrdb_last_bgsave_status:ok\r\n"), info(harness));
        assertEquals("+Background saving started\r\n", harness.reply("BGSAVE", "schedule"));
        awaitReply(harness, "rdb_bgsave_in_progress:0", "INFO", "persistence");
    }

    @Test
    void bgsaveTakesOnlyTheScheduleOption()
    {
        final CommandHarness harness = onDisk(Durability.DURABLE);
        assertEquals("-ERR syntax error\r\n", harness.reply("BGSAVE", "now"));
        assertEquals("-ERR syntax error\r\n", harness.reply("BGSAVE", "SCHEDULE", "x"));
    }

    @Test
    void saveAndBgsaveWhileACheckpointRunsGetRedisError()
    {
        final FakeCheckpoints checkpoints = new FakeCheckpoints(Durability.DURABLE);
        checkpoints.status = CheckpointStatus.builder().inProgress(true).currentDurationMillis(2_500).build();
        final CommandHarness harness = inMemory();
        final CommandProcessor processor = checkpoints.processor(harness);

        assertEquals(IN_PROGRESS, reply(processor, harness, "SAVE"));
        assertEquals(IN_PROGRESS, reply(processor, harness, "BGSAVE"));
        assertEquals(0, checkpoints.saves, "nothing was started");
        final String info = reply(processor, harness, "INFO", "persistence");
        assertTrue(info.contains("\r\nrdb_bgsave_in_progress:1\r\n"), info);
        assertTrue(info.contains("\r\nrdb_current_bgsave_time_sec:2\r\n"), info);
        assertTrue(info.contains("\r\naof_rewrite_in_progress:1\r\n"), info);
    }

    @Test
    void aFailedSaveRepliesAnErrorWithTheReasonAndInfoShowsTheFailures()
    {
        final FakeCheckpoints checkpoints = new FakeCheckpoints(Durability.PARANOID);
        checkpoints.failure = new java.io.UncheckedIOException("the checkpoint of d failed: No space left on device",
            new IOException("No space left on device"));
        checkpoints.status = CheckpointStatus.builder().lastCheckpointFailed(true).logFailed(true)
            .lastCheckpointMillis(CommandHarness.START_MILLIS - 60_000).lastDurationMillis(3_999)
            .failuresInARow(3).retryInMillis(2_500).build();
        final CommandHarness harness = inMemory();
        final CommandProcessor processor = checkpoints.processor(harness);

        assertEquals("-ERR the checkpoint of d failed: No space left on device\r\n",
            reply(processor, harness, "SAVE"));
        final String info = reply(processor, harness, "INFO", "persistence");
        assertTrue(info.contains("\r\nrdb_last_save_time:" + (CommandHarness.START_MILLIS - 60_000) / 1000 + "\r\n"),
            info);
        assertTrue(info.contains("\r\nrdb_last_bgsave_status:err\r\nrdb_last_bgsave_time_sec:3\r\n"), info);
        assertTrue(info.contains("\r\naof_last_write_status:err\r\nagni_checkpoint_failures_in_a_row:3\r\n" +
            "agni_checkpoint_retry_in_ms:2500\r\n"), info);
        assertTrue(info.contains("\r\nagni_durability:paranoid\r\n"), info);
    }

    @Test
    void infoPersistenceOfAStoreWithoutADirectoryHasNoSaveTimesOrChanges()
    {
        assertEquals("# Persistence\r\n" +
            "loading:0\r\n" +
            "async_loading:0\r\n" +
            "rdb_bgsave_in_progress:0\r\n" +
            "rdb_last_bgsave_status:ok\r\n" +
            "rdb_last_bgsave_time_sec:-1\r\n" +
            "rdb_current_bgsave_time_sec:-1\r\n" +
            "aof_enabled:0\r\n" +
            "aof_rewrite_in_progress:0\r\n" +
            "aof_last_write_status:ok\r\n" +
            "agni_checkpoint_failures_in_a_row:0\r\n" +
            "agni_checkpoint_retry_in_ms:-1\r\n" +
            "agni_durability:none\r\n", info(inMemory()));
    }

    @Test
    void infoPersistenceOfADurableStoreCountsTheChangesSinceTheLastSave()
    {
        final CommandHarness harness = onDisk(Durability.DURABLE);
        harness.reply("SET", "a", "1");
        harness.reply("MSET", "b", "2", "c", "3");
        harness.reply("DEL", "a");
        assertEquals("# Persistence\r\n" +
            "loading:0\r\n" +
            "async_loading:0\r\n" +
            "rdb_changes_since_last_save:3\r\n" +
            "rdb_bgsave_in_progress:0\r\n" +
            "rdb_last_save_time:" + CommandHarness.START_MILLIS / 1000 + "\r\n" +
            "rdb_last_bgsave_status:ok\r\n" +
            "rdb_last_bgsave_time_sec:-1\r\n" +
            "rdb_current_bgsave_time_sec:-1\r\n" +
            "aof_enabled:1\r\n" +
            "aof_rewrite_in_progress:0\r\n" +
            "aof_last_write_status:ok\r\n" +
            "agni_checkpoint_failures_in_a_row:0\r\n" +
            "agni_checkpoint_retry_in_ms:-1\r\n" +
            "agni_durability:durable\r\n", info(harness));

        harness.advanceMillis(3_000);
        assertEquals("+OK\r\n", harness.reply("SAVE"));
        final String saved = info(harness);
        assertTrue(saved.contains("\r\nrdb_changes_since_last_save:0\r\n"), saved);
        assertTrue(saved.contains("\r\nrdb_last_save_time:" + (CommandHarness.START_MILLIS + 3_000) / 1000 + "\r\n"),
            saved);
        assertTrue(saved.contains("\r\nrdb_last_bgsave_time_sec:0\r\n"), saved);
    }

    @Test
    void infoPersistenceOfAFastStoreHasNoChangeCountAndNoAof()
    {
        final String info = info(onDisk(Durability.FAST));
        assertFalse(info.contains("rdb_changes_since_last_save"), info);
        assertTrue(info.contains("\r\naof_enabled:0\r\n"), info);
        assertTrue(info.contains("\r\nagni_durability:fast\r\n"), info);
    }

    @Test
    void configGetAppendonlyIsYesWhenEveryWriteIsLoggedAndOnlyThatValueCanBeSet()
    {
        final CommandHarness harness = onDisk(Durability.PARANOID);
        assertEquals("*2\r\n$10\r\nappendonly\r\n$3\r\nyes\r\n", harness.reply("CONFIG", "GET", "appendonly"));
        assertEquals("+OK\r\n", harness.reply("CONFIG", "SET", "appendonly", "yes"));
        assertEquals("-ERR CONFIG SET failed (possibly related to argument 'appendonly') - argument must be 'yes' " +
            "(the store's durability is chosen when it is opened)\r\n",
            harness.reply("CONFIG", "SET", "appendonly", "no"));
        assertEquals("*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n",
            onDisk(Durability.FAST).reply("CONFIG", "GET", "appendonly"));
    }

    private CommandHarness inMemory()
    {
        final CommandHarness harness = new CommandHarness();
        harnesses.add(harness);
        return harness;
    }

    private CommandHarness onDisk(final Durability durability)
    {
        final Path dir = directory.resolve(durability.name() + harnesses.size());
        final CommandHarness harness = new CommandHarness(b -> b.directory(dir).durability(durability));
        harnesses.add(harness);
        return harness;
    }

    private Path copyOfTheDirectory(final String name) throws IOException
    {
        final CommandHarness harness = harnesses.get(harnesses.size() - 1);
        final Path source = directory.resolve(harness.store.durability().name() + (harnesses.size() - 1));
        final Path copy = directory.resolve(name);
        Files.createDirectories(copy);
        try (Stream<Path> files = Files.list(source))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                Files.copy(file, copy.resolve(file.getFileName()));
            }
        }
        return copy;
    }

    private static String info(final CommandHarness harness)
    {
        final String reply = harness.reply("INFO", "persistence");
        return reply.substring(reply.indexOf("\r\n") + 2, reply.length() - 2);
    }

    private static void awaitReply(final CommandHarness harness, final String expected, final String... command)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String reply = harness.reply(command);
        while (!reply.contains(expected))
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("no reply with " + expected + " to " + String.join(" ", command) + "; the last: " + reply);
            }
            Thread.yield();
            reply = harness.reply(command);
        }
    }

    private static String reply(final CommandProcessor processor, final CommandHarness harness,
        final String... command)
    {
        final RespWriter out = new RespWriter(256);
        processor.execute(harness.session, RespArgs.of(command), out);
        final byte[] bytes = new byte[out.position()];
        out.buffer().getBytes(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A {@link Checkpointing} whose status the test sets, in front of the harness's store for everything else.
     */
    private static final class FakeCheckpoints implements Checkpointing
    {
        private final Durability durability;
        CheckpointStatus status = CheckpointStatus.NONE;
        RuntimeException failure;
        int saves;

        FakeCheckpoints(final Durability durability)
        {
            this.durability = durability;
        }

        CommandProcessor processor(final CommandHarness harness)
        {
            final AgniStore store = (AgniStore)Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {AgniStore.class}, (proxy, method, args) ->
                {
                    if (method.getName().equals("checkpointing"))
                    {
                        return Optional.of(this);
                    }
                    try
                    {
                        return method.invoke(harness.store, args);
                    }
                    catch (final InvocationTargetException ex)
                    {
                        throw ex.getCause();
                    }
                });
            return new CommandProcessor(store, harness.server, harness.clock);
        }

        @Override
        public Durability durability()
        {
            return durability;
        }

        @Override
        public void checkpoint()
        {
            if (failure != null)
            {
                throw failure;
            }
            saves++;
        }

        @Override
        public boolean checkpointInBackground()
        {
            if (status.inProgress())
            {
                return false;
            }
            saves++;
            return true;
        }

        @Override
        public CheckpointStatus checkpointStatus()
        {
            return status;
        }
    }
}
