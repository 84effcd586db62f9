package io.agni.protocol.command;

import io.agni.api.Checkpointing;
import io.agni.api.Evicting;
import io.agni.api.EvictionPolicy;
import io.agni.api.Durability;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
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
 * {@code CONFIG SET} changes {@code maxmemory-policy} (Redis's eight names; the lru and lfu ones map to agni's one
 * algorithm, and {@code CONFIG GET} answers with the name set) and {@code maxmemory} (the store's budget, with
 * Redis's units; Redis's {@code 0}, no limit, is the largest budget the store can have) of a store that is
 * {@link Evicting}; a store that is not accepts only their current values (and {@code 0}, which is its budget). It
 * accepts the current value of {@code save} ({@code ""}) and {@code appendonly} ({@code yes} when the store logs
 * every write, else {@code no}) as no-ops, so that tools which switch persistence off before a benchmark work on a
 * server that has none; any other value is refused with the reason, and the other parameters with Redis's
 * immutable-config error. Every pair is checked before any is applied, and if applying one fails (a budget the
 * store refuses) those applied before it are put back, so a failed {@code CONFIG SET} changes nothing.
 * {@code CONFIG RESETSTAT} resets what Redis resets ({@link ServerStatistics}).
 */
final class ServerConfigCommand
{
    private static final List<Parameter> PARAMETERS = List.of(
        new Parameter("appendonly", ServerConfigCommand::appendOnly, new OnlyCurrentValue(
            ServerConfigCommand::appendOnly, c -> "(the store's durability is chosen when it is opened)")),
        new Parameter("bind", c -> c.server().bindAddress(), null),
        new Parameter(
            "client-output-buffer-limit", ServerConfigCommand::outputBufferLimit, null),
        new Parameter(
            "client-query-buffer-limit", c -> Long.toString(c.server().maxQueryBuffer()), null),
        new Parameter("cluster-enabled", c -> "no", null),
        new Parameter("databases", c -> "1", null),
        new Parameter("maxclients", c -> Integer.toString(c.server().maxClients()), null),
        new Parameter("maxmemory", c -> Long.toString(c.store().stats().budgetBytes()), new MaxMemorySetter()),
        new Parameter("maxmemory-clients", c -> Long.toString(c.server().maxClientMemory()), null),
        new Parameter(
            "maxmemory-policy", c -> MemoryPolicy.name(c.store(), c.server()), new MaxMemoryPolicySetter()),
        new Parameter("port", c -> Integer.toString(c.server().tcpPort()), null),
        new Parameter(
            "proto-max-bulk-len", c -> Integer.toString(c.server().protocolLimits().maxBulkLength()), null),
        new Parameter("save", c -> "", new OnlyCurrentValue(c -> "", c -> "(agni has no save schedule: its store " +
            "checkpoints as its log grows, and on SAVE and BGSAVE)")),
        new Parameter("timeout", c -> Long.toString(c.server().idleTimeoutSeconds()), null));

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
        final String[] values = new String[parameters.length];
        for (int i = 0; i < parameters.length; i++)
        {
            final String name = args.asString(2 + 2 * i);
            final Parameter parameter = parameter(name);
            if (parameter == null)
            {
                context.out().error("ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'");
                return;
            }
            if (parameter.setter() == null)
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
            values[i] = args.asString(3 + 2 * i);
        }
        for (int i = 0; i < parameters.length; i++)
        {
            final String reason = parameters[i].setter().check(context, values[i]);
            if (reason != null)
            {
                configSetFailed(context, parameters[i].name(), reason);
                return;
            }
        }
        // As Redis: apply in order, and if one fails, put back the values of those applied before it.
        final String[] previous = new String[parameters.length];
        for (int i = 0; i < parameters.length; i++)
        {
            previous[i] = parameters[i].value().apply(context);
            final String reason = parameters[i].setter().apply(context, values[i]);
            if (reason != null)
            {
                for (int j = i - 1; j >= 0; j--)
                {
                    parameters[j].setter().apply(context, previous[j]);
                }
                configSetFailed(context, parameters[i].name(), reason);
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
     * A {@code CONFIG} parameter: its name, how to read its value, and how {@code CONFIG SET} changes it
     * ({@code null}: it cannot, Redis's immutable-config error).
     */
    private record Parameter(String name, Function<CommandContext, String> value, Setter setter)
    {
    }

    /**
     * How {@code CONFIG SET} changes one parameter: every value is checked before any is applied.
     */
    private interface Setter
    {
        /**
         * @return the reason the value is refused (the text after Redis's {@code CONFIG SET failed ... - }), or
         *         {@code null} if it can be applied.
         */
        String check(CommandContext context, String value);

        /**
         * Applies a value {@link #check} accepted, or puts back the one read before.
         *
         * @return the reason it could not be applied (nothing changed), or {@code null}.
         */
        String apply(CommandContext context, String value);
    }

    /**
     * A parameter agni cannot change whose current value {@code CONFIG SET} accepts as a no-op, so that tools which
     * set it (to switch persistence off before a benchmark, say) work; any other value is refused with the reason.
     */
    private record OnlyCurrentValue(Function<CommandContext, String> current, Function<CommandContext, String> why)
        implements Setter
    {
        @Override
        public String check(final CommandContext context, final String value)
        {
            final String now = current.apply(context);
            return value.equalsIgnoreCase(now) ? null : "argument must be '" + now + "' " + why.apply(context);
        }

        @Override
        public String apply(final CommandContext context, final String value)
        {
            return null;
        }
    }

    /**
     * {@code maxmemory-policy}: one of Redis's eight names, which the store's policy is set to
     * ({@link MemoryPolicy}) and the server remembers, so that {@code CONFIG GET} answers with the name set. A store
     * that cannot evict accepts {@code noeviction} only.
     */
    private static final class MaxMemoryPolicySetter implements Setter
    {
        @Override
        public String check(final CommandContext context, final String value)
        {
            final EvictionPolicy policy = MemoryPolicy.policyOf(value);
            if (policy == null)
            {
                return MemoryPolicy.unknownNameReason();
            }
            if (context.store().evicting().isEmpty() && policy != EvictionPolicy.NO_EVICTION)
            {
                return "argument must be '" + MemoryPolicy.NOEVICTION + "' (this store cannot evict: it refuses " +
                    "writes at its budget)";
            }
            return null;
        }

        @Override
        public String apply(final CommandContext context, final String value)
        {
            final Evicting evicting = context.store().evicting().orElse(null);
            if (evicting != null)
            {
                evicting.evictionPolicy(MemoryPolicy.policyOf(value));
                context.server().memoryPolicyName(value.toLowerCase(Locale.ROOT));
            }
            return null;
        }
    }

    /**
     * {@code maxmemory}: a memory value as Redis reads one (digits, then {@code b}, {@code k}, {@code kb},
     * {@code m}, {@code mb}, {@code g} or {@code gb}, in any case), which becomes the store's budget
     * ({@link Evicting#maxMemory(long)}). agni's store always has a budget, so Redis's {@code 0} (and {@code ""}),
     * no limit, which operators and tools send, is the largest budget the store can have: the JVM's direct-memory
     * limit, which the store checks every budget against, less the clients' share of it
     * ({@link ServerContext#maxClientMemory()}), so that a full store cannot starve the clients of buffers (the
     * standalone server's default budget). {@code CONFIG GET} then answers with that budget in bytes, not
     * {@code 0}: the store evicts or refuses writes there, which monitoring should see. A store whose budget cannot
     * change accepts its current budget only, and {@code 0}, the largest it can have.
     */
    private static final class MaxMemorySetter implements Setter
    {
        @Override
        public String check(final CommandContext context, final String value)
        {
            final long bytes = Numbers.memoryValue(value);
            if (bytes < 0)
            {
                return "argument must be a memory value";
            }
            if (context.store().evicting().isEmpty())
            {
                final long budget = context.store().stats().budgetBytes();
                return bytes == budget || bytes == 0 ? null : "argument must be '" + budget + "' (this store's " +
                    "budget cannot change while it runs)";
            }
            return null;
        }

        @Override
        public String apply(final CommandContext context, final String value)
        {
            final Evicting evicting = context.store().evicting().orElse(null);
            if (evicting == null)
            {
                return null;
            }
            final long bytes = Numbers.memoryValue(value);
            try
            {
                evicting.maxMemory(bytes == 0 ? largestBudget(context.server()) : bytes);
                return null;
            }
            catch (final IllegalArgumentException ex)
            {
                return "argument out of range: " + ex.getMessage();
            }
        }

        /**
         * Redis's {@code 0}: the JVM's direct-memory limit less {@code maxmemory-clients} (all of it when the clients
         * have no limit), 0 if the clients' limit takes it all, which the store then refuses as too small.
         */
        private static long largestBudget(final ServerContext server)
        {
            return Math.max(0, DirectMemoryLimit.bytes() - server.maxClientMemory());
        }
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
