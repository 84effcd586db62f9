package io.agni.store;

import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The zero-copy GET of entries of the common shape (keys and values below 128 bytes), which a fast path reads and
 * copies word by word without Agrona's per-access checks: every value length from 0 to 127, with and without an
 * expiry time, keys of the lengths the path compares differently, into heap and direct destinations at an offset,
 * copies exactly the value and writes no byte of the destination outside it.
 */
class SmallValueCopyTest
{
    private static final byte GUARD = (byte)0xA5;
    private static final int[] KEY_LENGTHS = {1, 7, 8, 12, 16, 17, 127};

    @Test
    void everySmallValueIsCopiedExactlyAndNothingAroundItIsWritten()
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(2).maxMemory(64L << 20).build())
        {
            final long later = store.currentTimeMillis() + 3_600_000;
            for (final int keyLength : KEY_LENGTHS)
            {
                for (int valueLength = 0; valueLength < 128; valueLength++)
                {
                    final boolean expiring = valueLength % 3 == 0;
                    final byte[] key = pattern(keyLength, keyLength * 131 + valueLength);
                    final byte[] value = pattern(valueLength, valueLength * 7 + 1);
                    store.set(key, value, SetCondition.ALWAYS, expiring ? ExpiryMode.AT : ExpiryMode.CLEAR,
                        expiring ? later : 0);
                    final UnsafeBuffer keyBuffer = new UnsafeBuffer(new byte[keyLength + 9]);
                    keyBuffer.putBytes(5, key);
                    for (final MutableDirectBuffer dst : new MutableDirectBuffer[] {
                        new UnsafeBuffer(new byte[valueLength + 24]),
                        new UnsafeBuffer(ByteBuffer.allocateDirect(valueLength + 24)),
                        new ExpandableArrayBuffer(valueLength + 24),
                        new ExpandableDirectByteBuffer(valueLength + 24)})
                    {
                        dst.setMemory(0, dst.capacity(), GUARD);
                        final String what = "key length " + keyLength + ", value length " + valueLength + ", " +
                            dst.getClass().getSimpleName();
                        assertEquals(valueLength, store.get(keyBuffer, 5, keyLength, dst, 11), what);
                        for (int i = 0; i < dst.capacity(); i++)
                        {
                            final byte expected = i >= 11 && i < 11 + valueLength ? value[i - 11] : GUARD;
                            assertEquals(expected, dst.getByte(i), what + ", byte " + i);
                        }
                    }
                }
            }
        }
    }

    @Test
    void anExpandableDestinationTooSmallGrowsAndAFixedOneIsRefused()
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(2).maxMemory(64L << 20).build())
        {
            final byte[] key = pattern(16, 3);
            final byte[] value = pattern(100, 9);
            store.set(key, value);
            final ExpandableArrayBuffer grows = new ExpandableArrayBuffer(4);
            assertEquals(100, store.get(new UnsafeBuffer(key), 0, 16, grows, 40));
            for (int i = 0; i < 100; i++)
            {
                assertEquals(value[i], grows.getByte(40 + i));
            }
            final UnsafeBuffer fixed = new UnsafeBuffer(new byte[120]);
            assertThrows(IndexOutOfBoundsException.class,
                () -> store.get(new UnsafeBuffer(key), 0, 16, fixed, 21));
        }
    }

    private static byte[] pattern(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(seed + i * 31);
        }
        return bytes;
    }
}
