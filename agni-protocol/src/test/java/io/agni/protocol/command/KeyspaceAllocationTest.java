package io.agni.protocol.command;

import io.agni.protocol.AllocationMeter;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The hot keyspace commands (DEL, UNLINK, EXISTS, TYPE, TTL, PTTL, EXPIRE and its variants, PERSIST) allocate
 * nothing on the heap once warm: measured with the JVM's per-thread allocation counter around many executions.
 */
class KeyspaceAllocationTest
{
    private static final int WARM_UP = 30_000;
    private static final int MEASURED = 10_000;
    /**
     * Slack for one-off runtime events during the measured runs; one allocation per command would cost at least
     * {@code MEASURED * 16} bytes.
     */
    private static final long ALLOWED_BYTES = 4096;

    private final CommandHarness harness = new CommandHarness();
    private final RespWriter out = new RespWriter(256);
    private final UnsafeBuffer key = new UnsafeBuffer(bytes("key"));
    private final UnsafeBuffer value = new UnsafeBuffer(bytes("value"));

    @BeforeEach
    void setUp()
    {
        harness.store.set(key, 0, key.capacity(), value, 0, value.capacity());
    }

    @AfterEach
    void close()
    {
        harness.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "EXISTS key missing key",
        "TYPE key",
        "TYPE missing",
        "TTL key",
        "PTTL key",
        "EXPIRETIME key",
        "PEXPIRETIME key",
        "DEL missing",
        "UNLINK missing other",
        "PERSIST key",
        "EXPIRE missing 100 NX",
    })
    void readsAndMissesAllocateNothing(final String command)
    {
        final RespArgs args = RespArgs.of(command.split(" "));
        assertAllocatesNothing(command, () -> execute(args));
    }

    @ParameterizedTest
    @CsvSource({
        "EXPIRE key 100,                 PERSIST key",
        "EXPIRE key 100 NX,              PERSIST key",
        "PEXPIRE key 100000 GT,          PEXPIRE key 50000",
        "EXPIREAT key 2000000000 XX,     PEXPIRE key 50000",
        "PEXPIREAT key 2000000000000 LT, PERSIST key",
    })
    void expireAndPersistThatChangeAPresentKeyAllocateNothing(final String command, final String reset)
    {
        final RespArgs expire = RespArgs.of(command.split(" "));
        final RespArgs undo = RespArgs.of(reset.split(" "));
        final RespArgs ttl = RespArgs.of("PTTL", "key");
        reply(undo);
        assertEquals(":1\r\n", reply(expire));
        assertEquals(":1\r\n", reply(undo));
        assertAllocatesNothing(command, () ->
        {
            execute(expire);
            execute(ttl);
            execute(undo);
        });
        assertEquals(":1\r\n", reply(expire));
    }

    @ParameterizedTest
    @ValueSource(strings = {"DEL", "UNLINK"})
    void deleteOfAPresentKeyAllocatesNothing(final String name)
    {
        final RespArgs del = RespArgs.of(name, "key");
        assertEquals(":1\r\n", reply(del));
        harness.store.set(key, 0, key.capacity(), value, 0, value.capacity());
        assertAllocatesNothing(name, () ->
        {
            execute(del);
            harness.store.set(key, 0, key.capacity(), value, 0, value.capacity());
        });
    }

    @Test
    void renameAndRenamenxAllocateNothing()
    {
        final RespArgs there = RespArgs.of("RENAME", "key", "other");
        final RespArgs back = RespArgs.of("RENAMENX", "other", "key");
        assertEquals("+OK\r\n", reply(there));
        assertEquals(":1\r\n", reply(back));
        assertAllocatesNothing("RENAME and RENAMENX", () ->
        {
            execute(there);
            execute(back);
        });
        assertEquals("$5\r\nvalue\r\n", reply(RespArgs.of("GET", "key")));
    }

    private static void assertAllocatesNothing(final String what, final Runnable operation)
    {
        AllocationMeter.assertAllocatesNothing(what, operation, WARM_UP, MEASURED, ALLOWED_BYTES);
    }

    private void execute(final RespArgs args)
    {
        out.reset();
        harness.processor.execute(harness.session, args, out);
        if (out.buffer().getByte(0) == '-')
        {
            throw new AssertionError("error reply to " + args);
        }
    }

    private String reply(final RespArgs args)
    {
        return harness.reply(harness.session, args);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
