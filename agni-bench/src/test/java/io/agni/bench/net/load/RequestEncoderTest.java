package io.agni.bench.net.load;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RequestEncoderTest
{
    @Test
    void encodesSetWithTheKeyDigitsInPlace()
    {
        final ByteBuffer out = ByteBuffer.allocate(256);
        new RequestEncoder(3).encodeSet(out, 42);

        assertEquals("*3\r\n$3\r\nSET\r\n$16\r\nkey:000000000042\r\n$3\r\nxxx\r\n", text(out));
    }

    @Test
    void encodesGetOfPresentAndOfNeverWrittenKeys()
    {
        final RequestEncoder encoder = new RequestEncoder(100);
        final ByteBuffer out = ByteBuffer.allocate(256);
        encoder.encodeGet(out, 999_999_999_999L, false);
        encoder.encodeGet(out, 7, true);

        assertEquals("*2\r\n$3\r\nGET\r\n$16\r\nkey:999999999999\r\n*2\r\n$3\r\nGET\r\n$16\r\nmis:000000000007\r\n",
            text(out));
    }

    @Test
    void appendsAfterWhatTheBufferAlreadyHolds()
    {
        final RequestEncoder encoder = new RequestEncoder(0);
        final ByteBuffer out = ByteBuffer.allocateDirect(256);
        encoder.encodeSet(out, 1);
        encoder.encodeSet(out, 2);

        assertEquals("*3\r\n$3\r\nSET\r\n$16\r\nkey:000000000001\r\n$0\r\n\r\n" +
            "*3\r\n$3\r\nSET\r\n$16\r\nkey:000000000002\r\n$0\r\n\r\n", text(out));
        assertEquals(2 * encoder.maxRequestLength(), out.position());
    }

    @Test
    void rejectsANegativeValueSize()
    {
        assertEquals("value size must not be negative: valueSize=-1",
            assertThrows(IllegalArgumentException.class, () -> new RequestEncoder(-1)).getMessage());
    }

    private static String text(final ByteBuffer out)
    {
        final ByteBuffer copy = out.duplicate().flip();
        final byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
