package io.agni.protocol.command;

import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.agni.protocol.command.StringCommandsTest.NIL;
import static io.agni.protocol.command.StringCommandsTest.OK;
import static io.agni.protocol.command.StringCommandsTest.bulk;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The GET family copies a value from the store straight into the reply buffer, behind room left for the bulk
 * header: replies to pipelined commands, appended to one writer as a connection does, must follow each other byte
 * for byte whatever the mix of hits, misses, empty values, header lengths, errors and buffer growth.
 */
class StringCommandsReplyBufferTest
{
    private final CommandHarness harness = new CommandHarness();
    private final RespWriter out = new RespWriter(64);
    private final StringBuilder expected = new StringBuilder();

    @AfterEach
    void close()
    {
        harness.close();
    }

    @Test
    void pipelinedGetsMixingHitsMissesAndSizesAreExact()
    {
        final int[] sizes = {0, 1, 9, 10, 100, 3, 99_999, 100, 100_000, 7, 0};
        for (int i = 0; i < sizes.length; i++)
        {
            harness.reply("SET", "k" + i, value(sizes[i], i));
        }

        for (int round = 0; round < 2; round++)
        {
            for (int i = 0; i < sizes.length; i++)
            {
                execute(bulk(value(sizes[i], i)), "GET", "k" + i);
                execute(NIL, "GET", "missing" + i);
            }
        }
        execute("*4\r\n" + bulk(value(100, 4)) + NIL + bulk(value(100_000, 8)) + bulk(""),
            "MGET", "k4", "nokey", "k8", "k10");

        assertWritten();
    }

    @Test
    void getFamilyRepliesFollowErrorsAndWritesInOnePipeline()
    {
        harness.reply("SET", "a", "alpha");
        harness.reply("SET", "b", value(1_000, 1));

        execute(bulk("alpha"), "GET", "a");
        execute("-ERR wrong number of arguments for 'get' command\r\n", "GET");
        execute(bulk("alpha"), "GETSET", "a", "beta");
        execute(bulk(value(1_000, 1)), "GETDEL", "b");
        execute(NIL, "GETDEL", "b");
        execute(OK, "SET", "c", "gamma");
        execute(bulk("gamma"), "SET", "c", "delta", "GET");
        execute(bulk("delta"), "GETEX", "c", "PERSIST");
        execute(bulk("eta"), "GETRANGE", "a", "1", "3");
        execute(bulk("3.5"), "INCRBYFLOAT", "f", "3.5");
        execute(bulk("beta"), "GET", "a");

        assertWritten();
    }

    private void execute(final String reply, final String... args)
    {
        expected.append(reply);
        harness.processor.execute(harness.session, RespArgs.of(args), out);
    }

    private void assertWritten()
    {
        final byte[] bytes = new byte[out.position()];
        out.buffer().getBytes(0, bytes);
        assertEquals(expected.toString(), new String(bytes, StandardCharsets.ISO_8859_1));
    }

    private static String value(final int length, final int seed)
    {
        final char[] chars = new char[length];
        for (int i = 0; i < length; i++)
        {
            chars[i] = (char)('a' + (i * 7 + seed) % 26);
        }
        return new String(chars);
    }
}
