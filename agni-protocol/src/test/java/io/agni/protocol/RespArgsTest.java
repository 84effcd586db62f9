package io.agni.protocol;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The argument flyweight: views of one buffer, compared and copied without allocation, growing only as arguments
 * are added, and rebased when the decoder completes a command recorded relative to its start.
 */
class RespArgsTest
{
    @Test
    void argumentsAreViewsOfTheWrappedBuffer()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer("..SET.key".getBytes(StandardCharsets.US_ASCII));
        final RespArgs args = new RespArgs();
        args.wrap(buffer);
        args.add(2, 3);
        args.add(6, 3);

        assertSame(buffer, args.buffer());
        assertEquals(2, args.count());
        assertEquals("SET", args.asString(0));
        assertArrayEquals("key".getBytes(StandardCharsets.US_ASCII), args.copy(1));
        assertEquals('k', args.byteAt(1, 0));
        assertEquals("RespArgs['SET' 'key']", args.toString());
    }

    @Test
    void equalsIgnoreCaseFoldsOnlyAsciiLetters()
    {
        final RespArgs args = RespArgs.of("sEt", "p[", "SET1");

        assertTrue(args.equalsIgnoreCase(0, "SET".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(args.equalsIgnoreCase(1, "P{".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(args.equalsIgnoreCase(2, "SET".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void indexOutsideTheArgumentsIsRefused()
    {
        final RespArgs args = RespArgs.of("GET", "k");

        assertEquals("index=2, count=2",
            assertThrows(IndexOutOfBoundsException.class, () -> args.length(2)).getMessage());
        assertEquals("position=1, length=1",
            assertThrows(IndexOutOfBoundsException.class, () -> args.byteAt(1, 1)).getMessage());
    }

    @Test
    void capacityGrowsOnlyAsArgumentsAreAdded()
    {
        final RespArgs args = new RespArgs();
        args.wrap(new UnsafeBuffer(new byte[1]));
        final int initial = args.capacity();

        for (int i = 0; i < initial; i++)
        {
            args.add(0, 1);
        }
        assertEquals(initial, args.capacity());

        args.add(0, 1);
        assertEquals(2 * initial, args.capacity());
        assertEquals(initial + 1, args.count());
    }

    @Test
    void wrapForgetsTheArgumentsButKeepsTheCapacity()
    {
        final RespArgs args = RespArgs.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o",
            "p", "q");
        final int capacity = args.capacity();

        args.wrap(new UnsafeBuffer(new byte[1]));

        assertEquals(0, args.count());
        assertEquals(capacity, args.capacity());
    }

    @Test
    void rebaseMovesRelativeOffsetsIntoTheBuffer()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer("xxxxGETkey".getBytes(StandardCharsets.US_ASCII));
        final RespArgs args = new RespArgs();
        args.wrap(null);
        args.add(0, 3);
        args.add(3, 3);

        args.rebase(buffer, 4);

        assertSame(buffer, args.buffer());
        assertEquals("GET", args.asString(0));
        assertEquals("key", args.asString(1));
        assertEquals(7, args.offset(1));
    }
}
