package io.agni.net;

import io.agni.store.OffHeapStore;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.agni.net.ServerFixture.serverOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An embedded server takes its store's clock unless told otherwise: TIME, INFO and CLIENT LIST read it, and the
 * relative expiry times of the commands count from the store's clock in any case. The store's fake clock here is
 * years away from the system clock, so a time read from the wrong clock is obvious.
 */
@Tag("socket")
class ServerClockTest
{
    private static final long STORE_NOW = 1_000_000_000_000L;

    private final CachedEpochClock storeClock = new CachedEpochClock();
    private final OffHeapStore store;
    private AgniServer server;

    ServerClockTest()
    {
        storeClock.update(STORE_NOW);
        store = OffHeapStore.builder().shards(2).maxMemory(16L << 20).clock(storeClock).build();
    }

    @AfterEach
    void close()
    {
        ClientContractTests.closeAll(server, store);
    }

    @Test
    void timeAndRelativeExpiryReadTheStoresClockByDefault() throws IOException
    {
        server = serverOn(store).build().start();
        try (RawRespConnection connection = RawRespConnection.connect(server))
        {
            assertEquals(List.of("1000000000", "0"), connection.call("TIME"));
            assertEquals("+OK", connection.call("SET", "k", "v", "PX", "1500"));
            assertEquals(":1500", connection.call("PTTL", "k"));
            assertEquals(":" + (STORE_NOW + 1500), connection.call("PEXPIRETIME", "k"));
            storeClock.advance(250);
            assertEquals(List.of("1000000000", "250000"), connection.call("TIME"));
            final String info = (String)connection.call("INFO", "server");
            assertTrue(info.contains("server_time_usec:" + (STORE_NOW + 250) * 1000), info);
            assertTrue(info.contains("uptime_in_seconds:0"), info);
        }
    }

    @Test
    void aClockGivenToTheServerIsWhatTimeReadsWhileExpiryKeepsTheStoresClock() throws IOException
    {
        final CachedEpochClock serverClock = new CachedEpochClock();
        serverClock.update(1_700_000_000_000L);
        server = serverOn(store).clock(serverClock).build().start();
        try (RawRespConnection connection = RawRespConnection.connect(server))
        {
            assertEquals(List.of("1700000000", "0"), connection.call("TIME"));
            assertEquals("+OK", connection.call("SET", "k", "v", "EX", "2"));
            assertEquals("+OK", connection.call("SET", "e", "v"));
            assertEquals(":1", connection.call("EXPIRE", "e", "1"));
        }
        assertEquals(STORE_NOW + 2000, store.expireTimeMillis("k".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(STORE_NOW + 1000, store.expireTimeMillis("e".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void aClientOfTheServerReadsTheStoresClock()
    {
        server = serverOn(store).build().start();
        try (AgniClient client = AgniClient.builder().host("127.0.0.1").port(server.port()).build())
        {
            assertEquals(STORE_NOW, client.currentTimeMillis());
            storeClock.advance(1234);
            assertEquals(STORE_NOW + 1234, client.currentTimeMillis());
        }
    }
}
