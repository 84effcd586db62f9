package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.protocol.BufferMemory;
import io.agni.protocol.GrowableDirectBuffer;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;

/**
 * Everything a {@link CommandHandler} works with: the arguments, the store, the session, the reply writer, the
 * clock, scratch space, and helpers for Redis's argument parsing and common error replies.
 *
 * <h2>Lifetime</h2>
 * One per {@link CommandProcessor}, re-pointed at each command; valid only inside {@link CommandHandler#execute}.
 * Not thread-safe.
 *
 * <h2>Memory</h2>
 * The scratch buffer starts at {@link #SCRATCH_CAPACITY} bytes, grows as a handler writes into it, and is given
 * back to that size after any command that grew it past {@link #SCRATCH_RETAINED} ({@link #afterCommand()}), so
 * one large command does not pin its memory for the life of the processor. Its allocations are reported to the
 * processor's {@link BufferMemory}.
 */
public final class CommandContext
{
    static final String SYNTAX_ERROR = "ERR syntax error";
    static final String NOT_AN_INTEGER = "ERR value is not an integer or out of range";

    /**
     * The scratch buffer's capacity to start with and to return to.
     */
    static final int SCRATCH_CAPACITY = 4096;

    /**
     * A scratch buffer larger than this after a command is returned to {@link #SCRATCH_CAPACITY}.
     */
    static final int SCRATCH_RETAINED = 64 * 1024;

    private final AgniStore store;
    private final ServerContext server;
    private final CommandTable table;
    private final EpochClock clock;
    private final GrowableDirectBuffer scratch;
    private int[] argOffsets = new int[32];
    private int[] argLengths = new int[32];
    private int[] valueLengths = new int[32];
    private Session session;
    private RespArgs args;
    private RespWriter out;
    private Command command;
    private Outcome outcome = Outcome.CONTINUE;
    private long longValue;
    TransactionRunner transactions;
    ServerStatistics statistics;
    /** The command the statistics count this call under: the command, its subcommand, or null for none. */
    Command countedCommand;
    /** Whether the counted command was refused before it ran (a subcommand's wrong arity). */
    boolean countedRejected;

    CommandContext(
        final AgniStore store, final ServerContext server, final CommandTable table, final EpochClock clock,
        final BufferMemory scratchMemory)
    {
        this.store = store;
        this.server = server;
        this.table = table;
        this.clock = clock;
        this.scratch =
            new GrowableDirectBuffer(SCRATCH_CAPACITY, RespWriter.UNLIMITED, scratchMemory, "scratch buffer");
    }

    void prepare(final Command command, final Session session, final RespArgs args, final RespWriter out)
    {
        this.command = command;
        this.countedCommand = command;
        this.countedRejected = false;
        this.session = session;
        this.args = args;
        this.out = out;
        this.outcome = Outcome.CONTINUE;
    }

    /**
     * Switches the connection to a RESP version: its session records it and its reply writer encodes in it from the
     * next reply on ({@code HELLO}, {@code RESET}).
     *
     * @param version 2 or 3.
     */
    void protocol(final int version)
    {
        out.protocol(version);
        session.protocol(version);
    }

    /**
     * Counts this call as a call of a subcommand (Redis 7 keeps {@code config|get} apart from {@code config}).
     *
     * @param subcommand the subcommand that runs.
     */
    void countAs(final Command subcommand)
    {
        countedCommand = subcommand;
    }

    /**
     * Counts this call as a subcommand refused before it ran, or, with {@code null}, not at all (an unknown
     * subcommand, which Redis counts only as an error reply).
     *
     * @param subcommand the subcommand, or {@code null}.
     */
    void countRejected(final Command subcommand)
    {
        countedCommand = subcommand;
        countedRejected = true;
    }

    /**
     * Returns the statistics of the server, or of this processor when the server keeps none.
     *
     * @return the statistics {@code INFO} reports.
     */
    ServerStatistics statistics()
    {
        return statistics;
    }

    /**
     * Returns the store commands act on.
     *
     * @return the store commands act on.
     */
    public AgniStore store()
    {
        return store;
    }

    /**
     * Returns the hosting server.
     *
     * @return the hosting server.
     */
    public ServerContext server()
    {
        return server;
    }

    /**
     * Returns the table of every command (for {@code COMMAND}).
     *
     * @return the table of every command (for {@code COMMAND}).
     */
    public CommandTable table()
    {
        return table;
    }

    /**
     * Returns the server's clock: what {@code TIME}, {@code INFO} and {@code CLIENT LIST} read, and what the
     * overflow checks of relative expiry times ({@code EX}, {@code PX}, {@code EXPIRE}) add to. A server's is its
     * store's own clock ({@link AgniStore#currentTimeMillis()}) unless it was given another. The relative times
     * themselves go to the store as durations, which the store adds to its own clock.
     *
     * @return the server's clock.
     */
    public EpochClock clock()
    {
        return clock;
    }

    /**
     * Returns the client's session.
     *
     * @return the client's session.
     */
    public Session session()
    {
        return session;
    }

    /**
     * Returns the command being executed.
     *
     * @return the command being executed.
     */
    public Command command()
    {
        return command;
    }

    /**
     * Returns the arguments, the command name at index 0; views valid only during this command.
     *
     * @return the arguments, the command name at index 0; views valid only during this command.
     */
    public RespArgs args()
    {
        return args;
    }

    /**
     * Returns the reply writer.
     *
     * @return the reply writer.
     */
    public RespWriter out()
    {
        return out;
    }

    /**
     * Returns a scratch buffer this context owns, e.g. for copying a value out of the store before encoding it; its
     * contents do not outlive the command, and its memory is given back after a command that grew it large.
     *
     * @return a scratch buffer this context owns, e.g. for copying a value out of the store before encoding it;
     * its contents do not outlive the command, and its memory is given back after a command that grew it large.
     */
    public MutableDirectBuffer scratch()
    {
        return scratch;
    }

    /**
     * Returns the buffer holding the arguments.
     *
     * @return the buffer holding the arguments.
     */
    public DirectBuffer argBuffer()
    {
        return args.buffer();
    }

    /**
     * Returns where the argument starts in {@link #argBuffer()}.
     *
     * @param index an argument index.
     * @return where the argument starts in {@link #argBuffer()}.
     */
    public int argOffset(final int index)
    {
        return args.offset(index);
    }

    /**
     * Returns the argument's length.
     *
     * @param index an argument index.
     * @return the argument's length.
     */
    public int argLength(final int index)
    {
        return args.length(index);
    }

    /**
     * Where the arguments from {@code first} on start, in an array this context reuses (valid until the next call).
     *
     * @param first the first argument index.
     * @return an array whose entry {@code i} is the offset of argument {@code first + i}.
     */
    public int[] argOffsetsFrom(final int first)
    {
        final int n = args.count() - first;
        if (argOffsets.length < n)
        {
            argOffsets = new int[Math.max(n, 2 * argOffsets.length)];
        }
        for (int i = 0; i < n; i++)
        {
            argOffsets[i] = args.offset(first + i);
        }
        return argOffsets;
    }

    /**
     * The lengths of the arguments from {@code first} on, in an array this context reuses (valid until the next
     * call).
     *
     * @param first the first argument index.
     * @return an array whose entry {@code i} is the length of argument {@code first + i}.
     */
    public int[] argLengthsFrom(final int first)
    {
        final int n = args.count() - first;
        if (argLengths.length < n)
        {
            argLengths = new int[Math.max(n, 2 * argLengths.length)];
        }
        for (int i = 0; i < n; i++)
        {
            argLengths[i] = args.length(first + i);
        }
        return argLengths;
    }

    /**
     * An array this context reuses for the value lengths a multi-key read returns (MGET's {@code getAll}), valid
     * until the next call.
     *
     * @param count how many entries are needed.
     * @return an array of at least {@code count} entries, with unspecified contents.
     */
    public int[] valueLengths(final int count)
    {
        if (valueLengths.length < count)
        {
            valueLengths = new int[Math.max(count, 2 * valueLengths.length)];
        }
        return valueLengths;
    }

    /**
     * Asks for the connection to be closed once the replies so far are written (QUIT).
     */
    public void closeAfterReply()
    {
        outcome = Outcome.CLOSE;
    }

    /**
     * Asks for the connection to be closed at once: its memory account refused a growth ({@link Outcome#EVICT}).
     */
    void evict()
    {
        outcome = Outcome.EVICT;
    }

    /**
     * Returns what runs {@code EXEC} for this context's processor.
     *
     * @return the processor's transaction runner.
     */
    TransactionRunner transactions()
    {
        return transactions;
    }

    /**
     * Sets the value {@link #parsedLong()} returns, for a parse that is not one argument's.
     *
     * @param value the value.
     */
    void parsedLong(final long value)
    {
        longValue = value;
    }

    Outcome outcome()
    {
        return outcome;
    }

    /**
     * Gives back the scratch buffer's memory if the command grew it past {@link #SCRATCH_RETAINED}.
     */
    void afterCommand()
    {
        if (scratch.capacity() > SCRATCH_RETAINED)
        {
            scratch.shrink(SCRATCH_CAPACITY, 0);
        }
    }

    /**
     * @return the scratch buffer's capacity now, in bytes.
     */
    int scratchCapacity()
    {
        return scratch.capacity();
    }

    /**
     * Frees the scratch buffer; the context must not be used again.
     */
    void free()
    {
        scratch.free();
    }

    /**
     * Parses an argument as a signed 64-bit decimal integer with Redis's rules ({@code string2ll}); on success the
     * value is {@link #parsedLong()}. Allocates nothing.
     *
     * @param index an argument index.
     * @return whether the argument is such an integer.
     */
    public boolean parseLong(final int index)
    {
        final long value = Numbers.parseLong(args.buffer(), args.offset(index), args.length(index));
        if (value == Numbers.INVALID && !Numbers.isLongMinValue(args.buffer(), args.offset(index), args.length(index)))
        {
            return false;
        }
        longValue = value;
        return true;
    }

    /**
     * Returns the value of the last successful {@link #parseLong(int)}.
     *
     * @return the value of the last successful {@link #parseLong(int)}.
     */
    public long parsedLong()
    {
        return longValue;
    }

    /**
     * Replies {@code -ERR syntax error}.
     */
    public void syntaxError()
    {
        out.error(SYNTAX_ERROR);
    }

    /**
     * Replies {@code -ERR value is not an integer or out of range}.
     */
    public void notAnInteger()
    {
        out.error(NOT_AN_INTEGER);
    }
}
