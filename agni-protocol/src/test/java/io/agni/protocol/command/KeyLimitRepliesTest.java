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
 * A key over the store's key limit gets the store's own refusal, {@code ERR key too large: length=..., limit=...},
 * from every command, APPEND and SETRANGE included: only a value past the limit gets Redis's
 * {@code string exceeds maximum allowed size} from those two (docs/protocol.md, "Failures").
 */
class KeyLimitRepliesTest
{
    private static final long START_MILLIS = 1_700_000_000_000L;
    private static final String KEY_TOO_LARGE = "-ERR key too large: length=9, limit=8\r\n";
    private static final String LONG_KEY = "123456789";

    private final OffHeapStore store;
    private final CommandProcessor processor;
    private final Session session = new Session(1, "127.0.0.1:50001", "127.0.0.1:6379", START_MILLIS);
    private final RespWriter out = new RespWriter(256);

    KeyLimitRepliesTest()
    {
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(START_MILLIS);
        store = OffHeapStore.builder().shards(1).maxMemory(1L << 20).maxKeyLength(8).maxValueLength(16).clock(clock)
            .build();
        processor = new CommandProcessor(store, new LocalServerContext(null, START_MILLIS), clock);
    }

    @AfterEach
    void close()
    {
        processor.free();
        store.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {"SET;v", "APPEND;v", "SETRANGE;0 v", "GET;", "INCR;"})
    void aKeyOverTheLimitIsKeyTooLargeFromEveryCommand(final String command, final String rest)
    {
        final String[] args = (command + " " + LONG_KEY + (rest == null ? "" : " " + rest)).split(" ");

        assertEquals(KEY_TOO_LARGE, reply(args));
        assertEquals(0, store.size());
    }

    @Test
    void aValuePastTheLimitIsStillStringExceedsMaximumAllowedSize()
    {
        final String tooLong = "-ERR string exceeds maximum allowed size (proto-max-bulk-len)\r\n";
        assertEquals(":10\r\n", reply("APPEND", "k", "0123456789"));

        assertEquals(tooLong, reply("APPEND", "k", "0123456"));
        assertEquals(tooLong, reply("SETRANGE", "k", "10", "0123456"));
        assertEquals("$10\r\n0123456789\r\n", reply("GET", "k"));
    }

    private String reply(final String... args)
    {
        out.reset();
        processor.execute(session, RespArgs.of(args), out);
        final byte[] bytes = new byte[out.position()];
        out.buffer().getBytes(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
