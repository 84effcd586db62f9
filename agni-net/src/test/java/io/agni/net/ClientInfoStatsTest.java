package io.agni.net;

import io.agni.api.StoreStats;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ClientInfoStatsTest
{
    private static final String REDIS_INFO = String.join("\r\n",
        "# Server",
        "redis_version:7.0.15",
        "",
        "# Memory",
        "used_memory:1583488",
        "used_memory_human:1.51M",
        "used_memory_dataset:707176",
        "maxmemory:0",
        "",
        "# Stats",
        "expired_keys:41",
        "evicted_keys:2",
        "keyspace_hits:1105",
        "keyspace_misses:370",
        "",
        "# Errorstats",
        "errorstat_ERR:count=12",
        "errorstat_OOM:count=3",
        "",
        "# Keyspace",
        "db0:keys=5,expires=2,avg_ttl=3599000",
        "db3:keys=100,expires=0,avg_ttl=0",
        "");

    @Test
    void readsRedisInfoIntoStoreStats()
    {
        final StoreStats stats = ClientInfoStats.parse(REDIS_INFO);

        assertEquals(StoreStats.builder().entries(5).entriesWithExpiry(2).hits(1105).misses(370).expired(41).evicted(2)
            .rejectedWrites(3).offHeapBytes(1583488).liveEntryBytes(707176).budgetBytes(Long.MAX_VALUE).build(), stats);
    }

    @Test
    void readsAgnisRejectedWritesAndBudget()
    {
        final String info = "# Memory\r\nused_memory:4096\r\nused_memory_dataset:100\r\nmaxmemory:67108864\r\n" +
            "# Stats\r\nagni_rejected_writes:7\r\n# Errorstats\r\nerrorstat_OOM:count=3\r\n";

        final StoreStats stats = ClientInfoStats.parse(info);

        assertEquals(7, stats.rejectedWrites(), "agni's own counter wins over the error count");
        assertEquals(67108864, stats.budgetBytes());
    }

    @Test
    void anEmptyDatabaseAndMissingFieldsReadAsZero()
    {
        final StoreStats stats = ClientInfoStats.parse("# Keyspace\n");

        assertEquals(StoreStats.builder().budgetBytes(Long.MAX_VALUE).build(), stats);
    }

    @Test
    void fieldsThatAreNotNumbersReadAsZero()
    {
        assertEquals(0, ClientInfoStats.parse("keyspace_hits:lots\r\n").hits());
    }

    @Test
    void negativeFieldsReadAsZeroRatherThanFailingTheSnapshot()
    {
        assertEquals(0, ClientInfoStats.parse("used_memory_dataset:-12\r\n").liveEntryBytes());
    }
}
