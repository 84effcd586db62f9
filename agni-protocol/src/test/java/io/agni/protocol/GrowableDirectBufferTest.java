package io.agni.protocol;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A growable buffer stays within its limit, reports every byte to its account, and gives memory back at once.
 */
class GrowableDirectBufferTest
{
    private final CountingMemory memory = new CountingMemory();
    private GrowableDirectBuffer buffer;

    @AfterEach
    void free()
    {
        if (buffer != null)
        {
            buffer.free();
        }
        assertEquals(0, memory.held, "everything reserved is released");
    }

    @Test
    void growthIsReservedBeforeItIsAllocatedAndTheOldBufferIsReleased()
    {
        buffer = new GrowableDirectBuffer(16, 1024, memory, "test buffer");
        assertEquals(16, memory.held);

        buffer.putByte(100, (byte)7);

        assertEquals(101, buffer.capacity());
        assertEquals(101, memory.held, "the old 16 bytes were given back");
        assertEquals(16 + 101, memory.peak, "both buffers were counted while the bytes were copied");
        buffer.putByte(102, (byte)8);
        assertEquals(202, buffer.capacity(), "at least twice the old capacity");
        assertEquals(7, buffer.getByte(100));
        assertEquals(8, buffer.getByte(102));
    }

    @Test
    void growthPastTheLimitAllocatesNothingAndIsRemembered()
    {
        buffer = new GrowableDirectBuffer(16, 64, memory, "test buffer");
        buffer.putBytes(0, new UnsafeBuffer(new byte[64]), 0, 64);
        assertEquals(64, buffer.capacity(), "the doubling stops at the limit");

        final BufferLimitException ex = assertThrows(BufferLimitException.class, () -> buffer.putByte(64, (byte)1));

        assertEquals("test buffer limit reached: limit=64", ex.getMessage());
        assertEquals(0, ex.getStackTrace().length, "no stack trace is built per refusal");
        assertEquals(64, buffer.capacity());
        assertEquals(64, memory.held);
        assertEquals(GrowableDirectBuffer.REFUSED_BY_LIMIT, buffer.refusal());
        assertSame(ex, assertThrows(BufferLimitException.class, () -> buffer.checkRoom(65)), "one instance");
        buffer.clearRefusal();
        assertEquals(GrowableDirectBuffer.NOT_REFUSED, buffer.refusal());
    }

    @Test
    void growthRefusedByTheAccountAllocatesNothing()
    {
        buffer = new GrowableDirectBuffer(16, 1024, memory, "test buffer");
        buffer.putByte(0, (byte)42);
        memory.refuse = true;

        assertThrows(BufferLimitException.class, () -> buffer.putByte(16, (byte)1));

        assertEquals(16, buffer.capacity());
        assertEquals(16, memory.held);
        assertEquals(GrowableDirectBuffer.REFUSED_BY_MEMORY, buffer.refusal());
        assertEquals(42, buffer.getByte(0));
    }

    @Test
    void shrinkKeepsTheFirstBytesAndGivesTheRestBack()
    {
        buffer = new GrowableDirectBuffer(16, 1 << 20, memory, "test buffer");
        buffer.putStringWithoutLengthAscii(0, "kept");
        buffer.putByte(100_000, (byte)1);
        memory.refuse = true;

        buffer.shrink(16, 4);

        assertEquals(16, buffer.capacity());
        assertEquals(16, memory.held, "shrinking is never refused");
        assertEquals("kept", buffer.getStringWithoutLengthAscii(0, 4));
    }

    private static final class CountingMemory implements BufferMemory
    {
        long held;
        long peak;
        boolean refuse;

        @Override
        public boolean tryReserve(final long bytes)
        {
            if (refuse)
            {
                return false;
            }
            reserve(bytes);
            return true;
        }

        @Override
        public void reserve(final long bytes)
        {
            held += bytes;
            peak = Math.max(peak, held);
        }

        @Override
        public void release(final long bytes)
        {
            held -= bytes;
            assertTrue(held >= 0, "released more than reserved");
        }
    }
}
