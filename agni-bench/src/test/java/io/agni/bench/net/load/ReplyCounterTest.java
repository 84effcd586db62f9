package io.agni.bench.net.load;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ReplyCounterTest
{
    private static final String MIXED =
        "+OK\r\n" +
        "$5\r\nhello\r\n" +
        "$-1\r\n" +
        ":42\r\n" +
        "-ERR unknown command 'FOO'\r\n" +
        "*3\r\n$1\r\na\r\n*2\r\n:1\r\n$-1\r\n+x\r\n" +
        "*0\r\n" +
        "*-1\r\n" +
        "$0\r\n\r\n";

    @Test
    void countsEveryKindOfReplyInOneRead()
    {
        final ReplyCounter counter = new ReplyCounter();

        assertEquals(9, counter.consume(bytes(MIXED)));
        assertEquals(9, counter.replies());
        assertEquals(1, counter.errors());
        assertEquals(2, counter.nulls());
        assertEquals("ERR unknown command 'FOO'", counter.firstError());
    }

    @Test
    void countsTheSameWhenSplitAtEveryByte()
    {
        final byte[] all = MIXED.getBytes(StandardCharsets.US_ASCII);
        for (int split = 0; split <= all.length; split++)
        {
            final ReplyCounter counter = new ReplyCounter();
            final int first = counter.consume(ByteBuffer.wrap(all, 0, split));
            final int second = counter.consume(ByteBuffer.wrap(all, split, all.length - split));

            assertEquals(9, first + second, "split at " + split);
            assertEquals(1, counter.errors(), "split at " + split);
            assertEquals(2, counter.nulls(), "split at " + split);
            assertEquals("ERR unknown command 'FOO'", counter.firstError(), "split at " + split);
        }
    }

    @Test
    void countsTheSameFedOneByteAtATime()
    {
        final byte[] all = MIXED.getBytes(StandardCharsets.US_ASCII);
        final ReplyCounter counter = new ReplyCounter();
        int replies = 0;
        for (final byte b : all)
        {
            replies += counter.consume(ByteBuffer.wrap(new byte[]{b}));
        }
        assertEquals(9, replies);
    }

    @Test
    void partialReplyIsNotCountedUntilItsLastByte()
    {
        final ReplyCounter counter = new ReplyCounter();

        assertEquals(0, counter.consume(bytes("*2\r\n$3\r\nfoo\r\n$3\r\nba")));
        assertEquals(0, counter.consume(bytes("r\r")));
        assertEquals(1, counter.consume(bytes("\n+OK")));
        assertEquals(1, counter.consume(bytes("\r\n")));
        assertEquals(2, counter.replies());
    }

    @Test
    void skipsALargeBulkBodySpreadOverManyReads()
    {
        final ReplyCounter counter = new ReplyCounter();
        assertEquals(0, counter.consume(bytes("$100000\r\n")));
        final ByteBuffer chunk = ByteBuffer.allocate(1000);
        for (int i = 0; i < 100; i++)
        {
            chunk.clear();
            assertEquals(0, counter.consume(chunk));
        }
        assertEquals(1, counter.consume(bytes("\r\n")));
    }

    @Test
    void errorInsideAnArrayIsNotATopLevelError()
    {
        final ReplyCounter counter = new ReplyCounter();

        assertEquals(1, counter.consume(bytes("*2\r\n-ERR inner\r\n+OK\r\n")));
        assertEquals(0, counter.errors());
        assertNull(counter.firstError());
    }

    @Test
    void keepsOnlyTheFirstErrorText()
    {
        final ReplyCounter counter = new ReplyCounter();

        assertEquals(3, counter.consume(bytes("-WRONGTYPE first\r\n-ERR second\r\n!5\r\nthird\r\n")));
        assertEquals(3, counter.errors());
        assertEquals("WRONGTYPE first", counter.firstError());
    }

    @Test
    void understandsResp3Types()
    {
        final ReplyCounter counter = new ReplyCounter();
        final String resp3 = "_\r\n,3.14\r\n#t\r\n(12345678901234567890\r\n=7\r\ntxt:abc\r\n" +
            "%2\r\n+a\r\n:1\r\n+b\r\n:2\r\n~1\r\n+x\r\n>2\r\n+message\r\n+hi\r\n";

        assertEquals(8, counter.consume(bytes(resp3)));
        assertEquals(1, counter.nulls());
    }

    @Test
    void rejectsBytesThatAreNotResp()
    {
        assertEquals(ReplyCounter.PROTOCOL_ERROR, new ReplyCounter().consume(bytes("HTTP/1.1 400\r\n")));
        assertEquals(ReplyCounter.PROTOCOL_ERROR, new ReplyCounter().consume(bytes("$abc\r\n")));
        assertEquals(ReplyCounter.PROTOCOL_ERROR, new ReplyCounter().consume(bytes("$-2\r\n")));
        assertEquals(ReplyCounter.PROTOCOL_ERROR, new ReplyCounter().consume(bytes("$5\rx")));
        assertEquals(ReplyCounter.PROTOCOL_ERROR, new ReplyCounter().consume(bytes("*\r\n")));
    }

    @Test
    void rejectsNestingDeeperThanTheLimit()
    {
        final String deep = "*1\r\n".repeat(ReplyCounter.MAX_DEPTH + 1) + "+x\r\n";

        assertEquals(ReplyCounter.PROTOCOL_ERROR, new ReplyCounter().consume(bytes(deep)));
        assertEquals(1, new ReplyCounter().consume(bytes("*1\r\n".repeat(ReplyCounter.MAX_DEPTH) + "+x\r\n")));
    }

    @Test
    void resetForgetsAPartialReplyAndTheCounts()
    {
        final ReplyCounter counter = new ReplyCounter();
        counter.consume(bytes("-ERR x\r\n$10\r\nabc"));

        counter.reset();

        assertEquals(0, counter.replies());
        assertEquals(0, counter.errors());
        assertEquals(1, counter.consume(bytes("+OK\r\n")));
    }

    @Test
    void movesThePositionToTheLimit()
    {
        final ByteBuffer buffer = bytes("+OK\r\n+O");

        new ReplyCounter().consume(buffer);

        assertEquals(buffer.limit(), buffer.position());
    }

    private static ByteBuffer bytes(final String text)
    {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    }
}
