package io.agni.protocol;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every RESP2 reply type and the RESP3 types the writer knows, byte for byte, and the buffer's life: growth,
 * compaction, reset.
 */
class RespWriterTest
{
    private final RespWriter writer = new RespWriter(16);

    @Test
    void resp3TypesAreTheirResp2FormsByDefault()
    {
        assertEquals(2, writer.protocol());
        writer.nullBulk().nullArray().mapHeader(2).mapHeader(0).setHeader(3).setHeader(0).verbatim("a:1\r\n");

        assertWritten("$-1\r\n*-1\r\n*4\r\n*0\r\n*3\r\n*0\r\n$5\r\na:1\r\n\r\n");
    }

    @Test
    void resp3WritesNullMapSetAndVerbatimTypes()
    {
        writer.protocol(3);
        writer.nullBulk().nullArray().mapHeader(2).mapHeader(0).setHeader(3).setHeader(0).verbatim("a:1\r\n")
            .verbatim("");

        assertWritten("_\r\n_\r\n%2\r\n%0\r\n~3\r\n~0\r\n=9\r\ntxt:a:1\r\n\r\n=4\r\ntxt:\r\n");
    }

    @Test
    void resp3LeavesTheOtherRepliesAsInResp2()
    {
        writer.protocol(3);
        writer.ok().integer(7).bulk(new byte[]{'x'}).arrayHeader(2).error("ERR x").simpleString("s");
        writer.protocol(2);
        writer.nullBulk();

        assertWritten("+OK\r\n:7\r\n$1\r\nx\r\n*2\r\n-ERR x\r\n+s\r\n$-1\r\n");
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 1, 4, -3 })
    void onlyProtocolVersions2And3AreAccepted(final int version)
    {
        assertEquals("unsupported protocol version: " + version,
            assertThrows(IllegalArgumentException.class, () -> writer.protocol(version)).getMessage());
    }

    @Test
    void okAndPongAreStatusReplies()
    {
        writer.ok().pong();

        assertWritten("+OK\r\n+PONG\r\n");
    }

    @Test
    void simpleStringIsWrittenAfterAPlus()
    {
        writer.simpleString("hello world");

        assertWritten("+hello world\r\n");
    }

    @Test
    void simpleStringCannotBeSplitByCrOrLf()
    {
        writer.simpleString("a\r\nb\nc\r");

        assertWritten("+a  b c \r\n");
    }

    @Test
    void errorIsWrittenAfterAMinus()
    {
        writer.error("ERR unknown command 'x', with args beginning with: ");

        assertWritten("-ERR unknown command 'x', with args beginning with: \r\n");
    }

    @Test
    void errorCannotBeSplitByCrOrLf()
    {
        writer.error("ERR Protocol error: expected '$', got '\r'\nsecond line");

        assertWritten("-ERR Protocol error: expected '$', got ' ' second line\r\n");
    }

    @Test
    void errorWithNonAsciiTextIsUtf8WithCrAndLfReplaced()
    {
        writer.error("ERR caf\u00e9\r\n");

        assertWrittenBytes(concat(bytes("-ERR caf"), new byte[]{(byte)0xC3, (byte)0xA9}, bytes("  \r\n")));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, -1, -2, -3, 16, 17, 1000, -1000, Integer.MAX_VALUE, Integer.MIN_VALUE,
        Long.MAX_VALUE, Long.MIN_VALUE})
    void integerIsWrittenInDecimal(final long value)
    {
        writer.integer(value);

        assertWritten(":" + value + "\r\n");
    }

    @Test
    void integerExtremesAreExact()
    {
        writer.integer(Long.MIN_VALUE).integer(Long.MAX_VALUE);

        assertWritten(":-9223372036854775808\r\n:9223372036854775807\r\n");
    }

    @Test
    void binaryBulkFromAnArrayIsWrittenVerbatim()
    {
        final byte[] value = {'\r', '\n', 0, '$', (byte)0xFF, '\n'};

        writer.bulk(value);

        assertWrittenBytes(concat(bytes("$6\r\n"), value, bytes("\r\n")));
    }

    @Test
    void bulkFromABufferRangeIsCopied()
    {
        final UnsafeBuffer source = new UnsafeBuffer(bytes("xxhello\r\n\0yy"));

        writer.bulk(source, 2, 8);

        assertWrittenBytes(bytes("$8\r\nhello\r\n\0\r\n"));
    }

    @Test
    void emptyBulkHasAnEmptyBody()
    {
        writer.bulk(new byte[0]).bulk(new UnsafeBuffer(new byte[4]), 2, 0).bulk("");

        assertWritten("$0\r\n\r\n$0\r\n\r\n$0\r\n\r\n");
    }

    @Test
    void textBulkIsUtf8()
    {
        writer.bulk("caf\u00e9");

        assertWrittenBytes(concat(bytes("$5\r\ncaf"), new byte[]{(byte)0xC3, (byte)0xA9}, bytes("\r\n")));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 7, -5, 10, 99, 100, -100, Long.MAX_VALUE, Long.MIN_VALUE})
    void bulkDecimalIsTheIntegersText(final long value)
    {
        writer.bulkDecimal(value);

        final String text = Long.toString(value);
        assertWritten("$" + text.length() + "\r\n" + text + "\r\n");
    }

    @Test
    void nullsAndArrayHeaders()
    {
        writer.nullBulk().nullArray().arrayHeader(0).arrayHeader(3).arrayHeader(1_000_000);

        assertWritten("$-1\r\n*-1\r\n*0\r\n*3\r\n*1000000\r\n");
    }

    @Test
    void rawBytesAreCopiedAsTheyAre()
    {
        writer.raw(new UnsafeBuffer(bytes("+QUEUED\r\n")));

        assertWritten("+QUEUED\r\n");
    }

    @Test
    void bufferGrowsBeyondItsInitialCapacity()
    {
        final byte[] value = new byte[100_000];
        for (int i = 0; i < value.length; i++)
        {
            value[i] = (byte)i;
        }

        writer.ok().bulk(value).integer(42);

        assertWrittenBytes(concat(bytes("+OK\r\n$100000\r\n"), value, bytes("\r\n:42\r\n")));
    }

    @Test
    void compactDropsWrittenOutBytesAndKeepsTheRest()
    {
        writer.ok().integer(1).nullBulk();

        writer.compact(5);

        assertWritten(":1\r\n$-1\r\n");
        writer.pong();
        assertWritten(":1\r\n$-1\r\n+PONG\r\n");
    }

    @Test
    void compactOfEverythingEmptiesTheWriter()
    {
        writer.ok();

        writer.compact(5);

        assertEquals(0, writer.position());
    }

    @Test
    void compactOfNothingChangesNothing()
    {
        writer.ok();

        writer.compact(0);

        assertWritten("+OK\r\n");
    }

    @Test
    void compactBeyondThePositionIsRefused()
    {
        writer.ok();

        final IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class, () -> writer.compact(6));

        assertEquals("consumed=6, position=5", ex.getMessage());
    }

    @Test
    void resetForgetsEverything()
    {
        writer.ok().integer(7);

        writer.reset();
        writer.pong();

        assertWritten("+PONG\r\n");
    }

    @Test
    void positionCanDropAPartialReply()
    {
        writer.ok();
        final int mark = writer.position();
        writer.arrayHeader(2).bulk(bytes("a"));

        writer.position(mark);

        assertWritten("+OK\r\n");
    }

    @Test
    void positionOutsideTheBufferIsRefused()
    {
        assertThrows(IndexOutOfBoundsException.class, () -> writer.position(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> writer.position(writer.buffer().capacity() + 1));
    }

    @Test
    void ensureRemainingMakesRoomForDirectWrites()
    {
        writer.ensureRemaining(1000);
        writer.buffer().putStringWithoutLengthAscii(0, "+HI\r\n");
        writer.position(5);

        assertWritten("+HI\r\n");
    }

    @Test
    void aReplyPastTheLimitIsRefusedBeforeTheBufferGrows()
    {
        final RespWriter limited = new RespWriter(64, 1024, BufferMemory.UNCOUNTED);
        try
        {
            limited.ok();
            final int at = limited.reserveBulk();

            assertThrows(BufferLimitException.class, () -> limited.buffer().putBytes(at, new byte[1020]));

            assertEquals(64, limited.capacity(), "nothing was allocated for the value");
            assertEquals(5, limited.position(), "the replies before it are intact");
            assertEquals(GrowableDirectBuffer.REFUSED_BY_LIMIT, limited.refusal());
            assertThrows(BufferLimitException.class, () -> limited.checkRoom(1020));
            limited.checkRoom(1019);
        }
        finally
        {
            limited.free();
        }
    }

    @Test
    void growingFreesTheBufferItReplacesAtOnce()
    {
        final long before = DirectMemoryMeter.used();
        final RespWriter growing = new RespWriter(1 << 20);
        try
        {
            for (int length = 2 << 20; length <= 64 << 20; length <<= 1)
            {
                growing.ensureRemaining(length);
            }
            final long held = DirectMemoryMeter.used() - before;

            assertEquals(64 << 20, growing.capacity());
            assertTrue(held <= (64 << 20) + (4 << 20),
                "only the 64 MiB buffer is held, not every buffer it grew through: held=" + held);
        }
        finally
        {
            growing.free();
        }
        assertTrue(DirectMemoryMeter.used() - before <= 4 << 20, "free gives it all back at once");
    }

    @Test
    void shrinkReturnsToASmallBufferKeepingWhatIsEncoded()
    {
        final RespWriter large = new RespWriter(16);
        try
        {
            large.ensureRemaining(1 << 20);
            large.ok();

            large.shrink(16);

            assertEquals(16, large.capacity());
            final byte[] bytes = new byte[large.position()];
            large.buffer().getBytes(0, bytes);
            assertEquals("+OK\r\n", new String(bytes, StandardCharsets.ISO_8859_1));
        }
        finally
        {
            large.free();
        }
    }

    private void assertWritten(final String expected)
    {
        assertEquals(expected, new String(written(), StandardCharsets.ISO_8859_1));
    }

    private void assertWrittenBytes(final byte[] expected)
    {
        assertEquals(new String(expected, StandardCharsets.ISO_8859_1),
            new String(written(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void reservedBulkIsEncodedAroundTheBytesCopiedIn()
    {
        writer.ok();
        final int at = writer.reserveBulk();
        writer.buffer().putBytes(at, bytes("hi"));

        writer.commitBulk(at, 2).integer(7);

        assertWritten("+OK\r\n$2\r\nhi\r\n:7\r\n");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 9, 10, 99, 100, 999, 1000, 12_345, 100_000})
    void reservedBulksOfEveryHeaderLengthInTurnAreExact(final int length)
    {
        // Each length's header differs from the last one's in turn: the bytes copied in move to fit it.
        final int[] lengths = {length, 3, length, length, 100, length};
        final StringBuilder expected = new StringBuilder();
        for (int n = 0; n < lengths.length; n++)
        {
            final byte[] value = new byte[lengths[n]];
            for (int i = 0; i < value.length; i++)
            {
                value[i] = (byte)('a' + (i + n) % 26);
            }
            final int at = writer.reserveBulk();
            writer.buffer().putBytes(at, value);
            writer.commitBulk(at, value.length);
            expected.append('$').append(value.length).append("\r\n")
                .append(new String(value, StandardCharsets.ISO_8859_1)).append("\r\n");
        }

        assertWritten(expected.toString());
    }

    @Test
    void reservedBulkThatGrowsTheBufferKeepsWhatWasWrittenBefore()
    {
        final byte[] value = new byte[50_000];
        for (int i = 0; i < value.length; i++)
        {
            value[i] = (byte)(i * 31);
        }
        writer.ok();

        final int at = writer.reserveBulk();
        writer.buffer().putBytes(at, value);
        writer.commitBulk(at, value.length);

        assertWrittenBytes(concat(bytes("+OK\r\n$50000\r\n"), value, bytes("\r\n")));
    }

    @Test
    void reservedBulkCanBeReplacedByAnotherReply()
    {
        writer.ok();
        final int at = writer.reserveBulk();
        writer.buffer().putBytes(at, bytes("garbage"));

        writer.nullBulk();

        assertWritten("+OK\r\n$-1\r\n");
    }

    @Test
    void commitOfAnOffsetThatWasNotReservedIsRefused()
    {
        final int at = writer.reserveBulk();
        writer.ok();

        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> writer.commitBulk(at, 1));

        assertEquals("not a reserved bulk: valueOffset=" + at + ", length=1, position=5", ex.getMessage());
        assertWritten("+OK\r\n");
    }

    private byte[] written()
    {
        final byte[] bytes = new byte[writer.position()];
        writer.buffer().getBytes(0, bytes);
        return bytes;
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(final byte[]... parts)
    {
        int length = 0;
        for (final byte[] part : parts)
        {
            length += part.length;
        }
        final byte[] result = new byte[length];
        int offset = 0;
        for (final byte[] part : parts)
        {
            System.arraycopy(part, 0, result, offset, part.length);
            offset += part.length;
        }
        return result;
    }
}
