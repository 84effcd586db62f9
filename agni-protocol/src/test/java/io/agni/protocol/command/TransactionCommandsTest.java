package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.api.Durability;
import io.agni.protocol.BufferMemory;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MULTI, EXEC, DISCARD and RESET over a {@link CommandProcessor} (docs/protocol.md, "Transactions"): Redis's replies
 * and error texts, queuing errors that make EXEC abort, runtime errors that are elements of EXEC's array, a
 * transaction of plain writes applied all or nothing, the queue's copies and limits, and CLIENT LIST's view.
 */
class TransactionCommandsTest
{
    private static final String OK = "+OK\r\n";
    private static final String QUEUED = "+QUEUED\r\n";
    private static final String NIL = "$-1\r\n";
    private static final String EXECABORT = "-EXECABORT Transaction discarded because of previous errors.\r\n";
    private static final String NOT_AN_INTEGER = "-ERR value is not an integer or out of range\r\n";

    @TempDir
    Path directory;

    private final List<CommandHarness> harnesses = new ArrayList<>();
    private final CommandHarness h = harness(new CommandHarness());
    private Session other;

    @AfterEach
    void close()
    {
        harnesses.forEach(CommandHarness::close);
    }

    @Test
    void execRunsTheQueuedCommandsInOrderAndRepliesWithTheirReplies()
    {
        assertEquals(OK, h.reply("MULTI"));
        assertEquals(QUEUED, h.reply("SET", "a", "1"));
        assertEquals(QUEUED, h.reply("INCR", "counter"));
        assertEquals(QUEUED, h.reply("APPEND", "a", "23"));
        assertEquals(QUEUED, h.reply("GET", "a"));
        assertEquals(NIL, otherReply("GET", "a"), "nothing runs before EXEC");

        assertEquals("*4\r\n+OK\r\n:1\r\n:3\r\n$3\r\n123\r\n", h.reply("EXEC"));

        assertEquals("$3\r\n123\r\n", h.reply("GET", "a"), "EXEC ended the transaction");
    }

    @Test
    void anEmptyTransactionRepliesAnEmptyArray()
    {
        h.reply("MULTI");
        assertEquals("*0\r\n", h.reply("EXEC"));
    }

    @Test
    void execAndDiscardWithoutMultiAreRefused()
    {
        assertEquals("-ERR EXEC without MULTI\r\n", h.reply("EXEC"));
        assertEquals("-ERR DISCARD without MULTI\r\n", h.reply("DISCARD"));
    }

    @Test
    void anExecRefusedForItsArgumentsOrAuthenticationDiscardsTheTransactionAsRedisDoes()
    {
        h.reply("MULTI");
        h.reply("SET", "a", "1");
        assertEquals("-EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command\r\n",
            h.reply("EXEC", "extra"));
        assertEquals("-ERR EXEC without MULTI\r\n", h.reply("EXEC"));
        assertEquals("$-1\r\n", h.reply("GET", "a"));
        assertEquals("-EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command\r\n",
            h.reply("EXEC", "extra"));
        final CommandHarness locked = harness(new CommandHarness("secret", 1 << 30));
        assertEquals("-EXECABORT Transaction discarded because of: NOAUTH Authentication required.\r\n",
            locked.reply("EXEC"));
    }

    @Test
    void aNestedMultiIsRefusedWithoutAbortingTheTransaction()
    {
        h.reply("MULTI");
        assertEquals("-ERR MULTI calls can not be nested\r\n", h.reply("MULTI"));
        h.reply("SET", "a", "1");

        assertEquals("*1\r\n+OK\r\n", h.reply("EXEC"));
    }

    @Test
    void discardDropsTheQueuedCommands()
    {
        h.reply("MULTI");
        h.reply("SET", "a", "1");

        assertEquals(OK, h.reply("DISCARD"));

        assertEquals(NIL, h.reply("GET", "a"));
        assertEquals("-ERR EXEC without MULTI\r\n", h.reply("EXEC"));
    }

    static Stream<List<String>> queuingErrors()
    {
        return Stream.of(
            List.of("NOSUCHCOMMAND", "x"),
            List.of("GET"),
            List.of("SET", "k"),
            List.of("SAVE"),
            List.of("WATCH", "a"));
    }

    @ParameterizedTest
    @MethodSource("queuingErrors")
    void aCommandRefusedWhileQueuingMakesExecAbort(final List<String> refused)
    {
        h.reply("MULTI");
        h.reply("SET", "a", "1");
        final String error = h.reply(refused.toArray(new String[0]));
        assertTrue(error.startsWith("-ERR "), error);
        assertEquals(QUEUED, h.reply("SET", "b", "2"), "later commands are still answered QUEUED");

        assertEquals(EXECABORT, h.reply("EXEC"));

        assertEquals(NIL, h.reply("GET", "a"));
        assertEquals(NIL, h.reply("GET", "b"));
        assertEquals("-ERR EXEC without MULTI\r\n", h.reply("EXEC"), "the aborted transaction is over");
    }

    @Test
    void saveIsNotAllowedInsideATransaction()
    {
        h.reply("MULTI");
        assertEquals("-ERR Command not allowed inside a transaction\r\n", h.reply("SAVE"));
    }

    @Test
    void aCommandThatFailsWhenItRunsIsAnErrorInTheArrayAndTheOthersRun()
    {
        h.reply("SET", "text", "not a number");
        h.reply("MULTI");
        h.reply("SET", "a", "1");
        h.reply("INCR", "text");
        h.reply("SET", "b", "2");
        h.reply("SET", "c", "3", "EX", "0");

        assertEquals("*4\r\n+OK\r\n" + NOT_AN_INTEGER + "+OK\r\n-ERR invalid expire time in 'set' command\r\n",
            h.reply("EXEC"));

        assertEquals("$1\r\n1\r\n", h.reply("GET", "a"));
        assertEquals("$1\r\n2\r\n", h.reply("GET", "b"));
    }

    static Stream<List<List<String>>> writeOnlyTransactions()
    {
        return Stream.of(
            List.of(
                List.of("SET", "k1", "v"),
                List.of("SET", "k2", "v", "PX", "100000"),
                List.of("DEL", "k1", "k1", "absent"),
                List.of("PEXPIRE", "k2", "500000"),
                List.of("PERSIST", "k2"),
                List.of("PERSIST", "k2"),
                List.of("EXPIRE", "absent", "10"),
                List.of("UNLINK", "k2")),
            List.of(
                List.of("MSET", "a", "1", "b", "2"),
                List.of("SETEX", "c", "100", "3"),
                List.of("PSETEX", "d", "100000", "4"),
                List.of("SET", "a", "new", "KEEPTTL"),
                List.of("EXPIREAT", "a", String.valueOf(CommandHarness.START_MILLIS / 1000 + 100)),
                List.of("SET", "a", "newer", "KEEPTTL"),
                List.of("PEXPIREAT", "b", "1"),
                List.of("DEL", "b", "c"),
                List.of("SET", "e", "5", "EXAT", String.valueOf(CommandHarness.START_MILLIS / 1000 + 50)),
                List.of("SET", "f", "6", "PXAT", String.valueOf(CommandHarness.START_MILLIS - 1)),
                List.of("PEXPIRE", "d", "-1")),
            List.of(
                List.of("SET", "x", "1", "EX", "abc"),
                List.of("SET", "y", "2")),
            List.of(
                List.of("SET", "x", "1"),
                List.of("GET", "x"),
                List.of("EXISTS", "x", "y", "x"),
                List.of("DEL", "x")));
    }

    /**
     * A transaction replies, and leaves, what its commands reply and leave one by one, whether it goes to the store as
     * one batch (plain writes: the first two) or command by command (a command whose arguments fail, reads).
     */
    @ParameterizedTest
    @MethodSource("writeOnlyTransactions")
    void aTransactionRepliesWhatItsCommandsReplyOneByOne(final List<List<String>> commands)
    {
        final CommandHarness alone = harness(new CommandHarness());
        final StringBuilder expected = new StringBuilder("*").append(commands.size()).append("\r\n");
        h.reply("MULTI");
        for (final List<String> command : commands)
        {
            expected.append(alone.reply(command.toArray(new String[0])));
            assertEquals(QUEUED, h.reply(command.toArray(new String[0])));
        }

        assertEquals(expected.toString(), h.reply("EXEC"));

        for (final String key : List.of("a", "b", "c", "d", "e", "f", "k1", "k2", "x", "y"))
        {
            assertEquals(alone.reply("GET", key), h.reply("GET", key), key);
            assertEquals(alone.reply("PTTL", key), h.reply("PTTL", key), key);
        }
    }

    @Test
    void aTransactionOfPlainWritesThatTheBudgetRefusesChangesNothing()
    {
        final CommandHarness small = harness(new CommandHarness(null, 1 << 20));
        small.reply("SET", "kept", "old");
        small.reply("MULTI");
        small.reply("SET", "kept", "new");
        small.reply("DEL", "kept");
        small.reply("SET", "a", "1");
        for (int i = 0; i < 3; i++)
        {
            small.reply("SET", "large" + i, "x".repeat(400_000));
        }

        assertEquals("-EXECABORT Transaction discarded because of: OOM command not allowed when used memory > " +
            "'maxmemory'.\r\n", small.reply("EXEC"));

        assertEquals("$3\r\nold\r\n", small.reply("GET", "kept"));
        assertEquals(NIL, small.reply("GET", "a"));
        assertEquals(":0\r\n", small.reply("EXISTS", "large0", "large1", "large2"));
        assertEquals("-ERR EXEC without MULTI\r\n", small.reply("EXEC"));
    }

    @Test
    void aTransactionOfPlainWritesWithAValueOverTheLimitChangesNothing()
    {
        final CommandHarness limited = harness(new CommandHarness(b -> b.maxValueLength(100)));
        limited.reply("MULTI");
        limited.reply("SET", "a", "1");
        limited.reply("SET", "b", "x".repeat(101));

        assertEquals("-EXECABORT Transaction discarded because of: ERR value too large: length=101, limit=100\r\n",
            limited.reply("EXEC"));

        assertEquals(NIL, limited.reply("GET", "a"));
    }

    @Test
    void aRefusedCommandOfAMixedTransactionFailsAloneAsInRedis()
    {
        final CommandHarness small = harness(new CommandHarness(null, 1 << 20));
        small.reply("MULTI");
        small.reply("SET", "a", "1");
        small.reply("INCR", "n");
        for (int i = 0; i < 3; i++)
        {
            small.reply("SET", "large" + i, "x".repeat(400_000));
        }

        final String reply = small.reply("EXEC");

        assertTrue(reply.startsWith("*5\r\n+OK\r\n:1\r\n+OK\r\n"), reply);
        assertTrue(reply.endsWith("-OOM command not allowed when used memory > 'maxmemory'.\r\n"), reply);
        assertEquals("$1\r\n1\r\n", small.reply("GET", "a"), "the commands before the refusal stay");
    }

    @Test
    void queuedArgumentsAreCopiesOfTheReadBuffer()
    {
        final UnsafeBuffer read = new UnsafeBuffer(new byte[16]);
        read.putStringWithoutLengthAscii(0, "SETkeyvalue");
        final RespArgs args = new RespArgs();
        args.wrap(read);
        args.add(0, 3);
        args.add(3, 3);
        args.add(6, 5);
        h.reply("MULTI");

        assertEquals(QUEUED, h.reply(h.session, args));
        read.putStringWithoutLengthAscii(0, "GETzzzXXXXX");

        assertEquals("*1\r\n+OK\r\n", h.reply("EXEC"));
        assertEquals("$5\r\nvalue\r\n", h.reply("GET", "key"));
    }

    @Test
    void resetEndsTheTransactionForgetsTheNameAndTheAuthentication()
    {
        final CommandHarness locked = harness(new CommandHarness("secret", 1 << 30));
        locked.reply("AUTH", "secret");
        locked.reply("CLIENT", "SETNAME", "worker");
        locked.reply("MULTI");
        locked.reply("SET", "a", "1");

        assertEquals("+RESET\r\n", locked.reply("RESET"));

        assertEquals("-NOAUTH Authentication required.\r\n", locked.reply("GET", "a"));
        locked.reply("AUTH", "secret");
        assertEquals(NIL, locked.reply("GET", "a"));
        assertEquals(NIL, locked.reply("CLIENT", "GETNAME"));
        assertEquals("-ERR EXEC without MULTI\r\n", locked.reply("EXEC"));
    }

    @Test
    void quitInsideATransactionClosesTheConnection()
    {
        h.reply("MULTI");

        assertEquals(OK, h.reply("QUIT"));
        assertEquals(Outcome.CLOSE, h.lastOutcome);
    }

    @Test
    void clientListShowsAClientInsideATransaction()
    {
        final Session other = h.newSession(2);
        assertTrue(clientLine(other).contains(" flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf="), clientLine(other));
        h.reply("MULTI");
        h.reply("SET", "a", "1");
        h.reply("SET", "b", "2");

        final String line = clientLine(other);
        assertTrue(line.contains(" flags=x db=0 sub=0 psub=0 ssub=0 multi=2 qbuf="), line);
        assertTrue(line.contains(" multi-mem=" + TransactionQueue.INITIAL_CAPACITY + " "), line);

        h.reply("EXEC");
        assertTrue(clientLine(other).contains(" flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf="), clientLine(other));
    }

    @Test
    void aTransactionPastTheQueueLimitAborts()
    {
        h.session.transactionLimits(BufferMemory.UNCOUNTED, 2048);
        h.reply("MULTI");
        assertEquals(QUEUED, h.reply("SET", "a", "x".repeat(1000)));

        assertEquals("-ERR transaction too large: the queued commands would pass limit=2048 bytes\r\n",
            h.reply("SET", "b", "x".repeat(1100)));

        assertEquals(EXECABORT, h.reply("EXEC"));
        assertEquals(NIL, h.reply("GET", "a"));
    }

    @Test
    void aQueueGrowthTheClientsMemoryRefusesEvictsTheClient()
    {
        h.session.transactionLimits(new BufferMemory()
        {
            @Override
            public boolean tryReserve(final long bytes)
            {
                return false;
            }

            @Override
            public void reserve(final long bytes)
            {
            }

            @Override
            public void release(final long bytes)
            {
            }
        }, 1 << 20);
        h.reply("MULTI");
        assertEquals(QUEUED, h.reply("SET", "a", "small"));

        assertEquals("", h.reply("SET", "b", "x".repeat(2000)));
        assertEquals(Outcome.EVICT, h.lastOutcome);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aTransactionIsOneLogRecord(final boolean plainWrites)
    {
        final CommandHarness durable = harness(new CommandHarness(
            b -> b.directory(directory).durability(Durability.DURABLE)));
        durable.reply("SET", "counter", "1");
        final long before = durable.store.checkpointStatus().changesSinceCheckpoint();
        durable.reply("MULTI");
        durable.reply("SET", "a", "1");
        durable.reply(plainWrites ? "DEL" : "INCR", "counter");
        durable.reply("SET", "b", "2", "PX", "100000");

        durable.reply("EXEC");

        assertEquals(before + 1, durable.store.checkpointStatus().changesSinceCheckpoint());
    }

    @Test
    void onAStoreWithoutTransactionsExecRunsTheCommandsOneByOne()
    {
        final AgniStore plain = (AgniStore)Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {AgniStore.class}, (proxy, method, args) ->
            {
                if (method.getReturnType() == Optional.class)
                {
                    // no capability: the store has no transactions
                    return Optional.empty();
                }
                try
                {
                    return method.invoke(h.store, args);
                }
                catch (final InvocationTargetException ex)
                {
                    throw ex.getCause();
                }
            });
        final CommandProcessor processor = new CommandProcessor(plain, h.server, h.clock);
        final RespWriter out = new RespWriter(256);
        for (final String[] command : List.of(new String[] {"MULTI"}, new String[] {"SET", "a", "1"},
            new String[] {"INCR", "a"}, new String[] {"DEL", "a", "b"}))
        {
            processor.execute(h.session, RespArgs.of(command), out);
        }
        out.reset();

        processor.execute(h.session, RespArgs.of("EXEC"), out);

        final byte[] reply = new byte[out.position()];
        out.buffer().getBytes(0, reply);
        assertEquals("*3\r\n+OK\r\n:2\r\n:1\r\n", new String(reply, StandardCharsets.ISO_8859_1));
        processor.free();
    }

    private String clientLine(final Session asking)
    {
        final String list = h.reply(asking, RespArgs.of("CLIENT", "LIST"));
        for (final String line : list.split("\n"))
        {
            if (line.contains("id=" + h.session.id() + " "))
            {
                return line;
            }
        }
        throw new AssertionError("no line for session " + h.session.id() + ": " + list);
    }

    private String otherReply(final String... args)
    {
        if (other == null)
        {
            other = h.newSession(7);
        }
        return h.reply(other, RespArgs.of(args));
    }

    private CommandHarness harness(final CommandHarness harness)
    {
        harnesses.add(harness);
        return harness;
    }
}
