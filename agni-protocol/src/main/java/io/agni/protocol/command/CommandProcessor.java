package io.agni.protocol.command;

import io.agni.api.AgniException;
import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.IntegerOverflowException;
import io.agni.api.InvalidCursorException;
import io.agni.api.NotAnIntegerException;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreReadOnlyException;
import io.agni.protocol.BufferMemory;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.concurrent.EpochClock;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Executes decoded commands on an {@link AgniStore}: looks the command up, checks its arity and the client's
 * authentication, runs its handler, and turns the store's expected failures into Redis's error replies.
 *
 * <h2>Errors</h2>
 * Redis's texts: {@code ERR unknown command 'x', with args beginning with: 'a' }, {@code ERR wrong number of
 * arguments for 'get' command}, {@code NOAUTH Authentication required.}, {@code OOM command not allowed when used
 * memory > 'maxmemory'.}, {@code ERR value is not an integer or out of range}, {@code ERR increment or decrement
 * would overflow}, {@code ERR invalid cursor}. A {@link StoreReadOnlyException} replies {@code MISCONF} and its
 * message (Redis's code for writes stopped because it cannot persist), a {@link StoreClosedException}
 * {@code ERR the store is closed}. Every other {@link AgniException} (the other refusals, a remote store's
 * connection failure) replies {@code ERR} and its message. Error replies allocate; the success path of the common
 * commands does not.
 *
 * <h2>Transactions</h2>
 * While the session's transaction is open ({@code MULTI}), a command that passes the checks above is queued (a copy)
 * and answered {@code +QUEUED}, except MULTI, EXEC, DISCARD, QUIT and RESET ({@link Command#FLAG_NOT_QUEUED}), which
 * run at once; one that fails them, or is {@link Command#FLAG_NO_MULTI}, gets its error and dooms the transaction.
 * {@code EXEC} runs the queue ({@link TransactionRunner}; docs/protocol.md, "Transactions").
 *
 * <h2>Threads</h2>
 * Not thread-safe: one per event-loop thread, shared by that thread's connections. The {@link CommandTable} may be
 * shared by all.
 */
public final class CommandProcessor
{
    static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    static final String NOAUTH = "NOAUTH Authentication required.";
    static final String OVERFLOW = "ERR increment or decrement would overflow";
    static final String CLOSED = "ERR the store is closed";
    static final String READ_ONLY_CODE = "MISCONF ";

    private static final int UNKNOWN_ARGS_LIMIT = 128;

    private final CommandTable table;
    private final ServerContext server;
    private final EpochClock clock;
    private final CommandContext context;
    private final ServerStatistics statistics;
    private final CommandRecorder recorder;

    /**
     * A processor over the standard command table.
     *
     * @param store  the store commands act on.
     * @param server the hosting server.
     * @param clock  the server's clock ({@link CommandContext#clock()}); usually the store's,
     *               {@code store::currentTimeMillis}.
     */
    public CommandProcessor(final AgniStore store, final ServerContext server, final EpochClock clock)
    {
        this(store, server, clock, CommandTable.standard());
    }

    /**
     * A processor of the given commands, whose scratch buffer is not counted in any account.
     *
     * @param store  the store commands act on.
     * @param server the hosting server.
     * @param clock  the server's clock ({@link CommandContext#clock()}); usually the store's,
     *               {@code store::currentTimeMillis}.
     * @param table  the commands served.
     */
    public CommandProcessor(
        final AgniStore store, final ServerContext server, final EpochClock clock, final CommandTable table)
    {
        this(store, server, clock, table, BufferMemory.UNCOUNTED);
    }

    /**
     * A processor of the given commands, whose scratch buffer reports its allocations to an account.
     *
     * @param store         the store commands act on.
     * @param server        the hosting server.
     * @param clock         the server's clock ({@link CommandContext#clock()}); usually the store's,
     *                      {@code store::currentTimeMillis}.
     * @param table         the commands served.
     * @param scratchMemory the account the scratch buffer's allocations are reported to (a server's client memory).
     */
    public CommandProcessor(
        final AgniStore store, final ServerContext server, final EpochClock clock, final CommandTable table,
        final BufferMemory scratchMemory)
    {
        this.table = Objects.requireNonNull(table, "table");
        this.server = Objects.requireNonNull(server, "server");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.context = new CommandContext(
            Objects.requireNonNull(store, "store"), server, table, clock,
            Objects.requireNonNull(scratchMemory, "scratchMemory"));
        this.context.transactions = new TransactionRunner(this, context, table);
        final ServerStatistics shared = server.statistics();
        final CommandRecorder sharedRecorder = shared == null ? null : shared.recorder(table);
        this.statistics = sharedRecorder != null ? shared : new ServerStatistics();
        this.recorder = sharedRecorder != null ? sharedRecorder : statistics.recorder(table);
        this.context.statistics = statistics;
    }

    /**
     * Returns the commands served.
     *
     * @return the commands served.
     */
    public CommandTable table()
    {
        return table;
    }

    /**
     * Executes one command and writes its one reply; reads the clock for the session's last-command time.
     *
     * @param session the client's session.
     * @param args    the command, its name first; a command with no arguments is ignored.
     * @param out     where the reply goes.
     * @return whether to close the connection after the reply.
     */
    public Outcome execute(final Session session, final RespArgs args, final RespWriter out)
    {
        return execute(session, args, out, clock.time());
    }

    /**
     * Executes one command and writes its one reply, with the time its caller read from the server's clock once for
     * a batch of commands (all those of one read from a connection, as Redis stamps a client's last interaction
     * once per read): what {@code CLIENT LIST} shows as the session's last-command time. Commands that need the
     * time (TIME, the overflow check of relative expiry times) still read the clock themselves.
     *
     * @param session   the client's session.
     * @param args      the command, its name first; a command with no arguments is ignored.
     * @param out       where the reply goes.
     * @param nowMillis the server clock's time, epoch milliseconds, read for this batch.
     * @return whether to close the connection after the reply.
     */
    public Outcome execute(final Session session, final RespArgs args, final RespWriter out, final long nowMillis)
    {
        if (args.count() == 0)
        {
            return Outcome.CONTINUE;
        }
        final Command command = table.lookup(args);
        final TransactionQueue transaction = session.transaction();
        if (command == null)
        {
            transaction.flag();
            final int mark = out.position();
            unknownCommand(args, out);
            countError(out, mark);
            return Outcome.CONTINUE;
        }
        if (!command.acceptsArgumentCount(args.count()))
        {
            reject(command, transaction, out, "ERR ", "wrong number of arguments for '" + command.name() + "' command");
            return Outcome.CONTINUE;
        }
        if (!session.authenticated() && !command.hasFlag(Command.FLAG_NO_AUTH) && server.authenticationRequired())
        {
            reject(command, transaction, out, "", NOAUTH);
            return Outcome.CONTINUE;
        }

        session.commandExecuted(command.name(), nowMillis);
        if (transaction.isOpen() && !command.hasFlag(Command.FLAG_NOT_QUEUED))
        {
            return queue(command, transaction, args, out, out.position());
        }
        try
        {
            run(command, session, args, out);
        }
        finally
        {
            context.afterCommand();
        }
        return context.outcome();
    }

    /**
     * Refuses a command before it runs, as Redis's {@code rejectCommand} does: the error dooms an open transaction;
     * a refused {@code EXEC} instead discards the transaction and replies {@code EXECABORT Transaction discarded
     * because of: } and the error without its {@code ERR} (also outside a transaction). Counted as a rejected call of
     * the command and an error reply (INFO's commandstats and errorstats).
     */
    private void reject(
        final Command command, final TransactionQueue transaction, final RespWriter out, final String code,
        final String error)
    {
        final int mark = out.position();
        if (command.name().equals("exec"))
        {
            transaction.end();
            out.error(TransactionRunner.EXECABORT_BECAUSE + error);
        }
        else
        {
            transaction.flag();
            out.error(code.isEmpty() ? error : code + error);
        }
        countError(out, mark);
        final int id = table.statsId(command);
        if (id >= 0)
        {
            recorder.rejected(id);
        }
    }

    /**
     * Inside {@code MULTI}: queues the command (a copy) and replies {@code +QUEUED}, or refuses it, which dooms the
     * transaction, as Redis's {@code processCommand} does.
     */
    private Outcome queue(
        final Command command, final TransactionQueue transaction, final RespArgs args, final RespWriter out,
        final int mark)
    {
        if (command.hasFlag(Command.FLAG_NO_MULTI))
        {
            reject(command, transaction, out, "", TransactionRunner.NOT_IN_TRANSACTION);
            return Outcome.CONTINUE;
        }
        final int queued = transaction.add(args);
        if (queued == TransactionQueue.QUEUED)
        {
            out.raw(TransactionRunner.QUEUED_REPLY);
            return Outcome.CONTINUE;
        }
        if (queued == TransactionQueue.REFUSED_BY_MEMORY)
        {
            return Outcome.EVICT;
        }
        out.error(transaction.tooLargeError());
        countError(out, mark);
        return Outcome.CONTINUE;
    }

    private void countError(final RespWriter out, final int mark)
    {
        if (out.position() > mark && out.buffer().getByte(mark) == '-')
        {
            statistics.error(out.buffer(), mark, out.position());
        }
    }

    /**
     * Counts a command that an {@code EXEC} wrote as part of one batch: a call that took its share of the batch's
     * time. Only this processor's thread.
     *
     * @param command the command.
     * @param nanos   its share of the batch's time.
     */
    void countBatched(final Command command, final long nanos)
    {
        final int id = table.statsId(command);
        if (id >= 0)
        {
            recorder.called(id, nanos, false);
        }
    }

    /**
     * Runs one command of a transaction that {@code EXEC} executes, as {@link #execute} runs a command (an expected
     * failure of the store is its error reply), its arguments already checked when it was queued.
     *
     * @param command the command.
     * @param session the client's session.
     * @param args    its arguments, a view of the transaction's queue.
     * @param out     where the reply goes.
     */
    void executeQueued(final Command command, final Session session, final RespArgs args, final RespWriter out)
    {
        run(command, session, args, out);
    }

    /**
     * Runs a command's handler; an expected failure of the store replaces what it wrote with its error reply. Then
     * counts the call (under its subcommand's name when it had one): its time, and whether it replied an error.
     * The two reads of {@link System#nanoTime()} are the only cost of the statistics beyond a few array writes
     * (docs/operations.md, "Monitoring").
     */
    private void run(final Command command, final Session session, final RespArgs args, final RespWriter out)
    {
        context.prepare(command, session, args, out);
        final int mark = out.position();
        final long start = System.nanoTime();
        try
        {
            command.handler().execute(context);
        }
        catch (final AgniException ex)
        {
            out.position(mark);
            out.error(errorReply(ex));
        }
        final long nanos = System.nanoTime() - start;
        Command counted = command;
        boolean rejected = false;
        if (context.command() == command)
        {
            // no command of a transaction ran inside this one (EXEC's own prepare() would have replaced it)
            counted = context.countedCommand;
            rejected = context.countedRejected;
        }
        final boolean failed = out.position() > mark && out.buffer().getByte(mark) == '-';
        if (failed)
        {
            statistics.error(out.buffer(), mark, out.position());
        }
        final int id = counted == null ? -1 : table.statsId(counted);
        if (id >= 0)
        {
            if (rejected)
            {
                recorder.rejected(id);
            }
            else
            {
                recorder.called(id, nanos, failed);
            }
        }
    }

    /**
     * Frees the processor's own buffers; it must not be used again. Only the thread that uses it.
     */
    public void free()
    {
        context.free();
    }

    /**
     * @return the capacity of the command context's scratch buffer now, for tests.
     */
    int scratchCapacity()
    {
        return context.scratchCapacity();
    }

    static String errorReply(final AgniException ex)
    {
        if (ex instanceof CapacityExceededException)
        {
            return OOM;
        }
        if (ex instanceof NotAnIntegerException)
        {
            return CommandContext.NOT_AN_INTEGER;
        }
        if (ex instanceof IntegerOverflowException)
        {
            return OVERFLOW;
        }
        if (ex instanceof InvalidCursorException)
        {
            return KeyspaceCommands.INVALID_CURSOR;
        }
        if (ex instanceof StoreReadOnlyException)
        {
            return READ_ONLY_CODE + ex.getMessage();
        }
        if (ex instanceof StoreClosedException)
        {
            return CLOSED;
        }
        return "ERR " + ex.getMessage();
    }

    private static void unknownCommand(final RespArgs args, final RespWriter out)
    {
        final StringBuilder message = new StringBuilder("ERR unknown command '")
            .append(truncate(args.asString(0), UNKNOWN_ARGS_LIMIT))
            .append("', with args beginning with: ");
        final int start = message.length();
        for (int i = 1; i < args.count() && message.length() - start < UNKNOWN_ARGS_LIMIT; i++)
        {
            final int room = UNKNOWN_ARGS_LIMIT - (message.length() - start);
            message.append('\'').append(truncate(args.asString(i), room)).append("' ");
        }
        out.error(message);
    }

    private static String truncate(final String text, final int maxBytes)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= maxBytes ? text : new String(bytes, 0, maxBytes, StandardCharsets.UTF_8);
    }
}
