package io.agni.net;

import io.agni.api.StoreConnectionException;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.agni.net.ClientReplyReader.ARRAY;
import static io.agni.net.ClientReplyReader.BULK;
import static io.agni.net.ClientReplyReader.ERROR;
import static io.agni.net.ClientReplyReader.INTEGER;
import static io.agni.net.ClientReplyReader.NEED_MORE;
import static io.agni.net.ClientReplyReader.NULL_ARRAY;
import static io.agni.net.ClientReplyReader.NULL_BULK;
import static io.agni.net.ClientReplyReader.SIMPLE_STRING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientReplyReaderTest
{
    private final ClientReplyReader reader = new ClientReplyReader();

    // ------------------------------------------------------------------------------------------------------------
    // Every type
    // ------------------------------------------------------------------------------------------------------------

    @Test
    void readsASimpleString()
    {
        assertEquals(List.of("+OK"), readAll("+OK\r\n"));
    }

    @Test
    void readsAnError()
    {
        assertEquals(List.of("-ERR value is not an integer or out of range"),
            readAll("-ERR value is not an integer or out of range\r\n"));
    }

    @Test
    void readsIntegersAcrossTheWholeRange()
    {
        assertEquals(List.of(":0"), readAll(":0\r\n"));
        assertEquals(List.of(":-2"), readAll(":-2\r\n"));
        assertEquals(List.of(":1000"), readAll(":1000\r\n"));
        assertEquals(List.of(":9223372036854775807"), readAll(":9223372036854775807\r\n"));
        assertEquals(List.of(":-9223372036854775808"), readAll(":-9223372036854775808\r\n"));
    }

    @Test
    void readsABulkStringWithCrlfAndZerosInside()
    {
        final String reply = "$7\r\na\r\nb\0\r\n\r\n";

        assertEquals(List.of("$a\r\nb\0\r\n"), readAll(reply));
    }

    @Test
    void readsAnEmptyBulkStringAsEmptyNotNull()
    {
        assertEquals(List.of("$"), readAll("$0\r\n\r\n"));
    }

    @Test
    void readsTheNullBulkStringAndTheNullArray()
    {
        assertEquals(List.of("nil"), readAll("$-1\r\n"));
        assertEquals(List.of("*nil"), readAll("*-1\r\n"));
    }

    @Test
    void readsAnEmptyArray()
    {
        assertEquals(List.of("*0"), readAll("*0\r\n"));
    }

    @Test
    void readsAnArrayOfMixedElementsInOrder()
    {
        assertEquals(List.of("*5", "$a", "nil", ":7", "+OK", "-ERR x"),
            readAll("*5\r\n$1\r\na\r\n$-1\r\n:7\r\n+OK\r\n-ERR x\r\n"));
    }

    @Test
    void readsNestedArraysDepthFirst()
    {
        // The shape of a SCAN reply, and an empty and a null array inside another.
        assertEquals(List.of("*2", "$17", "*2", "$k1", "$k2"), readAll("*2\r\n$2\r\n17\r\n*2\r\n$2\r\nk1\r\n$2\r\nk2\r\n"));
        assertEquals(List.of("*3", "*0", "*nil", "*1", "*1", ":1"), readAll("*3\r\n*0\r\n*-1\r\n*1\r\n*1\r\n:1\r\n"));
    }

    @Test
    void readsOneReplyAndStopsAtItsEndLeavingTheNext()
    {
        final UnsafeBuffer buffer = buffer("+OK\r\n:5\r\n$1\r\nx\r\n");

        reader.reset(0);
        assertEquals(5, reader.read(buffer, buffer.capacity()));
        assertEquals(1, reader.elements());

        reader.reset(5);
        assertEquals(9, reader.read(buffer, buffer.capacity()));
        assertEquals(5, reader.integer(0));

        reader.reset(9);
        assertEquals(buffer.capacity(), reader.read(buffer, buffer.capacity()));
        assertEquals(BULK, reader.type(0));
        assertEquals(13, reader.offset(0));
    }

    @Test
    void resetForgetsThePreviousReply()
    {
        readAll("*3\r\n:1\r\n:2\r\n:3\r\n");

        assertEquals(List.of(":9"), readAll(":9\r\n"));
        assertEquals(1, reader.elements());
    }

    @Test
    void elementListGrowsForALongArray()
    {
        final StringBuilder reply = new StringBuilder("*1000\r\n");
        for (int i = 0; i < 1000; i++)
        {
            reply.append(':').append(i).append("\r\n");
        }

        final List<String> elements = readAll(reply.toString());

        assertEquals(1001, elements.size());
        assertEquals(":999", elements.get(1000));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Partial reads
    // ------------------------------------------------------------------------------------------------------------

    @Test
    void replyFedOneByteAtATimeNeedsMoreUntilItsLastByte()
    {
        final String reply = "*4\r\n$5\r\nhello\r\n:-42\r\n*2\r\n+OK\r\n$-1\r\n-ERR no\r\n";
        final UnsafeBuffer buffer = buffer(reply);

        reader.reset(0);
        for (int limit = 0; limit < buffer.capacity(); limit++)
        {
            assertEquals(NEED_MORE, reader.read(buffer, limit), "limit " + limit);
        }
        assertEquals(buffer.capacity(), reader.read(buffer, buffer.capacity()));
        assertEquals(List.of("*4", "$hello", ":-42", "*2", "+OK", "nil", "-ERR no"), describe(buffer));
    }

    @Test
    void replyCutAtEveryPointGivesTheSameResult()
    {
        final String reply = "*3\r\n$3\r\nk\r\n\r\n:123\r\n*1\r\n$0\r\n\r\n";
        final List<String> whole = readAll(reply);
        final UnsafeBuffer buffer = buffer(reply);

        for (int cut = 0; cut <= buffer.capacity(); cut++)
        {
            reader.reset(0);
            final int first = reader.read(buffer, cut);
            final int end = first == NEED_MORE ? reader.read(buffer, buffer.capacity()) : first;
            assertEquals(buffer.capacity(), end, "cut at " + cut);
            assertEquals(whole, describe(buffer), "cut at " + cut);
        }
    }

    @Test
    void lineCutBetweenItsCrAndLfCompletesWithTheLf()
    {
        final UnsafeBuffer buffer = buffer(":12\r\n");

        reader.reset(0);
        assertEquals(NEED_MORE, reader.read(buffer, 4));
        assertEquals(5, reader.read(buffer, 5));
        assertEquals(12, reader.integer(0));
    }

    @Test
    void readerResumesInABiggerBufferHoldingTheSameBytes()
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(8);
        final byte[] reply = "$20\r\n01234567890123456789\r\n".getBytes(StandardCharsets.US_ASCII);
        buffer.putBytes(0, reply, 0, 8);

        reader.reset(0);
        assertEquals(NEED_MORE, reader.read(buffer, 8));
        assertEquals(27, reader.needed(8), "the whole bulk string, so the caller can grow once");

        buffer.putBytes(8, reply, 8, reply.length - 8);
        assertEquals(reply.length, reader.read(buffer, reply.length));
        assertEquals(20, reader.length(0));
        assertEquals("01234567890123456789", buffer.getStringWithoutLengthAscii(reader.offset(0), 20));
    }

    @Test
    void neededIsOneByteMoreOutsideABulkString()
    {
        final UnsafeBuffer buffer = buffer("*2\r\n:1");

        reader.reset(0);
        assertEquals(NEED_MORE, reader.read(buffer, buffer.capacity()));
        assertEquals(buffer.capacity() + 1, reader.needed(buffer.capacity()));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Errors and limits
    // ------------------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"?OK\r\n", "!x\r\n", "%1\r\n", "_\r\n", "\r\n", "OK\r\n"})
    void readerRejectsATypeByteThatIsNotResp2(final String reply)
    {
        assertProtocolError("reply type byte not valid", reply);
    }

    @Test
    void readerRejectsBulkLengthAboveLimitBeforeThePayloadArrives()
    {
        final ClientReplyReader small = new ClientReplyReader(16, 100, 100, 4);
        final UnsafeBuffer header = buffer("$17\r\n");

        small.reset(0);
        final StoreConnectionException ex =
            assertThrows(StoreConnectionException.class, () -> small.read(header, header.capacity()));
        assertEquals("protocol error: reply bulk too long: length=17, limit=16", ex.getMessage());
    }

    @Test
    void readerAcceptsBulkLengthAtTheLimit()
    {
        final ClientReplyReader small = new ClientReplyReader(4, 100, 100, 4);
        final UnsafeBuffer buffer = buffer("$4\r\nabcd\r\n");

        small.reset(0);
        assertEquals(buffer.capacity(), small.read(buffer, buffer.capacity()));
    }

    @Test
    void readerRejectsTheDefaultLimitPlusOneAsABulkLength()
    {
        assertProtocolError("reply bulk too long: length=536870913, limit=536870912", "$536870913\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"$-2\r\n", "$-100\r\n"})
    void readerRejectsNegativeBulkLengthsOtherThanNull(final String reply)
    {
        assertProtocolError("reply bulk length not valid", reply);
    }

    @Test
    void readerRejectsArrayCountAboveLimit()
    {
        final ClientReplyReader small = new ClientReplyReader(100, 3, 100, 4);
        final UnsafeBuffer header = buffer("*4\r\n");

        small.reset(0);
        final StoreConnectionException ex =
            assertThrows(StoreConnectionException.class, () -> small.read(header, header.capacity()));
        assertEquals("protocol error: reply array too long: count=4, limit=3", ex.getMessage());
    }

    @Test
    void readerRejectsNegativeArrayCountsOtherThanNull()
    {
        assertProtocolError("reply array length not valid: -5", "*-5\r\n");
    }

    @Test
    void readerRejectsArraysNestedDeeperThanTheLimit()
    {
        final ClientReplyReader shallow = new ClientReplyReader(100, 100, 100, 2);
        final UnsafeBuffer ok = buffer("*1\r\n*1\r\n:1\r\n");
        final UnsafeBuffer deep = buffer("*1\r\n*1\r\n*1\r\n:1\r\n");

        shallow.reset(0);
        assertEquals(ok.capacity(), shallow.read(ok, ok.capacity()));
        shallow.reset(0);
        final StoreConnectionException ex =
            assertThrows(StoreConnectionException.class, () -> shallow.read(deep, deep.capacity()));
        assertEquals("protocol error: reply nested too deep: depth=3, limit=2", ex.getMessage());
    }

    @Test
    void readerRejectsASimpleStringLongerThanTheLimitBeforeItsEndArrives()
    {
        final ClientReplyReader small = new ClientReplyReader(100, 100, 8, 4);
        final UnsafeBuffer exactly = buffer("+12345678\r\n");
        final UnsafeBuffer tooLongSoFar = buffer("+123456789");

        small.reset(0);
        assertEquals(exactly.capacity(), small.read(exactly, exactly.capacity()));
        small.reset(0);
        final StoreConnectionException ex =
            assertThrows(StoreConnectionException.class, () -> small.read(tooLongSoFar, tooLongSoFar.capacity()));
        assertEquals("protocol error: reply line longer than the limit: limit=8", ex.getMessage());
    }

    @Test
    void readerRejectsAnIntegerLineThatNeverEnds()
    {
        assertProtocolError("reply line longer than the limit: limit=20", ":" + "1".repeat(30));
    }

    @ParameterizedTest
    @ValueSource(strings = {":\r\n", ":-\r\n", ":+5\r\n", ":01\r\n", ":1a\r\n", ": 1\r\n", ":9223372036854775808\r\n",
        ":-9223372036854775809\r\n", "$1x\r\n", "*\r\n"})
    void readerRejectsANumberThatIsNotACanonical64BitInteger(final String reply)
    {
        assertProtocolError("reply integer", reply);
    }

    @Test
    void readerRejectsALineWithACrNotFollowedByLf()
    {
        assertProtocolError("reply line not ended by CRLF", "+OK\rX\n");
    }

    @Test
    void readerRejectsABulkStringNotEndedByCrlf()
    {
        assertProtocolError("reply bulk string not ended by CRLF", "$2\r\nabcd\r\n");
    }

    @Test
    void readerIsUsableForANewReplyAfterAProtocolError()
    {
        final UnsafeBuffer bad = buffer("?\r\n");
        reader.reset(0);
        assertThrows(StoreConnectionException.class, () -> reader.read(bad, bad.capacity()));

        assertEquals(List.of(":1"), readAll(":1\r\n"));
    }

    @Test
    void negativeLimitsAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new ClientReplyReader(-1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ClientReplyReader(1, 1, 1, -1));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Helpers
    // ------------------------------------------------------------------------------------------------------------

    private void assertProtocolError(final String expectedMessageStart, final String reply)
    {
        final UnsafeBuffer buffer = buffer(reply);
        reader.reset(0);
        final StoreConnectionException ex =
            assertThrows(StoreConnectionException.class, () -> reader.read(buffer, buffer.capacity()));
        assertTrue(ex.getMessage().startsWith("protocol error: " + expectedMessageStart),
            () -> "message of " + reply + ": " + ex.getMessage());
    }

    private List<String> readAll(final String reply)
    {
        final UnsafeBuffer buffer = buffer(reply);
        reader.reset(0);
        assertEquals(buffer.capacity(), reader.read(buffer, buffer.capacity()), "end of " + reply);
        return describe(buffer);
    }

    /**
     * The elements of the completed reply as text: {@code +text}, {@code -text}, {@code :n}, {@code $bytes},
     * {@code *count}, {@code nil}, {@code *nil}.
     */
    private List<String> describe(final UnsafeBuffer buffer)
    {
        final List<String> elements = new ArrayList<>();
        for (int i = 0; i < reader.elements(); i++)
        {
            switch (reader.type(i))
            {
                case SIMPLE_STRING:
                case ERROR:
                case BULK:
                    elements.add((char)reader.type(i) +
                        buffer.getStringWithoutLengthAscii(reader.offset(i), reader.length(i)));
                    break;
                case INTEGER:
                    elements.add(":" + reader.integer(i));
                    break;
                case ARRAY:
                    elements.add("*" + reader.length(i));
                    break;
                case NULL_BULK:
                    elements.add("nil");
                    break;
                case NULL_ARRAY:
                    elements.add("*nil");
                    break;
                default:
                    throw new AssertionError("type " + reader.type(i));
            }
        }
        return elements;
    }

    private static UnsafeBuffer buffer(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.ISO_8859_1));
    }
}
