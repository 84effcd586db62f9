package io.agni.protocol.command;

import io.agni.api.CheckpointStatus;
import io.agni.api.Checkpointing;
import io.agni.api.Durability;
import io.agni.api.StoreStats;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Properties;

/**
 * {@code INFO [section ...]}: Redis's report of the server, as one bulk string of {@code # Section} headers and
 * {@code field:value} lines ending in CRLF, sections separated by an empty line, in Redis's order; the sections
 * picked as Redis 7.0 picks them ({@link InfoSections}).
 *
 * <h2>Fields</h2>
 * Every section of Redis 7.0 is there, with the fields that mean something for agni, Redis's names, meanings and
 * formats, plus a few {@code agni_} fields. The memory fields count off-heap memory, not the JVM heap
 * ({@link #memorySection} says which); persistence reports the store's checkpoints and log when it keeps its data on
 * disk ({@link Checkpointing}); replication reports a master with no replicas; {@code modules} and
 * {@code latencystats} are empty (no modules; latency percentiles are not tracked, as in a Redis with
 * {@code latency-tracking no}); {@code avg_ttl} is 0 because agni does not track it. The counters
 * ({@link InfoCounterSections}) are since start or the last {@code CONFIG RESETSTAT}.
 */
final class ServerInfoCommand
{
    private static final String AGNI_VERSION = agniVersion();
    private static final String OS =
        System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
    private static final int ARCH_BITS = "32".equals(System.getProperty("sun.arch.data.model")) ? 32 : 64;
    private static final String NO_REPLICATION_ID = "0000000000000000000000000000000000000000";

    private ServerInfoCommand()
    {
    }

    static void info(final CommandContext context)
    {
        final boolean[] wanted = InfoSections.select(context.args());
        final StoreStats stats = context.store().stats();
        final StringBuilder info = new StringBuilder(2048);
        for (int i = 0; i < InfoSections.NAMES.length; i++)
        {
            if (wanted[i])
            {
                if (info.length() > 0)
                {
                    info.append("\r\n");
                }
                infoSection(InfoSections.NAMES[i], context, stats, info);
            }
        }
        context.out().verbatim(info);
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
                memorySection(context, stats, info);
                break;
            case "persistence":
                persistenceSection(context, info);
                break;
            case "stats":
                InfoCounterSections.stats(context, stats, info);
                break;
            case "replication":
                info.append("# Replication\r\n")
                    .append("role:master\r\n")
                    .append("connected_slaves:0\r\n")
                    .append("master_failover_state:no-failover\r\n")
                    .append("master_replid:").append(context.statistics().replicationId()).append("\r\n")
                    .append("master_replid2:").append(NO_REPLICATION_ID).append("\r\n")
                    .append("master_repl_offset:0\r\n")
                    .append("second_repl_offset:-1\r\n")
                    .append("repl_backlog_active:0\r\n");
                break;
            case "cpu":
                InfoCounterSections.cpu(context, info);
                break;
            case "commandstats":
                InfoCounterSections.commandStats(context, info);
                break;
            case "errorstats":
                InfoCounterSections.errorStats(context, info);
                break;
            case "cluster":
                info.append("# Cluster\r\ncluster_enabled:0\r\n");
                break;
            case "keyspace":
                keyspaceSection(stats, info);
                break;
            default:
                // modules, latencystats: a header and no fields
                info.append(InfoSections.header(section)).append("\r\n");
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
            .append("run_id:").append(context.statistics().runId()).append("\r\n")
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
            .append("cluster_connections:0\r\n")
            .append("maxclients:").append(server.maxClients()).append("\r\n")
            .append("blocked_clients:0\r\n")
            .append("tracking_clients:0\r\n");
    }

    /**
     * The memory fields, so that a tool comparing {@code used_memory} with {@code maxmemory}, as Redis's eviction does
     * (less {@code mem_not_counted_for_evict}), sees what agni's store evicts or refuses writes by: {@code maxmemory}
     * is the store's budget and {@code used_memory} the off-heap bytes the budget counts (index tables and entry
     * segments), so it stays at or below {@code maxmemory} while the store evicts at its budget (above it only while
     * a lowered budget is being reached). The clients' buffers are direct memory too, but bounded by their
     * own limit ({@code maxmemory-clients}), not by the budget, so they are reported beside {@code used_memory}, not
     * in it: {@code mem_clients_normal}; {@code mem_not_counted_for_evict}, the part of {@code used_memory} eviction
     * leaves out, is 0; {@code agni_used_memory_total} is the two together, the direct memory the store and the
     * clients hold. {@code used_memory_peak} is the highest {@code used_memory} an {@code INFO} or an event loop's
     * tick saw ({@link ServerStatistics#sample}); {@code used_memory_dataset} the store's live entries;
     * {@code used_memory_rss} the process's resident memory (the JVM's heap included), left out where the system does
     * not report it.
     */
    private static void memorySection(final CommandContext context, final StoreStats stats, final StringBuilder info)
    {
        final long clients = context.server().clientMemoryBytes();
        final long used = usedMemory(stats);
        final long peak = context.statistics().peakMemory(used);
        final long rss = ProcessUsage.residentBytes();
        info.append("# Memory\r\n")
            .append("used_memory:").append(used).append("\r\n")
            .append("used_memory_human:").append(humanBytes(used)).append("\r\n");
        if (rss >= 0)
        {
            info.append("used_memory_rss:").append(rss).append("\r\n")
                .append("used_memory_rss_human:").append(humanBytes(rss)).append("\r\n");
        }
        info.append("used_memory_peak:").append(peak).append("\r\n")
            .append("used_memory_peak_human:").append(humanBytes(peak)).append("\r\n")
            .append("used_memory_dataset:").append(stats.liveEntryBytes()).append("\r\n")
            .append("maxmemory:").append(stats.budgetBytes()).append("\r\n")
            .append("maxmemory_human:").append(humanBytes(stats.budgetBytes())).append("\r\n")
            .append("maxmemory_policy:").append(MemoryPolicy.name(context.store(), context.server())).append("\r\n")
            .append("mem_not_counted_for_evict:0\r\n")
            .append("mem_clients_slaves:0\r\n")
            .append("mem_clients_normal:").append(clients).append("\r\n")
            .append("agni_used_memory_total:").append(used + clients).append("\r\n");
    }

    /**
     * {@code used_memory}: the off-heap bytes the store holds, which its budget ({@code maxmemory}) counts; the
     * clients' buffers are not among them ({@link #memorySection}).
     *
     * @param stats the store's statistics.
     * @return bytes.
     */
    static long usedMemory(final StoreStats stats)
    {
        return stats.offHeapBytes();
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
            .append("agni_checkpoint_failures_in_a_row:").append(status.failuresInARow()).append("\r\n")
            .append("agni_checkpoint_retry_in_ms:").append(status.retryInMillis()).append("\r\n")
            .append("agni_durability:").append(durability.name().toLowerCase(Locale.ROOT)).append("\r\n");
    }

    /**
     * Whole seconds of a duration, or -1 for none, as Redis's {@code rdb_last_bgsave_time_sec}.
     */
    private static long seconds(final long millis)
    {
        return millis < 0 ? -1 : millis / 1000;
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
