package io.agni.net;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientRequestWriterTest
{
    private static final DirectBuffer SET = ClientRequestWriter.keyword("SET");
    private final ClientRequestWriter writer = new ClientRequestWriter();

    @Test
    void commandIsAnArrayOfBulkStrings()
    {
        writer.command(3).keyword(SET).bulk(bytes("k")).bulk(bytes("value"));

        assertEquals("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nvalue\r\n", written());
    }

    @Test
    void keywordIsEncodedOnceAsACompleteBulkString()
    {
        final DirectBuffer keyword = ClientRequestWriter.keyword("PEXPIRETIME");

        assertEquals("$11\r\nPEXPIRETIME\r\n", keyword.getStringWithoutLengthAscii(0, keyword.capacity()));
    }

    @Test
    void bulkFromABufferCopiesOnlyTheRange()
    {
        final ExpandableDirectByteBuffer offHeap = new ExpandableDirectByteBuffer(32);
        offHeap.putStringWithoutLengthAscii(0, "xxkeyxx");

        writer.command(1).bulk(offHeap, 2, 3);

        assertEquals("*1\r\n$3\r\nkey\r\n", written());
    }

    @Test
    void emptyAndBinaryArgumentsAreLengthPrefixed()
    {
        writer.command(2).bulk(new byte[0]).bulk(new byte[] {'\r', '\n', 0, (byte)0xFF});

        assertEquals("*2\r\n$0\r\n\r\n$4\r\n\r\n\0\u00ff\r\n", written());
    }

    @Test
    void integersAreWrittenAsDecimalTextAcrossTheWholeRange()
    {
        writer.command(5).bulk(0).bulk(-1).bulk(1234567890123L).bulk(Long.MAX_VALUE).bulk(Long.MIN_VALUE);

        assertEquals("*5\r\n$1\r\n0\r\n$2\r\n-1\r\n$13\r\n1234567890123\r\n$19\r\n9223372036854775807\r\n" +
            "$20\r\n-9223372036854775808\r\n", written());
    }

    @Test
    void commandsAppendSoThatSeveralGoOutInOneWrite()
    {
        writer.command(1).bulk("PING");
        writer.command(2).bulk("ECHO").bulk("hi");

        assertEquals("*1\r\n$4\r\nPING\r\n*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\n", written());
    }

    @Test
    void resetForgetsTheRequestAndDropsABufferGrownPastTheRetainedSize()
    {
        writer.command(1).bulk(new byte[ClientRequestWriter.RETAINED_CAPACITY + 1]);
        assertTrue(writer.array().length > ClientRequestWriter.RETAINED_CAPACITY);

        writer.reset();

        assertEquals(0, writer.length());
        assertEquals(ClientRequestWriter.INITIAL_CAPACITY, writer.array().length);
        writer.command(1).bulk("PING");
        assertEquals("*1\r\n$4\r\nPING\r\n", written());
    }

    @Test
    void decimalLengthCountsTheSign()
    {
        assertEquals(1, ClientRequestWriter.decimalLength(9));
        assertEquals(2, ClientRequestWriter.decimalLength(10));
        assertEquals(2, ClientRequestWriter.decimalLength(-9));
        assertEquals(19, ClientRequestWriter.decimalLength(Long.MAX_VALUE));
        assertEquals(20, ClientRequestWriter.decimalLength(Long.MIN_VALUE));
    }

    private String written()
    {
        return new String(writer.array(), 0, writer.length(), StandardCharsets.ISO_8859_1);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
