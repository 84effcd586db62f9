package io.agni.net;

import io.agni.api.StoreStats;

import java.util.HashMap;
import java.util.Map;

/**
 * Reads a {@link StoreStats} out of the text of Redis's {@code INFO} reply.
 *
 * <h2>Mapping</h2>
 * agni's server reports its store's {@link StoreStats} under Redis's names; Redis reports per server, not per
 * store, and accounts memory its own way, so for Redis the fields are the nearest it has:
 * <table>
 * <caption>StoreStats from INFO</caption>
 * <tr><th>StoreStats</th><th>INFO field</th></tr>
 * <tr><td>entries, entriesWithExpiry</td><td>{@code keys} and {@code expires} of {@code db0} (0 when absent)</td></tr>
 * <tr><td>hits, misses</td><td>{@code keyspace_hits}, {@code keyspace_misses}</td></tr>
 * <tr><td>expired, evicted</td><td>{@code expired_keys}, {@code evicted_keys}</td></tr>
 * <tr><td>rejectedWrites</td><td>agni's {@code agni_rejected_writes}; from Redis, the count of
 *     {@code errorstat_OOM}: commands refused for memory</td></tr>
 * <tr><td>offHeapBytes</td><td>{@code used_memory}</td></tr>
 * <tr><td>liveEntryBytes</td><td>{@code used_memory_dataset}</td></tr>
 * <tr><td>budgetBytes</td><td>{@code maxmemory}; {@code 0}, Redis's "no limit", reads as {@link Long#MAX_VALUE}</td></tr>
 * </table>
 * A field the server does not report, or reports as something other than a non-negative 64-bit decimal, reads as
 * {@code 0}.
 */
final class ClientInfoStats
{
    private static final String KEYSPACE_LINE = "db0";

    private ClientInfoStats()
    {
    }

    /**
     * @param info the text of an {@code INFO} reply: {@code field:value} lines, {@code # Section} headers.
     * @return the statistics it reports.
     */
    static StoreStats parse(final String info)
    {
        final Map<String, String> fields = new HashMap<>();
        for (final String line : info.split("\r?\n"))
        {
            final int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#"))
            {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        final Map<String, String> keyspace = subfields(fields.get(KEYSPACE_LINE));
        final long maxMemory = number(fields.get("maxmemory"));
        return StoreStats.builder()
            .entries(number(keyspace.get("keys")))
            .entriesWithExpiry(number(keyspace.get("expires")))
            .hits(number(fields.get("keyspace_hits")))
            .misses(number(fields.get("keyspace_misses")))
            .expired(number(fields.get("expired_keys")))
            .evicted(number(fields.get("evicted_keys")))
            .rejectedWrites(fields.containsKey("agni_rejected_writes") ? number(fields.get("agni_rejected_writes")) :
                number(subfields(fields.get("errorstat_OOM")).get("count")))
            .offHeapBytes(number(fields.get("used_memory")))
            .liveEntryBytes(number(fields.get("used_memory_dataset")))
            .budgetBytes(maxMemory == 0 ? Long.MAX_VALUE : maxMemory)
            .build();
    }

    /**
     * Splits {@code a=1,b=2}.
     */
    private static Map<String, String> subfields(final String value)
    {
        final Map<String, String> map = new HashMap<>();
        if (value != null)
        {
            for (final String pair : value.split(","))
            {
                final int equals = pair.indexOf('=');
                if (equals > 0)
                {
                    map.put(pair.substring(0, equals), pair.substring(equals + 1));
                }
            }
        }
        return map;
    }

    private static long number(final String value)
    {
        if (value == null)
        {
            return 0;
        }
        try
        {
            return Math.max(0, Long.parseLong(value));
        }
        catch (final NumberFormatException ex)
        {
            return 0;
        }
    }
}
