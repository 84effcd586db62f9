package io.agni.protocol.command;

import io.agni.api.Checkpointing;
import io.agni.api.Durability;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static io.agni.protocol.command.Command.FLAG_ADMIN;

/**
 * {@code CONFIG GET}, {@code SET}, {@code REWRITE} and {@code HELP}, with Redis 7.2's replies and error texts.
 *
 * <h2>Parameters</h2>
 * agni has a fixed set of parameters whose values come from the store and the {@link ServerContext}; they are
 * reported, in this class's order, to {@code CONFIG GET} with one or more exact names or glob patterns, as
 * Redis 7 does (an exact name is echoed as the client spelled it). {@code requirepass} is not among them, so the
 * password is never revealed.
 *
 * <h2>Changing them</h2>
 * Nothing can be changed at runtime. {@code CONFIG SET} accepts only the current value of {@code save}
 * ({@code ""}), {@code appendonly} ({@code yes} when the store logs every write, else {@code no}) and
 * {@code maxmemory-policy} ({@code noeviction}), as no-ops, so that tools which switch persistence off before a
 * benchmark work on a server that has none; any other value is refused with the reason, and
 * the other parameters with Redis's immutable-config error. Every pair is checked before any reply, so a failed
 * {@code CONFIG SET} changes nothing. {@code CONFIG RESETSTAT} resets what Redis resets ({@link ServerStatistics}).
 */
final class ServerConfigCommand
{
    private static final List<Parameter> PARAMETERS = List.of(
        new Parameter("appendonly", ServerConfigCommand::appendOnly, true, c -> "argument must be '" + appendOnly(c) +
            "' (the store's durability is chosen when it is opened)"),
        new Parameter("bind", c -> c.server().bindAddress(), false, null),
        new Parameter(
            "client-output-buffer-limit", ServerConfigCommand::outputBufferLimit, false, null),
        new Parameter(
            "client-query-buffer-limit", c -> Long.toString(c.server().maxQueryBuffer()), false, null),
        new Parameter("cluster-enabled", c -> "no", false, null),
        new Parameter("databases", c -> "1", false, null),
        new Parameter("maxclients", c -> Integer.toString(c.server().maxClients()), false, null),
        new Parameter("maxmemory", c -> Long.toString(c.store().stats().budgetBytes()), false, null),
        new Parameter("maxmemory-clients", c -> Long.toString(c.server().maxClientMemory()), false, null),
        new Parameter("maxmemory-policy", c -> MemoryPolicy.name(c.store()), true,
            c -> "argument(s) must be one of the following: " + MemoryPolicy.name(c.store())),
        new Parameter("port", c -> Integer.toString(c.server().tcpPort()), false, null),
        new Parameter(
            "proto-max-bulk-len", c -> Integer.toString(c.server().protocolLimits().maxBulkLength()), false, null),
        new Parameter("save", c -> "", true, c -> "argument must be '' (agni has no save schedule: its store " +
            "checkpoints as its log grows, and on SAVE and BGSAVE)"),
        new Parameter("timeout", c -> Long.toString(c.server().idleTimeoutSeconds()), false, null));

    static final Subcommands SUBCOMMANDS = new Subcommands(
        "config",
        new Command("config|get", -3, FLAG_ADMIN, 0, 0, 0, ServerConfigCommand::configGet),
        new Command("config|set", -4, FLAG_ADMIN, 0, 0, 0, ServerConfigCommand::configSet),
        new Command("config|resetstat", 2, FLAG_ADMIN, 0, 0, 0, ServerConfigCommand::configResetStat),
        new Command("config|rewrite", 2, FLAG_ADMIN, 0, 0, 0, ServerConfigCommand::configRewrite),
        new Command("config|help", 2, 0, 0, 0, 0, ServerConfigCommand::configHelp));

    private ServerConfigCommand()
    {
    }

    static void configGet(final CommandContext context)
    {
        final RespArgs args = context.args();
        final List<String> names = new ArrayList<>();
        final List<Parameter> found = new ArrayList<>();
        for (int i = 2; i < args.count(); i++)
        {
            final String pattern = args.asString(i);
            if (!Glob.hasWildcards(pattern))
            {
                final Parameter parameter = parameter(pattern);
                if (parameter != null && !found.contains(parameter))
                {
                    names.add(pattern);
                    found.add(parameter);
                }
                continue;
            }
            for (final Parameter parameter : PARAMETERS)
            {
                if (!found.contains(parameter) && Glob.matches(pattern, parameter.name()))
                {
                    names.add(parameter.name());
                    found.add(parameter);
                }
            }
        }
        final List<String> values = new ArrayList<>(found.size());
        for (final Parameter parameter : found)
        {
            values.add(parameter.value().apply(context));
        }
        final RespWriter out = context.out();
        out.mapHeader(found.size());
        for (int i = 0; i < found.size(); i++)
        {
            out.bulk(names.get(i)).bulk(values.get(i));
        }
    }

    static void configSet(final CommandContext context)
    {
        final RespArgs args = context.args();
        if ((args.count() & 1) != 0)
        {
            context.syntaxError();
            return;
        }
        final Parameter[] parameters = new Parameter[(args.count() - 2) / 2];
        for (int i = 0; i < parameters.length; i++)
        {
            final String name = args.asString(2 + 2 * i);
            final Parameter parameter = parameter(name);
            if (parameter == null)
            {
                context.out().error("ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'");
                return;
            }
            if (!parameter.settable())
            {
                configSetFailed(context, name, "can't set immutable config");
                return;
            }
            if (Arrays.asList(parameters).contains(parameter))
            {
                configSetFailed(context, name, "duplicate parameter");
                return;
            }
            parameters[i] = parameter;
        }
        for (int i = 0; i < parameters.length; i++)
        {
            if (!args.asString(3 + 2 * i).equalsIgnoreCase(parameters[i].value().apply(context)))
            {
                configSetFailed(context, parameters[i].name(), parameters[i].valueError().apply(context));
                return;
            }
        }
        context.out().ok();
    }

    /**
     * Redis's format, every class with its hard limit, soft limit and soft seconds; agni has only normal clients
     * and only a hard limit for them, and reports Redis's defaults for the other classes.
     */
    private static String outputBufferLimit(final CommandContext context)
    {
        return "normal " + context.server().maxOutputBuffer() + " 0 0 slave 268435456 67108864 60 " +
            "pubsub 33554432 8388608 60";
    }

    private static void configSetFailed(final CommandContext context, final String name, final String reason)
    {
        context.out().error("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason);
    }

    /**
     * {@code CONFIG RESETSTAT}: the counters {@code INFO} reports start again from zero, those Redis resets
     * ({@link ServerStatistics#reset}).
     */
    static void configResetStat(final CommandContext context)
    {
        context.statistics().reset(context.store().stats(), context.server());
        context.out().ok();
    }

    static void configRewrite(final CommandContext context)
    {
        context.out().error("ERR The server is running without a config file");
    }

    static void configHelp(final CommandContext context)
    {
        SUBCOMMANDS.help(
            context,
            "GET <pattern>",
            "    Return parameters matching the glob-like <pattern> and their values.",
            "SET <directive> <value>",
            "    Set the configuration <directive> to <value>.",
            "RESETSTAT",
            "    Reset statistics reported by the INFO command.",
            "REWRITE",
            "    Rewrite the configuration file.");
    }

    private static Parameter parameter(final String name)
    {
        for (final Parameter parameter : PARAMETERS)
        {
            if (parameter.name().equalsIgnoreCase(name))
            {
                return parameter;
            }
        }
        return null;
    }

    /**
     * {@code yes} when every write is logged ({@code DURABLE}, {@code PARANOID}), as Redis's AOF.
     */
    private static String appendOnly(final CommandContext context)
    {
        final Checkpointing store = PersistenceCommands.onDisk(context.store());
        final Durability durability = store == null ? Durability.NONE : store.durability();
        return durability == Durability.DURABLE || durability == Durability.PARANOID ? "yes" : "no";
    }

    /**
     * A {@code CONFIG} parameter: its name, how to read its value, whether {@code CONFIG SET} accepts it (then only
     * with its current value, as a no-op), and the reason given for any other value.
     */
    private record Parameter(
        String name, Function<CommandContext, String> value, boolean settable,
        Function<CommandContext, String> valueError)
    {
    }

    /**
     * Redis's glob matching ({@code stringmatchlen} with {@code nocase}) for parameter and command names:
     * {@code *}, {@code ?}, {@code [abc]}, {@code [^a]}, {@code [a-z]} and {@code \x}, ignoring case. Backtracks
     * only to the last {@code *}, so a hostile pattern costs at most pattern length times name length.
     */
    static final class Glob
    {
        private Glob()
        {
        }

        static boolean hasWildcards(final String pattern)
        {
            return pattern.indexOf('*') >= 0 || pattern.indexOf('?') >= 0 || pattern.indexOf('[') >= 0;
        }

        static boolean matches(final String pattern, final String text)
        {
            int p = 0;
            int t = 0;
            int starP = -1;
            int starT = -1;
            while (t < text.length())
            {
                if (p < pattern.length() && pattern.charAt(p) == '*')
                {
                    starP = ++p;
                    starT = t;
                    continue;
                }
                final int next = p < pattern.length() ? matchOne(pattern, p, text.charAt(t)) : -1;
                if (next >= 0)
                {
                    p = next;
                    t++;
                }
                else if (starP >= 0)
                {
                    p = starP;
                    t = ++starT;
                }
                else
                {
                    return false;
                }
            }
            while (p < pattern.length() && pattern.charAt(p) == '*')
            {
                p++;
            }
            return p == pattern.length();
        }

        /**
         * @return the pattern index after the token at {@code p} if it matches {@code c}, else -1.
         */
        private static int matchOne(final String pattern, final int p, final char c)
        {
            final char token = pattern.charAt(p);
            if (token == '?')
            {
                return p + 1;
            }
            if (token == '[')
            {
                return matchClass(pattern, p + 1, lower(c));
            }
            if (token == '\\' && p + 1 < pattern.length())
            {
                return lower(pattern.charAt(p + 1)) == lower(c) ? p + 2 : -1;
            }
            return lower(token) == lower(c) ? p + 1 : -1;
        }

        private static int matchClass(final String pattern, final int start, final char c)
        {
            int p = start;
            final boolean negated = p < pattern.length() && pattern.charAt(p) == '^';
            if (negated)
            {
                p++;
            }
            boolean match = false;
            while (p < pattern.length() && pattern.charAt(p) != ']')
            {
                final char ch = pattern.charAt(p);
                if (ch == '\\' && p + 1 < pattern.length())
                {
                    match |= lower(pattern.charAt(p + 1)) == c;
                    p += 2;
                }
                else if (p + 2 < pattern.length() && pattern.charAt(p + 1) == '-')
                {
                    final char a = lower(ch);
                    final char b = lower(pattern.charAt(p + 2));
                    match |= c >= Math.min(a, b) && c <= Math.max(a, b);
                    p += 3;
                }
                else
                {
                    match |= lower(ch) == c;
                    p++;
                }
            }
            return match != negated ? Math.min(p + 1, pattern.length()) : -1;
        }

        private static char lower(final char c)
        {
            return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
        }
    }
}
