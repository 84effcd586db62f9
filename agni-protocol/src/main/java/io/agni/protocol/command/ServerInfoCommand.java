package io.agni.protocol.command;

import io.agni.api.CheckpointStatus;
import io.agni.api.Checkpointing;
import io.agni.api.Durability;
import io.agni.api.StoreStats;
import io.agni.protocol.RespArgs;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;

/**
 * {@code INFO [section ...]}: Redis's report of the server, as one bulk string of {@code # Section} headers and
 * {@code field:value} lines, sections separated by a blank line, in Redis's order.
 *
 * <h2>Fields</h2>
 * The sections are those of Redis's default set that mean something for agni: server, clients, memory,
 * persistence, stats, replication, cluster and keyspace; {@code default}, {@code all} and {@code everything} all
 * select them, and unknown sections are ignored. Each has the fields tools read, with Redis's names and formats,
 * plus a few {@code agni_} fields. The memory fields count off-heap memory, not the JVM heap: {@code used_memory}
 * is the store's plus the clients' buffers ({@code mem_clients_normal}), {@code used_memory_dataset} the store's
 * live entries, {@code maxmemory} the store's budget; persistence reports the store's checkpoints and log when it
 * keeps its data on disk ({@link Checkpointing}), replication and cluster report "none"; {@code avg_ttl} is 0
 * because agni does not track it, and {@code total_commands_processed} is left out because nothing counts it
 * cheaply.
 */
final class ServerInfoCommand
{
    private static final String AGNI_VERSION = agniVersion();
    private static final String OS =
        System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
    private static final int ARCH_BITS = "32".equals(System.getProperty("sun.arch.data.model")) ? 32 : 64;
    private static final String[] SECTIONS =
        { "server", "clients", "memory", "persistence", "stats", "replication", "cluster", "keyspace" };

    private ServerInfoCommand()
    {
    }

    static void info(final CommandContext context)
    {
        final boolean[] wanted = infoSections(context.args());
        final StoreStats stats = context.store().stats();
        final StringBuilder info = new StringBuilder(1024);
        for (int i = 0; i < SECTIONS.length; i++)
        {
            if (wanted[i])
            {
                if (info.length() > 0)
                {
                    info.append("\r\n");
                }
                infoSection(SECTIONS[i], context, stats, info);
            }
        }
        context.out().verbatim(info);
    }

    private static boolean[] infoSections(final RespArgs args)
    {
        final boolean[] wanted = new boolean[SECTIONS.length];
        if (args.count() == 1)
        {
            Arrays.fill(wanted, true);
        }
        for (int i = 1; i < args.count(); i++)
        {
            final String section = args.asString(i).toLowerCase(Locale.ROOT);
            if (section.equals("default") || section.equals("all") || section.equals("everything"))
            {
                Arrays.fill(wanted, true);
            }
            for (int s = 0; s < SECTIONS.length; s++)
            {
                wanted[s] |= SECTIONS[s].equals(section);
            }
        }
        return wanted;
    }

    private static void infoSection(
        final String section, final CommandContext context, final StoreStats stats, final StringBuilder info)
    {
        switch (section)
        {
            case "server":
                serverSection(context, info);
                break;
            case "clients":
                clientsSection(context.server(), info);
                break;
            case "memory":
                memorySection(stats, context.server(), info);
                break;
            case "persistence":
                persistenceSection(context, info);
                break;
            case "stats":
                statsSection(stats, context.server(), info);
                break;
            case "replication":
                info.append("# Replication\r\nrole:master\r\nconnected_slaves:0\r\n");
                break;
            case "cluster":
                info.append("# Cluster\r\ncluster_enabled:0\r\n");
                break;
            default:
                keyspaceSection(stats, info);
                break;
        }
    }

    private static void serverSection(final CommandContext context, final StringBuilder info)
    {
        final ServerContext server = context.server();
        final long nowMillis = context.clock().time();
        final long uptimeSeconds = Math.max(0, nowMillis - server.startTimeMillis()) / 1000;
        info.append("# Server\r\n")
            .append("redis_version:").append(ServerCommands.REDIS_VERSION).append("\r\n")
            .append("agni_version:").append(AGNI_VERSION).append("\r\n")
            .append("redis_git_sha1:00000000\r\n")
            .append("redis_git_dirty:0\r\n")
            .append("redis_mode:standalone\r\n")
            .append("os:").append(OS).append("\r\n")
            .append("arch_bits:").append(ARCH_BITS).append("\r\n")
            .append("process_id:").append(ProcessHandle.current().pid()).append("\r\n")
            .append("tcp_port:").append(server.tcpPort()).append("\r\n")
            .append("server_time_usec:").append(nowMillis * 1000).append("\r\n")
            .append("uptime_in_seconds:").append(uptimeSeconds).append("\r\n")
            .append("uptime_in_days:").append(uptimeSeconds / (3600 * 24)).append("\r\n")
            .append("config_file:\r\n")
            .append("agni_java_version:").append(Runtime.version()).append("\r\n");
    }

    private static void clientsSection(final ServerContext server, final StringBuilder info)
    {
        info.append("# Clients\r\n")
            .append("connected_clients:").append(server.sessions().size()).append("\r\n")
            .append("maxclients:").append(server.maxClients()).append("\r\n")
            .append("blocked_clients:0\r\n")
            .append("tracking_clients:0\r\n");
    }

    private static void memorySection(final StoreStats stats, final ServerContext server, final StringBuilder info)
    {
        final long clients = server.clientMemoryBytes();
        final long used = stats.offHeapBytes() + clients;
        info.append("# Memory\r\n")
            .append("used_memory:").append(used).append("\r\n")
            .append("used_memory_human:").append(humanBytes(used)).append("\r\n")
            .append("used_memory_dataset:").append(stats.liveEntryBytes()).append("\r\n")
            .append("mem_clients_normal:").append(clients).append("\r\n")
            .append("maxmemory:").append(stats.budgetBytes()).append("\r\n")
            .append("maxmemory_human:").append(humanBytes(stats.budgetBytes())).append("\r\n")
            .append("maxmemory_policy:noeviction\r\n");
    }

    /**
     * Redis's fields that agni can fill: a checkpoint is both an RDB save ({@code rdb_bgsave_in_progress}, whoever
     * started it) and, with a log, an AOF rewrite (a new base, the old log dropped); {@code aof_enabled} is 1 when
     * every write is logged ({@code DURABLE}, {@code PARANOID}). A store that keeps nothing on disk has no save
     * times or changes to report, and those fields are left out; so is {@code rdb_changes_since_last_save} when the
     * store keeps no log to count changes in ({@code FAST}).
     */
    private static void persistenceSection(final CommandContext context, final StringBuilder info)
    {
        final Checkpointing store = PersistenceCommands.onDisk(context.store());
        final Durability durability = store == null ? Durability.NONE : store.durability();
        final CheckpointStatus status = store == null ? CheckpointStatus.NONE : store.checkpointStatus();
        final boolean aof = durability == Durability.DURABLE || durability == Durability.PARANOID;
        info.append("# Persistence\r\n")
            .append("loading:0\r\n")
            .append("async_loading:0\r\n");
        if (status.changesSinceCheckpoint() >= 0)
        {
            info.append("rdb_changes_since_last_save:").append(status.changesSinceCheckpoint()).append("\r\n");
        }
        info.append("rdb_bgsave_in_progress:").append(status.inProgress() ? 1 : 0).append("\r\n");
        if (store != null)
        {
            info.append("rdb_last_save_time:")
                .append(PersistenceCommands.lastSaveSeconds(status, context.server())).append("\r\n");
        }
        info.append("rdb_last_bgsave_status:").append(status.lastCheckpointFailed() ? "err" : "ok").append("\r\n")
            .append("rdb_last_bgsave_time_sec:").append(seconds(status.lastDurationMillis())).append("\r\n")
            .append("rdb_current_bgsave_time_sec:").append(seconds(status.currentDurationMillis())).append("\r\n")
            .append("aof_enabled:").append(aof ? 1 : 0).append("\r\n")
            .append("aof_rewrite_in_progress:").append(aof && status.inProgress() ? 1 : 0).append("\r\n")
            .append("aof_last_write_status:").append(status.logFailed() ? "err" : "ok").append("\r\n")
            .append("agni_durability:").append(durability.name().toLowerCase(Locale.ROOT)).append("\r\n");
    }

    /**
     * Whole seconds of a duration, or -1 for none, as Redis's {@code rdb_last_bgsave_time_sec}.
     */
    private static long seconds(final long millis)
    {
        return millis < 0 ? -1 : millis / 1000;
    }

    private static void statsSection(final StoreStats stats, final ServerContext server, final StringBuilder info)
    {
        info.append("# Stats\r\n")
            .append("expired_keys:").append(stats.expired()).append("\r\n")
            .append("evicted_keys:").append(stats.evicted()).append("\r\n")
            .append("evicted_clients:").append(server.evictedClients()).append("\r\n")
            .append("keyspace_hits:").append(stats.hits()).append("\r\n")
            .append("keyspace_misses:").append(stats.misses()).append("\r\n")
            .append("agni_rejected_writes:").append(stats.rejectedWrites()).append("\r\n");
    }

    /**
     * As Redis, the {@code db0} line is left out while the store holds nothing; {@code avg_ttl} is not tracked.
     */
    private static void keyspaceSection(final StoreStats stats, final StringBuilder info)
    {
        info.append("# Keyspace\r\n");
        if (stats.entries() > 0 || stats.entriesWithExpiry() > 0)
        {
            info.append("db0:keys=").append(stats.entries())
                .append(",expires=").append(stats.entriesWithExpiry())
                .append(",avg_ttl=0\r\n");
        }
    }

    /**
     * Redis's {@code bytesToHuman}: {@code 1023B}, {@code 1.00K}, {@code 1.50M}, ... with two decimals rounded as C's
     * {@code printf} rounds them (the exact binary value, ties to even).
     */
    static String humanBytes(final long bytes)
    {
        if (bytes < 1024 || bytes >= 1L << 60)
        {
            return bytes + "B";
        }
        int unit = 0;
        while (bytes >= 1L << (10 * (unit + 2)))
        {
            unit++;
        }
        final double scaled = (double)bytes / (1L << (10 * (unit + 1)));
        return new BigDecimal(scaled).setScale(2, RoundingMode.HALF_EVEN).toPlainString() + "KMGTP".charAt(unit);
    }

    private static String agniVersion()
    {
        try (InputStream in = ServerInfoCommand.class.getResourceAsStream(
            "/META-INF/maven/io.agni/agni-protocol/pom.properties"))
        {
            if (in != null)
            {
                final Properties properties = new Properties();
                properties.load(in);
                final String version = properties.getProperty("version");
                if (version != null)
                {
                    return version;
                }
            }
        }
        catch (final IOException ignore)
        {
            // no packaged version: fall through
        }
        final String version = ServerInfoCommand.class.getPackage().getImplementationVersion();
        return version == null ? "unknown" : version;
    }
}
