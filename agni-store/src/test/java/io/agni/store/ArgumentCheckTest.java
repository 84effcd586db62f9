package io.agni.store;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A negative length on the zero-copy path is a caller's mistake, reported as such (not as an entry that is too
 * large), and changes nothing.
 */
class ArgumentCheckTest
{
    @Test
    void negativeKeyLengthIsRefusedAsAnIllegalArgument()
    {
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            final UnsafeBuffer key = new UnsafeBuffer(new byte[8]);
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> store.get(key, 0, -1, new ExpandableArrayBuffer(), 0));

            assertEquals("negative key length: -1", ex.getMessage());
            assertEquals(0, store.size());
        }
    }

    @Test
    void negativeSetRangeOffsetIsRefusedAsAnIllegalArgument()
    {
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            final UnsafeBuffer key = new UnsafeBuffer(new byte[8]);
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> store.setRange(key, 0, 8, -3, key, 0, 1));

            assertEquals("negative offset: -3", ex.getMessage());
            assertEquals("negative value length: -1", assertThrows(IllegalArgumentException.class,
                () -> store.setRange(key, 0, 8, 0, key, 0, -1)).getMessage());
            assertEquals(0, store.size());
        }
    }

    @Test
    void negativeValueLengthIsRefusedAsAnIllegalArgument()
    {
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            final UnsafeBuffer key = new UnsafeBuffer(new byte[8]);
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> store.set(key, 0, 8, key, 0, -5));

            assertEquals("negative value length: -5", ex.getMessage());
            assertEquals(0, store.size());
        }
    }
}
