package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The commands agni serves, looked up by the bytes of a command's name, ignoring ASCII case, without allocating.
 *
 * <h2>Lookup</h2>
 * An open-addressing table (linear probing, a power-of-two capacity at most half full) keyed by a case-folded hash
 * of the name; a probe compares the candidate's upper-case name with the argument's bytes.
 *
 * <h2>Threads</h2>
 * Immutable once built; shared by every connection.
 */
public final class CommandTable
{
    private final Command[] slots;
    private final byte[][] names;
    private final int mask;
    private final List<Command> commands;
    private final List<String> statsNames;
    private final Command[] statsKeys;
    private final int[] statsIds;
    private final int statsMask;

    private CommandTable(final List<Command> commands)
    {
        int capacity = 16;
        while (capacity < commands.size() * 2)
        {
            capacity <<= 1;
        }
        slots = new Command[capacity];
        names = new byte[capacity][];
        mask = capacity - 1;
        for (final Command command : commands)
        {
            final byte[] name = command.upperCaseName();
            int slot = hash(name, 0, name.length) & mask;
            while (slots[slot] != null)
            {
                if (slots[slot].name().equals(command.name()))
                {
                    throw new IllegalArgumentException("command registered twice: " + command.name());
                }
                slot = (slot + 1) & mask;
            }
            slots[slot] = command;
            names[slot] = name;
        }
        final List<Command> sorted = new ArrayList<>(commands);
        sorted.sort((a, b) -> a.name().compareTo(b.name()));
        this.commands = Collections.unmodifiableList(sorted);

        final List<Command> counted = new ArrayList<>(sorted);
        for (final Command command : sorted)
        {
            final Subcommands subcommands = Subcommands.of(command.name());
            if (subcommands != null)
            {
                counted.addAll(subcommands.commands());
            }
        }
        int statsCapacity = 16;
        while (statsCapacity < counted.size() * 2)
        {
            statsCapacity <<= 1;
        }
        statsKeys = new Command[statsCapacity];
        statsIds = new int[statsCapacity];
        statsMask = statsCapacity - 1;
        final List<String> names = new ArrayList<>(counted.size());
        for (final Command command : counted)
        {
            int slot = System.identityHashCode(command) & statsMask;
            while (statsKeys[slot] != null)
            {
                slot = (slot + 1) & statsMask;
            }
            statsKeys[slot] = command;
            statsIds[slot] = names.size();
            names.add(command.name());
        }
        this.statsNames = Collections.unmodifiableList(names);
    }

    /**
     * The table of every command agni serves.
     *
     * @return a new table.
     */
    public static CommandTable standard()
    {
        final Builder builder = new Builder();
        ConnectionCommands.register(builder);
        ServerCommands.register(builder);
        PersistenceCommands.register(builder);
        StringCommands.register(builder);
        KeyspaceCommands.register(builder);
        TransactionCommands.register(builder);
        return builder.build();
    }

    /**
     * The command named by argument 0.
     *
     * @param args a command's arguments, at least one.
     * @return the command, or {@code null} when there is none of that name.
     */
    public Command lookup(final RespArgs args)
    {
        return lookup(args.buffer(), args.offset(0), args.length(0));
    }

    /**
     * The command of a name, ignoring ASCII case.
     *
     * @param buffer holds the name.
     * @param offset where it starts.
     * @param length its length in bytes.
     * @return the command, or {@code null} when there is none of that name.
     */
    public Command lookup(final DirectBuffer buffer, final int offset, final int length)
    {
        int slot = hash(buffer, offset, length) & mask;
        Command command;
        while ((command = slots[slot]) != null)
        {
            if (nameMatches(names[slot], buffer, offset, length))
            {
                return command;
            }
            slot = (slot + 1) & mask;
        }
        return null;
    }

    /**
     * The command of a name, ignoring case: for tools and tests.
     *
     * @param name the name.
     * @return the command, or {@code null}.
     */
    public Command lookup(final String name)
    {
        final RespArgs args = RespArgs.of(name.toLowerCase(Locale.ROOT));
        return lookup(args);
    }

    /**
     * Returns every command, sorted by name.
     *
     * @return every command, sorted by name.
     */
    public List<Command> commands()
    {
        return commands;
    }

    /**
     * Returns the names statistics are kept under, indexed by {@link #statsId}: every command sorted by name, then
     * the subcommands of the containers among them ({@code config|get}), as Redis 7 keeps a subcommand's statistics
     * apart from its container's. Two tables of the same commands have the same list.
     *
     * @return the names statistics are kept under.
     */
    public List<String> statsNames()
    {
        return statsNames;
    }

    /**
     * The index of a command or subcommand of this table in {@link #statsNames()}: an identity lookup that
     * allocates nothing.
     *
     * @param command a command of this table, or a subcommand of one of its containers.
     * @return its index, or -1 when it is not one.
     */
    public int statsId(final Command command)
    {
        int slot = System.identityHashCode(command) & statsMask;
        Command candidate;
        while ((candidate = statsKeys[slot]) != null)
        {
            if (candidate == command)
            {
                return statsIds[slot];
            }
            slot = (slot + 1) & statsMask;
        }
        return -1;
    }

    private static boolean nameMatches(final byte[] upperCase, final DirectBuffer buffer, final int offset, final int length)
    {
        if (upperCase.length != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (upperCase(buffer.getByte(offset + i)) != upperCase[i])
            {
                return false;
            }
        }
        return true;
    }

    private static int hash(final DirectBuffer buffer, final int offset, final int length)
    {
        int h = length;
        for (int i = 0; i < length; i++)
        {
            h = 31 * h + upperCase(buffer.getByte(offset + i));
        }
        return h ^ (h >>> 16);
    }

    private static int hash(final byte[] upperCase, final int offset, final int length)
    {
        int h = length;
        for (int i = offset; i < offset + length; i++)
        {
            h = 31 * h + upperCase[i];
        }
        return h ^ (h >>> 16);
    }

    private static int upperCase(final byte b)
    {
        return b >= 'a' && b <= 'z' ? b - ('a' - 'A') : b;
    }

    /**
     * Collects commands into a table.
     */
    public static final class Builder
    {
        private final List<Command> commands = new ArrayList<>();

        /**
         * An empty builder.
         */
        public Builder()
        {
        }

        /**
         * Adds a command.
         *
         * @param command the command.
         * @return this builder.
         */
        public Builder add(final Command command)
        {
            commands.add(command);
            return this;
        }

        /**
         * Adds a command.
         *
         * @param name     the name in lower case.
         * @param arity    Redis's arity (see {@link Command#arity()}).
         * @param flags    the {@code Command.FLAG_} bits.
         * @param firstKey index of the first key, 0 for none.
         * @param lastKey  index of the last key, -1 for the last argument, 0 for none.
         * @param keyStep  step between keys, 0 for none.
         * @param handler  what executes it.
         * @return this builder.
         */
        public Builder add(
            final String name,
            final int arity,
            final int flags,
            final int firstKey,
            final int lastKey,
            final int keyStep,
            final CommandHandler handler)
        {
            return add(new Command(name, arity, flags, firstKey, lastKey, keyStep, handler));
        }

        /**
         * Returns the table.
         *
         * @return the table.
         * @throws IllegalArgumentException if a name was registered twice.
         */
        public CommandTable build()
        {
            return new CommandTable(commands);
        }
    }
}
