package io.agni.store;

import io.agni.api.EntryTooLargeException;
import io.agni.store.arena.EntryLayout;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The largest entry one buffer can hold ({@link EntryLayout#MAX_ENTRY_LENGTH}) with a value limit configured near
 * 2^31: every write that makes a value longer refuses it with the same {@link EntryTooLargeException}, before any
 * memory is reserved, and leaves the store as it was.
 */
class EntryLengthLimitTest
{
    private static final byte[] KEY = bytes("k");
    /**
     * The longest suffix a set of {@link #KEY} accepts on its own: the whole entry must fit, with room for an
     * expiry time.
     */
    private static final int SUFFIX_LENGTH = EntryLayout.MAX_ENTRY_LENGTH - KEY.length - 32;
    /**
     * Appended to, the value grows to {@code Integer.MAX_VALUE - 2} bytes: within the value limit, but its entry
     * is longer than any int.
     */
    private static final byte[] OLD_VALUE = new byte[Integer.MAX_VALUE - 2 - SUFFIX_LENGTH];

    @Test
    void appendPastTheLargestEntryIsRefusedAsTooLargeAndChangesNothing()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock())
            .maxMemory(4L << 30).maxKeyLength(16).maxValueLength(Integer.MAX_VALUE).build())
        {
            store.set(KEY, OLD_VALUE);
            final long newLength = (long)OLD_VALUE.length + SUFFIX_LENGTH;

            final EntryTooLargeException refused = assertThrows(EntryTooLargeException.class,
                () -> store.append(new UnsafeBuffer(KEY), 0, KEY.length, unreadable(SUFFIX_LENGTH), 0, SUFFIX_LENGTH));

            assertEquals("value too large: length=" + newLength + ", limit=" +
                (EntryLayout.MAX_ENTRY_LENGTH - KEY.length - 32), refused.getMessage());
            assertArrayEquals(OLD_VALUE, store.get(KEY));
            assertEquals(OLD_VALUE.length + 1, store.append(KEY, bytes("x")), "the shard still takes writes");
            store.verifyIntegrity();
        }
    }

    /**
     * A buffer that claims {@code capacity} bytes and fails the test if anything reads it: a refused append must
     * not copy a byte of its suffix (and 2 GiB could not be allocated here anyway).
     */
    private static DirectBuffer unreadable(final int capacity)
    {
        return (DirectBuffer)Proxy.newProxyInstance(DirectBuffer.class.getClassLoader(),
            new Class<?>[] {DirectBuffer.class},
            (proxy, method, args) ->
            {
                if (method.getName().equals("capacity"))
                {
                    return capacity;
                }
                throw new AssertionError("the suffix of a refused append was read: " + method.getName());
            });
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
