package io.agni.protocol.command;

import io.agni.api.StoreStats;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sections of {@code INFO} that report counters: {@code stats}, {@code cpu}, {@code commandstats} and
 * {@code errorstats}, with Redis 7's field names, meanings and formats. Counters are since the server started or
 * the last {@code CONFIG RESETSTAT} ({@link ServerStatistics}).
 */
final class InfoCounterSections
{
    private InfoCounterSections()
    {
    }

    /**
     * {@code # Stats}: Redis's fields that agni counts, with Redis's meaning; replication, pub/sub, forks and
     * defragmentation, which agni does not have, are left out, and {@code agni_rejected_writes} counts the writes
     * the store refused at its budget.
     */
    static void stats(final CommandContext context, final StoreStats stats, final StringBuilder info)
    {
        final ServerStatistics statistics = context.statistics();
        final ServerContext server = context.server();
        final long nowMillis = System.nanoTime() / 1_000_000;
        info.append("# Stats\r\n")
            .append("total_connections_received:")
            .append(statistics.sinceReset(ServerStatistics.CONNECTIONS, server.totalConnectionsReceived()))
            .append("\r\n")
            .append("total_commands_processed:").append(statistics.totalCommands()).append("\r\n")
            .append("instantaneous_ops_per_sec:").append(statistics.instantaneousOpsPerSecond(nowMillis))
            .append("\r\n")
            .append("rejected_connections:")
            .append(statistics.sinceReset(ServerStatistics.REJECTED_CONNECTIONS, server.rejectedConnections()))
            .append("\r\n")
            .append("expired_keys:").append(statistics.sinceReset(ServerStatistics.EXPIRED, stats.expired()))
            .append("\r\n")
            .append("evicted_keys:")
            .append(statistics.sinceReset(ServerStatistics.EVICTED, MemoryPolicy.evictedKeys(stats))).append("\r\n")
            .append("evicted_clients:")
            .append(statistics.sinceReset(ServerStatistics.EVICTED_CLIENTS, server.evictedClients())).append("\r\n")
            .append("keyspace_hits:").append(statistics.sinceReset(ServerStatistics.HITS, stats.hits()))
            .append("\r\n")
            .append("keyspace_misses:").append(statistics.sinceReset(ServerStatistics.MISSES, stats.misses()))
            .append("\r\n")
            .append("pubsub_channels:0\r\n")
            .append("pubsub_patterns:0\r\n")
            .append("total_error_replies:").append(statistics.totalErrors()).append("\r\n")
            .append("agni_rejected_writes:").append(stats.rejectedWrites()).append("\r\n");
    }

    /**
     * {@code # CPU}: the process's system and user time, its children's (none), and the command threads' as
     * Redis's main thread's (agni runs commands on several event-loop threads: their sum).
     */
    static void cpu(final CommandContext context, final StringBuilder info)
    {
        final ProcessUsage usage = ProcessUsage.read(context.server().commandThreadIds());
        info.append("# CPU\r\n")
            .append("used_cpu_sys:").append(ProcessUsage.seconds(usage.systemNanos)).append("\r\n")
            .append("used_cpu_user:").append(ProcessUsage.seconds(usage.userNanos)).append("\r\n")
            .append("used_cpu_sys_children:").append(ProcessUsage.seconds(usage.childSystemNanos)).append("\r\n")
            .append("used_cpu_user_children:").append(ProcessUsage.seconds(usage.childUserNanos)).append("\r\n")
            .append("used_cpu_sys_main_thread:").append(ProcessUsage.seconds(usage.threadsSystemNanos))
            .append("\r\n")
            .append("used_cpu_user_main_thread:").append(ProcessUsage.seconds(usage.threadsUserNanos))
            .append("\r\n");
    }

    /**
     * {@code # Commandstats}: one line per command called, rejected or failed since the reset, in the order of
     * {@link CommandTable#statsNames()}: {@code cmdstat_get:calls=2,usec=9,usec_per_call=4.50,rejected_calls=1,
     * failed_calls=0}. A call's time is measured around its handler in nanoseconds; {@code usec} is their sum in
     * whole microseconds and {@code usec_per_call} that sum over the calls, with two decimals.
     */
    static void commandStats(final CommandContext context, final StringBuilder info)
    {
        final ServerStatistics statistics = context.statistics();
        final List<String> names = statistics.commandNames();
        final long[] counts = statistics.commandCounts();
        info.append("# Commandstats\r\n");
        for (int id = 0; id < names.size(); id++)
        {
            final int base = id * CommandRecorder.FIELDS;
            final long calls = counts[base + CommandRecorder.CALLS];
            final long rejected = counts[base + CommandRecorder.REJECTED];
            final long failed = counts[base + CommandRecorder.FAILED];
            if (calls == 0 && rejected == 0 && failed == 0)
            {
                continue;
            }
            final long nanos = counts[base + CommandRecorder.NANOS];
            final double perCall = calls == 0 ? 0 : nanos / 1000.0 / calls;
            info.append("cmdstat_").append(names.get(id))
                .append(":calls=").append(calls)
                .append(",usec=").append(nanos / 1000)
                .append(",usec_per_call=").append(String.format(Locale.ROOT, "%.2f", perCall))
                .append(",rejected_calls=").append(rejected)
                .append(",failed_calls=").append(failed)
                .append("\r\n");
        }
    }

    /**
     * {@code # Errorstats}: {@code errorstat_ERR:count=3}, one line per error code replied since the reset.
     */
    static void errorStats(final CommandContext context, final StringBuilder info)
    {
        info.append("# Errorstats\r\n");
        for (final Map.Entry<String, Long> error : context.statistics().errorCounts())
        {
            info.append("errorstat_").append(error.getKey()).append(":count=").append(error.getValue()).append("\r\n");
        }
    }
}
