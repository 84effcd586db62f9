package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The subcommands of a container command (CLIENT, CONFIG, COMMAND), found by argument 1 ignoring ASCII case and
 * checked against their own arity, as Redis 7 does: an unknown one gets
 * {@code ERR unknown subcommand 'x'. Try CLIENT HELP.}, a wrong count
 * {@code ERR wrong number of arguments for 'client|setname' command}. The processor has already checked the
 * container's own arity and the client's authentication.
 */
final class Subcommands
{
    private static final int ECHOED_NAME_LIMIT = 128;

    private final String container;
    private final List<Command> commands;
    private final byte[][] upperCaseNames;

    Subcommands(final String container, final Command... commands)
    {
        this.container = container;
        this.commands = List.of(commands);
        this.upperCaseNames = new byte[commands.length][];
        for (int i = 0; i < commands.length; i++)
        {
            final String name = commands[i].name();
            upperCaseNames[i] = name.substring(name.indexOf('|') + 1).toUpperCase(Locale.ROOT)
                .getBytes(StandardCharsets.US_ASCII);
        }
    }

    /**
     * The subcommands of a container command, for COMMAND's replies.
     *
     * @param name a top-level command's name.
     * @return its subcommands, {@code null} when it is not a container.
     */
    static Subcommands of(final String name)
    {
        switch (name)
        {
            case "client":
                return ConnectionClientCommand.SUBCOMMANDS;
            case "config":
                return ServerConfigCommand.SUBCOMMANDS;
            case "command":
                return ServerCommandCommand.SUBCOMMANDS;
            default:
                return null;
        }
    }

    /**
     * @return the subcommands, in the order COMMAND reports them.
     */
    List<Command> commands()
    {
        return commands;
    }

    /**
     * @param fullName a full name such as {@code "client|list"}, in any case.
     * @return the subcommand, or {@code null}.
     */
    Command lookup(final String fullName)
    {
        for (final Command command : commands)
        {
            if (command.name().equalsIgnoreCase(fullName))
            {
                return command;
            }
        }
        return null;
    }

    /**
     * Executes the subcommand named by argument 1, or replies Redis's error.
     *
     * @param context a command with at least two arguments.
     */
    void dispatch(final CommandContext context)
    {
        final RespArgs args = context.args();
        for (int i = 0; i < upperCaseNames.length; i++)
        {
            if (args.equalsIgnoreCase(1, upperCaseNames[i]))
            {
                final Command command = commands.get(i);
                if (!command.acceptsArgumentCount(args.count()))
                {
                    context.countRejected(command);
                    context.out().error("ERR wrong number of arguments for '" + command.name() + "' command");
                    return;
                }
                context.countAs(command);
                context.session().subcommandExecuted(command.name());
                command.handler().execute(context);
                return;
            }
        }
        context.countRejected(null);
        final byte[] name = args.copy(1);
        context.out().error("ERR unknown subcommand '" +
            new String(name, 0, Math.min(name.length, ECHOED_NAME_LIMIT), StandardCharsets.UTF_8) +
            "'. Try " + container.toUpperCase(Locale.ROOT) + " HELP.");
    }

    /**
     * Replies Redis's help text: a header, the lines, and the HELP entry, as status replies.
     *
     * @param context the command.
     * @param lines   the subcommands' lines.
     */
    void help(final CommandContext context, final String... lines)
    {
        final RespWriter out = context.out();
        out.arrayHeader(lines.length + 3)
            .simpleString(container.toUpperCase(Locale.ROOT) +
                " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        for (final String line : lines)
        {
            out.simpleString(line);
        }
        out.simpleString("HELP").simpleString("    Prints this help.");
    }
}
