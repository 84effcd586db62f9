package io.agni.net;

import io.agni.api.EvictionPolicy;
import io.agni.store.OffHeapStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server in front of a store that evicts reports its policy under Redis's name and its evictions, and serves
 * SETs past its budget instead of refusing them.
 */
@Tag("socket")
class EvictingServerTest
{
    @Test
    void aStoreThatEvictsServesWritesPastItsBudgetAndSaysSo() throws Exception
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(2).maxMemory(1 << 20)
            .evictionPolicy(EvictionPolicy.ALL_KEYS).build();
            AgniServer server = AgniServer.builder(store).port(0).eventLoopThreads(1).build().start();
            RawRespConnection connection = RawRespConnection.connect(server))
        {
            assertEquals(List.of("maxmemory-policy", "allkeys-lru"), connection.call("CONFIG", "GET", "maxmemory-policy"));
            final String value = "v".repeat(500);
            for (int i = 0; i < 10_000; i++)
            {
                assertEquals("+OK", connection.call("SET", "key:" + i, value));
            }
            final String memory = (String)connection.call("INFO", "memory");
            assertTrue(memory.contains("maxmemory_policy:allkeys-lru\r\n"), memory);
            assertTrue(field(memory, "mem_clients_normal") > 0, memory);
            assertTrue(field(memory, "used_memory") <= field(memory, "maxmemory"),
                "used_memory is what the budget counts, the clients' buffers apart: " + memory);
            final String stats = (String)connection.call("INFO", "stats");
            final long evicted = field(stats, "evicted_keys");
            assertTrue(evicted > 0, stats);
            assertEquals(store.stats().evicted(), evicted);

            store.evictionPolicy(EvictionPolicy.VOLATILE);
            assertEquals(List.of("maxmemory-policy", "volatile-lru"), connection.call("CONFIG", "GET", "maxmemory-policy"));
        }
    }

    @Test
    void configSetMaxmemoryBelowWhatTheStoreHoldsBringsItDownUnderWrites() throws Exception
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(2).maxMemory(8 << 20).build();
            AgniServer server = AgniServer.builder(store).port(0).eventLoopThreads(1).maxmemoryPolicy("allkeys-lfu")
                .build().start();
            RawRespConnection connection = RawRespConnection.connect(server))
        {
            assertEquals(EvictionPolicy.ALL_KEYS, store.evictionPolicy());
            assertEquals(List.of("maxmemory-policy", "allkeys-lfu"), connection.call("CONFIG", "GET", "maxmemory-policy"));
            final String value = "v".repeat(500);
            int i = 0;
            while (store.stats().evicted() == 0)
            {
                assertEquals("+OK", connection.call("SET", "key:" + i++, value));
            }
            assertEquals("+OK", connection.call("CONFIG", "SET", "maxmemory", "2mb", "maxmemory-policy", "allkeys-random"));
            assertEquals(EvictionPolicy.ALL_KEYS_RANDOM, store.evictionPolicy());
            assertEquals(List.of("maxmemory", "2097152"), connection.call("CONFIG", "GET", "maxmemory"));
            final String memory = (String)connection.call("INFO", "memory");
            assertTrue(memory.contains("\r\nmaxmemory:2097152\r\n"), memory);
            assertTrue(memory.contains("\r\nmaxmemory_policy:allkeys-random\r\n"), memory);
            for (int writes = 0; store.stats().offHeapBytes() > 2 << 20; writes++)
            {
                assertEquals("+OK", connection.call("SET", "key:" + i++, value));
                assertTrue(writes < 20_000, "still over the budget: " + store.stats());
            }
            for (int writes = 0; writes < 1_000; writes++)
            {
                assertEquals("+OK", connection.call("SET", "key:" + i++, value));
                assertTrue(store.stats().offHeapBytes() <= 2 << 20);
            }
        }
    }

    private static long field(final String info, final String name)
    {
        return Long.parseLong(info.replaceAll("(?s).*\r\n" + name + ":(\\d+)\r\n.*", "$1"));
    }
}
