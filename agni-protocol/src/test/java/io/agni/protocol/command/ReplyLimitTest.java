package io.agni.protocol.command;

import io.agni.protocol.BufferLimitException;
import io.agni.protocol.BufferMemory;
import io.agni.protocol.GrowableDirectBuffer;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reply that would take the writer past its limit is refused while it is being written, before the buffer grows
 * to hold it: the value is never copied whole, and a command that reads and writes leaves the store unchanged.
 */
class ReplyLimitTest
{
    private static final int LIMIT = 64 * 1024;
    private static final byte[] BIG = filled(1 << 20);

    private final CommandHarness harness = new CommandHarness();
    private final RespWriter out = new RespWriter(1024, LIMIT, BufferMemory.UNCOUNTED);

    @AfterEach
    void close()
    {
        out.free();
        harness.close();
    }

    @Test
    void aGetOfAValueLargerThanTheLimitStopsBeforeTheBufferGrowsToHoldIt()
    {
        harness.store.set(bytes("big"), BIG);

        assertRefused("GET", "big");
    }

    @Test
    void anMgetStopsAtTheValueThatWouldPassTheLimit()
    {
        harness.store.set(bytes("small"), bytes("v"));
        harness.store.set(bytes("big"), BIG);

        assertRefused("MGET", "small", "small", "big", "small");
    }

    @Test
    void anMgetOfManySmallValuesStopsWhenTheirSumPassesTheLimit()
    {
        final byte[] value = filled(10 * 1024);
        final String[] command = new String[11];
        command[0] = "MGET";
        for (int i = 1; i < command.length; i++)
        {
            harness.store.set(bytes("k" + i), value);
            command[i] = "k" + i;
        }

        assertRefused(command);
    }

    /**
     * MGET has the store copy its values behind room for {@link StringCommands#MGET_FRAMING_PER_KEY} bytes of
     * framing a key, so it is refused once those pass the limit, a few bytes before its finished reply would.
     */
    @Test
    void anMgetNeedsRoomForItsValuesAndFifteenBytesAKeyWhileTheStoreCopies()
    {
        final int arrayHeader = "*1\r\n".length();
        final int fits = LIMIT - arrayHeader - StringCommands.MGET_FRAMING_PER_KEY;
        harness.store.set(bytes("fits"), filled(fits));
        harness.store.set(bytes("tight"), filled(fits + 3));

        out.reset();
        harness.processor.execute(harness.session, RespArgs.of("MGET", "fits"), out);
        assertEquals(GrowableDirectBuffer.NOT_REFUSED, out.refusal());
        assertEquals(arrayHeader + 1 + 5 + 2 + fits + 2, out.position());

        assertTrue(arrayHeader + 1 + 5 + 2 + fits + 3 + 2 <= LIMIT, "the finished reply would fit");
        out.reset();
        assertThrows(BufferLimitException.class,
            () -> harness.processor.execute(harness.session, RespArgs.of("MGET", "tight"), out));
        assertEquals(GrowableDirectBuffer.REFUSED_BY_LIMIT, out.refusal());
        assertTrue(out.capacity() <= LIMIT, "the buffer never grew past the limit: " + out.capacity());
        out.clearRefusal();
    }

    @Test
    void keysStopsCollectingOnceItsReplyCouldNotBeSent()
    {
        final byte[] longKey = new byte[1000];
        for (int i = 0; i < 100; i++)
        {
            Arrays.fill(longKey, (byte)('a' + i % 26));
            longKey[0] = (byte)i;
            harness.store.set(longKey.clone(), bytes("v"));
        }

        assertRefused("KEYS", "*");
    }

    @Test
    void aScanReplyPastTheLimitIsRefused()
    {
        final byte[] longKey = new byte[1000];
        for (int i = 0; i < 100; i++)
        {
            longKey[0] = (byte)i;
            harness.store.set(longKey.clone(), bytes("v"));
        }

        assertRefused("SCAN", "0", "COUNT", "100000");
    }

    @Test
    void aRefusedGetdelOrGetsetLeavesTheStoreUnchanged()
    {
        harness.store.set(bytes("big"), BIG);

        assertRefused("GETDEL", "big");
        assertRefused("SET", "big", "new", "GET");
        assertRefused("GETSET", "big", "new");

        assertArrayEquals(BIG, harness.store.get(bytes("big")));
    }

    @Test
    void aReplyThatFitsIsWrittenWhole()
    {
        final byte[] value = filled(LIMIT - 100);
        harness.store.set(bytes("fits"), value);

        harness.processor.execute(harness.session, RespArgs.of("GET", "fits"), out);

        assertEquals(GrowableDirectBuffer.NOT_REFUSED, out.refusal());
        assertEquals(1 + 5 + 2 + value.length + 2, out.position());
    }

    private void assertRefused(final String... command)
    {
        out.reset();
        out.ok();

        assertThrows(BufferLimitException.class,
            () -> harness.processor.execute(harness.session, RespArgs.of(command), out), String.join(" ", command));

        assertEquals(GrowableDirectBuffer.REFUSED_BY_LIMIT, out.refusal(), "the refusal is remembered");
        assertTrue(out.capacity() <= LIMIT, "the buffer never grew past the limit: " + out.capacity());
        out.clearRefusal();
    }

    private static byte[] filled(final int length)
    {
        final byte[] value = new byte[length];
        Arrays.fill(value, (byte)'x');
        return value;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
