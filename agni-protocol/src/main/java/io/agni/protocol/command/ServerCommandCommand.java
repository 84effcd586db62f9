package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import static io.agni.protocol.command.Command.FLAG_ADMIN;
import static io.agni.protocol.command.Command.FLAG_DENY_OOM;
import static io.agni.protocol.command.Command.FLAG_FAST;
import static io.agni.protocol.command.Command.FLAG_NO_AUTH;
import static io.agni.protocol.command.Command.FLAG_NO_MULTI;
import static io.agni.protocol.command.Command.FLAG_READONLY;
import static io.agni.protocol.command.Command.FLAG_WRITE;

/**
 * {@code COMMAND} and its subcommands {@code COUNT}, {@code INFO}, {@code DOCS}, {@code LIST}, {@code GETKEYS} and
 * {@code HELP}: what redis-cli and cluster-aware clients ask to learn the command table.
 *
 * <h2>Replies</h2>
 * Each command is described with Redis 7's ten fields (name, arity, flags, first key, last key, key step, ACL
 * categories, tips, key specifications, subcommands), containers with their subcommands. agni's {@link Command}
 * carries less than Redis's table, so three fields are derived: the ACL categories from the flags only
 * ({@code @read}, {@code @write}, {@code @admin}, {@code @fast} or {@code @slow}, {@code @dangerous}), the one key
 * specification from the key range (flags {@code RW update} or {@code RO access}), and the tips are empty.
 * {@code COMMAND DOCS} is an empty map (an empty array in RESP2), which redis-cli accepts (it only loses its hints).
 * In RESP3 the flags, categories, tips and an empty list of subcommands are sets and each key specification a map,
 * as Redis 7.0 sends them.
 */
final class ServerCommandCommand
{
    private static final byte[] FILTERBY = bytes("FILTERBY");
    private static final byte[] MODULE = bytes("MODULE");
    private static final byte[] ACLCAT = bytes("ACLCAT");
    private static final byte[] PATTERN = bytes("PATTERN");

    static final Subcommands SUBCOMMANDS = new Subcommands(
        "command",
        new Command("command|count", 2, 0, 0, 0, 0, ServerCommandCommand::commandCount),
        new Command("command|info", -2, 0, 0, 0, 0, ServerCommandCommand::commandInfo),
        new Command("command|docs", -2, 0, 0, 0, 0, ServerCommandCommand::commandDocs),
        new Command("command|list", -2, 0, 0, 0, 0, ServerCommandCommand::commandList),
        new Command("command|getkeys", -3, 0, 0, 0, 0, ServerCommandCommand::commandGetKeys),
        new Command("command|help", 2, 0, 0, 0, 0, ServerCommandCommand::commandHelp));

    private ServerCommandCommand()
    {
    }

    static void command(final CommandContext context)
    {
        if (context.args().count() == 1)
        {
            allCommandsInfo(context);
            return;
        }
        SUBCOMMANDS.dispatch(context);
    }

    static void commandCount(final CommandContext context)
    {
        context.out().integer(context.table().commands().size());
    }

    static void commandInfo(final CommandContext context)
    {
        final RespArgs args = context.args();
        if (args.count() == 2)
        {
            allCommandsInfo(context);
            return;
        }
        context.out().arrayHeader(args.count() - 2);
        for (int i = 2; i < args.count(); i++)
        {
            final Command command = lookup(context.table(), args.asString(i));
            if (command == null)
            {
                context.out().nullBulk();
            }
            else
            {
                commandInfo(context.out(), command);
            }
        }
    }

    private static void allCommandsInfo(final CommandContext context)
    {
        final List<Command> commands = context.table().commands();
        context.out().arrayHeader(commands.size());
        for (final Command command : commands)
        {
            commandInfo(context.out(), command);
        }
    }

    static void commandDocs(final CommandContext context)
    {
        context.out().mapHeader(0);
    }

    /**
     * {@code COMMAND LIST [FILTERBY MODULE name | ACLCAT category | PATTERN pattern]}: full names, subcommands
     * included. agni has no modules, and its categories are the ones derived from flags.
     */
    static void commandList(final CommandContext context)
    {
        final RespArgs args = context.args();
        Predicate<Command> filter = command -> true;
        if (args.count() == 5 && args.equalsIgnoreCase(2, FILTERBY))
        {
            final String value = args.asString(4);
            if (args.equalsIgnoreCase(3, MODULE))
            {
                filter = command -> false;
            }
            else if (args.equalsIgnoreCase(3, ACLCAT))
            {
                filter = command -> categories(command).contains("@" + value.toLowerCase(Locale.ROOT));
            }
            else if (args.equalsIgnoreCase(3, PATTERN))
            {
                filter = command -> ServerConfigCommand.Glob.matches(value, command.name());
            }
            else
            {
                context.syntaxError();
                return;
            }
        }
        else if (args.count() != 2)
        {
            context.syntaxError();
            return;
        }
        final List<String> names = new ArrayList<>();
        for (final Command command : context.table().commands())
        {
            addNames(command, filter, names);
        }
        context.out().arrayHeader(names.size());
        for (final String name : names)
        {
            context.out().bulk(name);
        }
    }

    private static void addNames(final Command command, final Predicate<Command> filter, final List<String> names)
    {
        if (filter.test(command))
        {
            names.add(command.name());
        }
        final Subcommands subcommands = Subcommands.of(command.name());
        if (subcommands != null)
        {
            for (final Command subcommand : subcommands.commands())
            {
                addNames(subcommand, filter, names);
            }
        }
    }

    static void commandGetKeys(final CommandContext context)
    {
        final RespArgs args = context.args();
        final Command command = context.table().lookup(args.buffer(), args.offset(2), args.length(2));
        final int count = args.count() - 2;
        if (command == null)
        {
            context.out().error("ERR Invalid command specified");
            return;
        }
        if (command.firstKey() == 0)
        {
            context.out().error("ERR The command has no key arguments");
            return;
        }
        if (!command.acceptsArgumentCount(count))
        {
            context.out().error("ERR Invalid number of arguments specified for command");
            return;
        }
        final int first = command.firstKey();
        final int last = command.lastKey() < 0 ? count + command.lastKey() : command.lastKey();
        final int step = Math.max(1, command.keyStep());
        if (last >= count || last < first)
        {
            context.out().error("ERR Invalid arguments specified for command");
            return;
        }
        context.out().arrayHeader((last - first) / step + 1);
        for (int i = first; i <= last; i += step)
        {
            context.out().bulk(args.buffer(), args.offset(2 + i), args.length(2 + i));
        }
    }

    static void commandHelp(final CommandContext context)
    {
        SUBCOMMANDS.help(
            context,
            "(no subcommand)",
            "    Return details about all Redis commands.",
            "COUNT",
            "    Return the total number of commands in this Redis server.",
            "LIST",
            "    Return a list of all commands in this Redis server.",
            "INFO [<command-name> ...]",
            "    Return details about multiple Redis commands.",
            "    If no command names are given, documentation details for all",
            "    commands are returned.",
            "DOCS [<command-name> ...]",
            "    Return documentation details about multiple Redis commands.",
            "    If no command names are given, documentation details for all",
            "    commands are returned.",
            "GETKEYS <full-command>",
            "    Return the keys from a full Redis command.");
    }

    private static Command lookup(final CommandTable table, final String name)
    {
        final int bar = name.indexOf('|');
        if (bar < 0)
        {
            return table.lookup(name);
        }
        final Subcommands subcommands = Subcommands.of(name.substring(0, bar).toLowerCase(Locale.ROOT));
        return subcommands == null ? null : subcommands.lookup(name);
    }

    /**
     * One entry of COMMAND's reply, Redis 7's ten fields: name, arity, flags, first key, last key, key step, ACL
     * categories, tips, key specifications, subcommands.
     */
    private static void commandInfo(final RespWriter out, final Command command)
    {
        out.arrayHeader(10)
            .bulk(command.name())
            .integer(command.arity());
        final List<String> flags = flags(command);
        out.setHeader(flags.size());
        flags.forEach(out::simpleString);
        out.integer(command.firstKey()).integer(command.lastKey()).integer(command.keyStep());
        final List<String> categories = categories(command);
        out.setHeader(categories.size());
        categories.forEach(out::simpleString);
        out.setHeader(0);
        keySpecs(out, command);
        final Subcommands subcommands = Subcommands.of(command.name());
        if (subcommands == null)
        {
            out.setHeader(0);
            return;
        }
        out.arrayHeader(subcommands.commands().size());
        for (final Command subcommand : subcommands.commands())
        {
            commandInfo(out, subcommand);
        }
    }

    private static List<String> flags(final Command command)
    {
        final List<String> flags = new ArrayList<>(6);
        addIf(flags, command.hasFlag(FLAG_WRITE), "write");
        addIf(flags, command.hasFlag(FLAG_READONLY), "readonly");
        addIf(flags, command.hasFlag(FLAG_DENY_OOM), "denyoom");
        addIf(flags, command.hasFlag(FLAG_ADMIN), "admin");
        addIf(flags, command.hasFlag(FLAG_FAST), "fast");
        addIf(flags, command.hasFlag(FLAG_NO_AUTH), "no_auth");
        addIf(flags, command.hasFlag(FLAG_NO_MULTI), "no_multi");
        return flags;
    }

    /**
     * The ACL categories Redis derives from a command's flags; agni declares no others (such as {@code @string} or
     * {@code @connection}).
     */
    private static List<String> categories(final Command command)
    {
        final List<String> categories = new ArrayList<>(5);
        addIf(categories, command.hasFlag(FLAG_READONLY), "@read");
        addIf(categories, command.hasFlag(FLAG_WRITE), "@write");
        addIf(categories, command.hasFlag(FLAG_ADMIN), "@admin");
        categories.add(command.hasFlag(FLAG_FAST) ? "@fast" : "@slow");
        addIf(categories, command.hasFlag(FLAG_ADMIN), "@dangerous");
        return categories;
    }

    private static void addIf(final List<String> list, final boolean condition, final String value)
    {
        if (condition)
        {
            list.add(value);
        }
    }

    /**
     * One key specification built from the command's key range: begin at index {@code firstKey}, then a range whose
     * {@code lastkey} is relative to it ({@code -1}: the last argument).
     */
    private static void keySpecs(final RespWriter out, final Command command)
    {
        if (command.firstKey() == 0)
        {
            out.setHeader(0);
            return;
        }
        final boolean write = command.hasFlag(FLAG_WRITE);
        out.setHeader(1).mapHeader(3)
            .bulk("flags").setHeader(2).simpleString(write ? "RW" : "RO").simpleString(write ? "update" : "access")
            .bulk("begin_search").mapHeader(2)
            .bulk("type").bulk("index")
            .bulk("spec").mapHeader(1).bulk("index").integer(command.firstKey())
            .bulk("find_keys").mapHeader(2)
            .bulk("type").bulk("range")
            .bulk("spec").mapHeader(3)
            .bulk("lastkey").integer(command.lastKey() < 0 ? command.lastKey() : command.lastKey() - command.firstKey())
            .bulk("keystep").integer(command.keyStep())
            .bulk("limit").integer(0);
    }

    private static byte[] bytes(final String upperCaseAscii)
    {
        return upperCaseAscii.getBytes(StandardCharsets.US_ASCII);
    }
}
