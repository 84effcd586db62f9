package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import io.agni.store.OffHeapStore;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The relative expiry times of the commands (EX, PX, SETEX, PSETEX, GETEX EX/PX, EXPIRE, PEXPIRE) go to the store as
 * durations, so they count from the store's clock, not from the clock the command layer was given; the absolute
 * ones (EXAT, PXAT, EXPIREAT, PEXPIREAT) are passed on as they are, and TIME reads the command layer's clock. The
 * two clocks here are years apart, so a time added to the wrong one is obvious.
 */
class RelativeExpiryCommandsTest
{
    private static final long STORE_NOW = 1_000_000_000_000L;
    private static final long SERVER_NOW = 1_700_000_000_000L;

    private final CachedEpochClock storeClock = new CachedEpochClock();
    private final CachedEpochClock serverClock = new CachedEpochClock();
    private final OffHeapStore store;
    private final CommandProcessor processor;
    private final Session session = new Session(1, "127.0.0.1:1", "127.0.0.1:2", SERVER_NOW);

    RelativeExpiryCommandsTest()
    {
        storeClock.update(STORE_NOW);
        serverClock.update(SERVER_NOW);
        store = OffHeapStore.builder().shards(2).maxMemory(1L << 24).clock(storeClock).build();
        processor = new CommandProcessor(store, new LocalServerContext(null, SERVER_NOW), serverClock);
    }

    @AfterEach
    void close()
    {
        store.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "SET k v EX 10; 10000",
        "SET k v PX 1500; 1500",
        "SET k v NX PX 1500; 1500",
        "SET k v PX 1500 GET; 1500",
        "SETEX k 7 v; 7000",
        "PSETEX k 700 v; 700"})
    void aRelativeTimeOfASetCountsFromTheStoresClock(final String command, final long millis)
    {
        reply(command.split(" "));

        assertEquals(STORE_NOW + millis, store.expireTimeMillis(bytes("k")));
        assertEquals(":" + millis + "\r\n", reply("PTTL", "k"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "GETEX k EX 3; 3000",
        "GETEX k PX 250; 250",
        "EXPIRE k 4; 4000",
        "PEXPIRE k 400; 400",
        "PEXPIRE k 400 NX; 400"})
    void aRelativeTimeOfAnExistingKeyCountsFromTheStoresClock(final String command, final long millis)
    {
        store.set(bytes("k"), bytes("v"));

        reply(command.split(" "));

        assertEquals(STORE_NOW + millis, store.expireTimeMillis(bytes("k")));
    }

    @Test
    void anAbsoluteTimeIsPassedOnAsItIs()
    {
        final long at = STORE_NOW + 123_000;
        store.set(bytes("e"), bytes("v"));
        store.set(bytes("p"), bytes("v"));

        reply("SET", "k", "v", "PXAT", Long.toString(at));
        reply("SET", "s", "v", "EXAT", Long.toString(at / 1000));
        reply("EXPIREAT", "e", Long.toString(at / 1000));
        reply("PEXPIREAT", "p", Long.toString(at));

        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertEquals(at, store.expireTimeMillis(bytes("s")));
        assertEquals(at, store.expireTimeMillis(bytes("e")));
        assertEquals(at, store.expireTimeMillis(bytes("p")));
    }

    @Test
    void aNegativeExpireRemovesTheKeyAsInRedis()
    {
        store.set(bytes("k"), bytes("v"));

        assertEquals(":1\r\n", reply("PEXPIRE", "k", "-5"));

        assertEquals(":0\r\n", reply("EXISTS", "k"));
    }

    @Test
    void timeReadsTheClockTheCommandLayerWasGiven()
    {
        assertEquals("*2\r\n$10\r\n1700000000\r\n$1\r\n0\r\n", reply("TIME"));
    }

    private String reply(final String... args)
    {
        final RespWriter out = new RespWriter(256);
        processor.execute(session, RespArgs.of(args), out);
        final byte[] bytes = new byte[out.position()];
        out.buffer().getBytes(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
