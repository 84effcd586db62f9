package io.agni.net.launcher;

import io.agni.api.Durability;
import io.agni.net.AgniServerBuilder;
import io.agni.store.OffHeapStoreBuilder;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The standalone server's command line, parsed: every flag's value checked for form (a number is a number, a size
 * a size, {@code yes|no} one of those) and left {@code null} when not given, so the builders' defaults apply. Ranges
 * are the builders' to check (see {@link StandaloneServer#open}).
 * <p>
 * Flags are {@code --name value} or {@code --name=value}; each may be given once.
 */
final class LauncherOptions
{
    static final String PORT = "--port";
    static final String BIND = "--bind";
    static final String THREADS = "--threads";
    static final String SHARDS = "--shards";
    static final String MAX_MEMORY = "--max-memory";
    /**
     * Redis's spelling of {@link #MAX_MEMORY}: the same option.
     */
    static final String MAXMEMORY = "--maxmemory";
    static final String MAXMEMORY_POLICY = "--maxmemory-policy";
    static final String REQUIREPASS = "--requirepass";
    static final String PROTECTED_MODE = "--protected-mode";
    static final String MAX_CLIENTS = "--max-clients";
    static final String TIMEOUT = "--timeout";
    static final String MAX_QUERY_BUFFER = "--max-query-buffer";
    static final String MAX_OUTPUT_BUFFER = "--max-output-buffer";
    static final String MAX_CLIENT_MEMORY = "--max-client-memory";
    static final String DIR = "--dir";
    static final String DURABILITY = "--durability";
    static final String HELP = "--help";
    static final String VERSION = "--version";

    boolean help;
    boolean version;
    Integer port;
    String bind;
    Integer threads;
    Integer shards;
    Long maxMemory;
    String maxmemoryPolicy;
    String requirepass;
    Boolean protectedMode;
    Integer maxClients;
    Long timeoutSeconds;
    Long maxQueryBuffer;
    Long maxOutputBuffer;
    Long maxClientMemory;
    Path dir;
    Durability durability;

    private LauncherOptions()
    {
    }

    /**
     * @param args the command line.
     * @return the options; with {@link #help} or {@link #version} set, the rest of the line was not read.
     * @throws UsageException if a flag is unknown, repeated, or lacks a well-formed value.
     */
    static LauncherOptions parse(final String... args) throws UsageException
    {
        final LauncherOptions options = new LauncherOptions();
        final Set<String> seen = new HashSet<>();
        int i = 0;
        while (i < args.length)
        {
            final String arg = args[i++];
            if (HELP.equals(arg) || "-h".equals(arg))
            {
                options.help = true;
                return options;
            }
            if (VERSION.equals(arg))
            {
                options.version = true;
                return options;
            }
            final int equals = arg.indexOf('=');
            final String name = arg.startsWith("--") && equals > 0 ? arg.substring(0, equals) : arg;
            if (!isFlag(name))
            {
                throw new UsageException(
                    arg.startsWith("-") ? "unknown option: " + name : "unexpected argument: " + arg);
            }
            if (!seen.add(MAXMEMORY.equals(name) ? MAX_MEMORY : name))
            {
                throw new UsageException(name + " given more than once" +
                    (MAXMEMORY.equals(name) || MAX_MEMORY.equals(name) ?
                        " (" + MAX_MEMORY + " and " + MAXMEMORY + " are the same option)" : ""));
            }
            final String value;
            if (equals > 0 && arg.startsWith("--"))
            {
                value = arg.substring(equals + 1);
            }
            else if (i < args.length)
            {
                value = args[i++];
            }
            else
            {
                throw new UsageException(name + " needs a value");
            }
            options.set(name, value);
        }
        return options;
    }

    private static boolean isFlag(final String name)
    {
        switch (name)
        {
            case PORT:
            case BIND:
            case THREADS:
            case SHARDS:
            case MAX_MEMORY:
            case MAXMEMORY:
            case MAXMEMORY_POLICY:
            case REQUIREPASS:
            case PROTECTED_MODE:
            case MAX_CLIENTS:
            case TIMEOUT:
            case MAX_QUERY_BUFFER:
            case MAX_OUTPUT_BUFFER:
            case MAX_CLIENT_MEMORY:
            case DIR:
            case DURABILITY:
                return true;
            default:
                return false;
        }
    }

    private void set(final String name, final String value) throws UsageException
    {
        switch (name)
        {
            case PORT:
                port = parseInt(name, value);
                break;
            case BIND:
                bind = requireNonEmpty(name, value);
                break;
            case THREADS:
                threads = parseInt(name, value);
                break;
            case SHARDS:
                shards = parseInt(name, value);
                break;
            case MAX_MEMORY:
            case MAXMEMORY:
                maxMemory = parseSize(name, value);
                break;
            case MAXMEMORY_POLICY:
                maxmemoryPolicy = requireNonEmpty(name, value);
                break;
            case REQUIREPASS:
                if (value.isEmpty())
                {
                    // An unset shell variable gives "", which must not silently mean "no password".
                    throw new UsageException(name + " needs a non-empty password (leave the flag out for none)");
                }
                requirepass = value;
                break;
            case PROTECTED_MODE:
                protectedMode = parseYesNo(name, value);
                break;
            case MAX_CLIENTS:
                maxClients = parseInt(name, value);
                break;
            case TIMEOUT:
                timeoutSeconds = parseLong(name, value);
                break;
            case MAX_QUERY_BUFFER:
                maxQueryBuffer = parseSize(name, value);
                break;
            case MAX_OUTPUT_BUFFER:
                maxOutputBuffer = parseSize(name, value);
                break;
            case MAX_CLIENT_MEMORY:
                maxClientMemory = parseSize(name, value);
                break;
            case DIR:
                dir = parsePath(name, value);
                break;
            case DURABILITY:
                durability = parseDurability(name, value);
                break;
            default:
                throw new IllegalStateException("flag without a setter: " + name);
        }
    }

    private static Path parsePath(final String name, final String value) throws UsageException
    {
        try
        {
            return Path.of(requireNonEmpty(name, value));
        }
        catch (final java.nio.file.InvalidPathException ex)
        {
            throw new UsageException(name + " must be a path, " + ex.getReason() + ": " + name + "=" + value);
        }
    }

    private static Durability parseDurability(final String name, final String value) throws UsageException
    {
        for (final Durability durability : Durability.values())
        {
            if (durability.name().equalsIgnoreCase(value))
            {
                return durability;
            }
        }
        throw new UsageException(name + " must be none, fast, durable or paranoid: " + name + "=" + value);
    }

    /**
     * The durability the store is opened with: as given, else {@code durable} with a directory and {@code none}
     * without.
     *
     * @return the preset.
     * @throws UsageException if a preset that keeps data on disk was given without a directory, or {@code none}
     *                        with one.
     */
    Durability effectiveDurability() throws UsageException
    {
        if (durability == null)
        {
            return dir == null ? Durability.NONE : Durability.DURABLE;
        }
        if (durability != Durability.NONE && dir == null)
        {
            throw new UsageException(DURABILITY + " " + durability.name().toLowerCase(Locale.ROOT) + " needs " + DIR +
                ": the store keeps its data on disk in a directory");
        }
        if (durability == Durability.NONE && dir != null)
        {
            throw new UsageException(DURABILITY + " none keeps nothing on disk, so it takes no " + DIR + ": " + DIR +
                "=" + dir);
        }
        return durability;
    }

    private static String requireNonEmpty(final String name, final String value) throws UsageException
    {
        if (value.isEmpty())
        {
            throw new UsageException(name + " needs a value");
        }
        return value;
    }

    private static int parseInt(final String name, final String value) throws UsageException
    {
        try
        {
            return Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException(name + " must be an integer: " + name + "=" + value);
        }
    }

    private static long parseLong(final String name, final String value) throws UsageException
    {
        try
        {
            return Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException(name + " must be an integer: " + name + "=" + value);
        }
    }

    private static long parseSize(final String name, final String value) throws UsageException
    {
        try
        {
            return MemorySize.parse(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(name + " must be a size, " + ex.getMessage() + ": " + name + "=" + value);
        }
    }

    private static boolean parseYesNo(final String name, final String value) throws UsageException
    {
        if ("yes".equalsIgnoreCase(value))
        {
            return true;
        }
        if ("no".equalsIgnoreCase(value))
        {
            return false;
        }
        throw new UsageException(name + " must be yes or no: " + name + "=" + value);
    }

    /**
     * @return the help text, every flag with its default.
     */
    static String usage()
    {
        final MemoryPlan defaults = MemoryPlan.of(
            Runtime.getRuntime().maxMemory(), AgniServerBuilder.directMemoryLimit(), null, null);
        final String n = System.lineSeparator();
        return "Usage: java -jar agni-server.jar [options]" + n +
            n +
            "Serves an in-process agni store over TCP to any Redis client, in RESP2 and RESP3 (the string, key" + n +
            "and server commands of docs/protocol.md)." + n +
            n +
            "Options (--name value or --name=value):" + n +
            option("--port N", "TCP port, 0 for any free one (default " + AgniServerBuilder.DEFAULT_PORT + ")") +
            option("--bind ADDRESS", "address to listen on (default " + AgniServerBuilder.DEFAULT_BIND_ADDRESS +
                "; 0.0.0.0: every IPv4 interface)") +
            option("--threads N", "event-loop threads (default: the processors, here " +
                AgniServerBuilder.defaultEventLoopThreads() + ")") +
            option("--shards N", "store shards, a power of two (default: 4 x processors, rounded up to a") +
            option("", "power of two, at most 256; here " + OffHeapStoreBuilder.defaultShards() + ")") +
            option("--max-memory SIZE", "the store's off-heap budget (default: the JVM's direct-memory limit") +
            option("", "less the clients' memory limit; here " + MemorySize.format(defaults.storeBudget) + ");") +
            option("", "--maxmemory is the same; CONFIG SET maxmemory changes it later") +
            option("--maxmemory-policy NAME", "what a write does at the budget, as Redis names it: noeviction") +
            option("", "(refuse it, the default), allkeys-lru, allkeys-lfu, volatile-lru,") +
            option("", "volatile-lfu, allkeys-random, volatile-random or volatile-ttl") +
            option("", "(evict; lru and lfu are agni's one algorithm, docs/eviction.md)") +
            option("--requirepass PASSWORD", "password clients must give with AUTH (default: none)") +
            option("--protected-mode yes|no", "with no password and a non-loopback --bind, refuse clients") +
            option("", "from other hosts (default yes)") +
            option("--max-clients N", "most clients connected at once (default " +
                AgniServerBuilder.DEFAULT_MAX_CLIENTS + ")") +
            option("--timeout SECONDS", "close a client idle this long, 0 for never (default 0)") +
            option("--max-query-buffer SIZE", "most bytes of one client's pending command (default " +
                MemorySize.format(AgniServerBuilder.DEFAULT_MAX_QUERY_BUFFER) + ",") +
            option("", "or --max-client-memory if less)") +
            option("--max-output-buffer SIZE", "most bytes of replies waiting for one client (default " +
                MemorySize.format(AgniServerBuilder.DEFAULT_MAX_OUTPUT_BUFFER) + ",") +
            option("", "or --max-client-memory if less)") +
            option("--max-client-memory SIZE", "most bytes all clients' buffers hold together; past it the") +
            option("", "largest clients are disconnected, 0 for no limit (default: a quarter") +
            option("", "of the direct-memory limit, at most 1gb; here " +
                MemorySize.format(defaults.maxClientMemory) + ")") +
            option("--dir PATH", "keep the data in this directory, created if missing, which one") +
            option("", "server at a time may hold (default: none, the data is in memory only)") +
            option("--durability PRESET", "none, fast, durable or paranoid (default: durable with --dir,") +
            option("", "none without); see docs/durability.md:") +
            option("", "fast: snapshots only, taken at SAVE, BGSAVE and shutdown") +
            option("", "durable: a write is in the log before its reply; survives a crash") +
            option("", "paranoid: and on the device (fsync) before its reply; survives") +
            option("", "a power loss") +
            option("--version", "print the version and exit") +
            option("--help, -h", "print this help and exit") +
            n +
            "SIZE is bytes, or a number and a unit as in Redis: k=1000, kb=1024, m, mb, g, gb (100mb, 1gb)." + n +
            "The direct-memory limit is -XX:MaxDirectMemorySize, or the maximum heap size (-Xmx) if not set;" + n +
            "the heap holds no data: -Xmx512m suits most workloads (see docs/operations.md)." + n +
            "SIGTERM or Ctrl-C stops accepting, flushes replies already computed, then closes the store" + n +
            "(with --dir: a last snapshot; wait for the process to exit before you copy the directory)." + n +
            "Logs go to stderr; -Dorg.slf4j.simpleLogger.defaultLogLevel=debug also logs every connection." + n;
    }

    private static String option(final String name, final String description)
    {
        return String.format("  %-25s %s%n", name, description);
    }
}
