package io.agni.api;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link WriteBatch} on its own: what each operation records, the copies it makes, its checks, and its reuse without
 * allocation.
 */
class WriteBatchTest
{
    @Test
    void eachOperationRecordsItsKindKeyValueAndExpiry()
    {
        final WriteBatch batch = new WriteBatch()
            .set(b("k1"), b("v1"))
            .set(b("k2"), b("value2"), ExpiryMode.AT, 123)
            .set(b("k3"), b(""), ExpiryMode.AFTER, -4)
            .set(b("k4"), b("v4"), ExpiryMode.KEEP, 0)
            .delete(b("k5"))
            .expire(b("k6"), 456)
            .expireAfter(b("k7"), 789)
            .persist(b("k8"));

        assertEquals(8, batch.size());
        assertOperation(batch, 0, WriteBatch.Operation.SET, "k1", "v1", ExpiryMode.CLEAR, 0);
        assertOperation(batch, 1, WriteBatch.Operation.SET, "k2", "value2", ExpiryMode.AT, 123);
        assertOperation(batch, 2, WriteBatch.Operation.SET, "k3", "", ExpiryMode.AFTER, -4);
        assertOperation(batch, 3, WriteBatch.Operation.SET, "k4", "v4", ExpiryMode.KEEP, 0);
        assertOperation(batch, 4, WriteBatch.Operation.DELETE, "k5", "", ExpiryMode.CLEAR, 0);
        assertOperation(batch, 5, WriteBatch.Operation.EXPIRE, "k6", "", ExpiryMode.AT, 456);
        assertOperation(batch, 6, WriteBatch.Operation.EXPIRE, "k7", "", ExpiryMode.AFTER, 789);
        assertOperation(batch, 7, WriteBatch.Operation.PERSIST, "k8", "", ExpiryMode.CLEAR, 0);
        assertEquals(4 + 8 + 2 + 4 + 2 + 2 + 2 + 2, batch.byteLength());
    }

    @Test
    void zeroCopyFormsCopyTheRangeTheyAreGiven()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(b("..key..value..other.."));
        final WriteBatch batch = new WriteBatch()
            .set(buffer, 2, 3, buffer, 7, 5)
            .set(buffer, 2, 3, buffer, 14, 5, ExpiryMode.AT, 9)
            .delete(buffer, 14, 5)
            .expire(buffer, 2, 3, 10)
            .expireAfter(buffer, 7, 5, 11)
            .persist(buffer, 14, 5);
        buffer.setMemory(0, buffer.capacity(), (byte)'#');

        assertOperation(batch, 0, WriteBatch.Operation.SET, "key", "value", ExpiryMode.CLEAR, 0);
        assertOperation(batch, 1, WriteBatch.Operation.SET, "key", "other", ExpiryMode.AT, 9);
        assertOperation(batch, 2, WriteBatch.Operation.DELETE, "other", "", ExpiryMode.CLEAR, 0);
        assertOperation(batch, 3, WriteBatch.Operation.EXPIRE, "key", "", ExpiryMode.AT, 10);
        assertOperation(batch, 4, WriteBatch.Operation.EXPIRE, "value", "", ExpiryMode.AFTER, 11);
        assertOperation(batch, 5, WriteBatch.Operation.PERSIST, "other", "", ExpiryMode.CLEAR, 0);
    }

    @Test
    void arraysChangedAfterAddingDoNotChangeTheBatch()
    {
        final byte[] key = b("key");
        final byte[] value = b("value");
        final WriteBatch batch = new WriteBatch().set(key, value);

        key[0] = 'X';
        value[0] = 'Y';

        assertOperation(batch, 0, WriteBatch.Operation.SET, "key", "value", ExpiryMode.CLEAR, 0);
    }

    @Test
    void clearEmptiesTheBatchForReuse()
    {
        final WriteBatch batch = new WriteBatch();
        for (int i = 0; i < 100; i++)
        {
            batch.set(b("key" + i), b("value" + i));
        }

        assertSame(batch, batch.clear());
        assertTrue(batch.isEmpty());
        assertEquals(0, batch.size());
        assertEquals(0, batch.byteLength());
        assertThrows(IndexOutOfBoundsException.class, () -> batch.operation(0));

        batch.delete(b("again"));
        assertOperation(batch, 0, WriteBatch.Operation.DELETE, "again", "", ExpiryMode.CLEAR, 0);
        assertEquals(1, batch.size());
    }

    @Test
    void refusedAdditionsLeaveTheBatchAsItWas()
    {
        final WriteBatch batch = new WriteBatch().set(b("a"), b("1"));
        final UnsafeBuffer buffer = new UnsafeBuffer(b("0123456789"));

        final IllegalArgumentException time = assertThrows(IllegalArgumentException.class,
            () -> batch.set(b("k"), b("v"), ExpiryMode.KEEP, 5));
        assertEquals("expiry time given with a mode that ignores it: mode=KEEP, time=5", time.getMessage());
        assertThrows(IllegalArgumentException.class, () -> batch.set(buffer, 0, 1, buffer, 1, 1, ExpiryMode.CLEAR, 1));
        assertThrows(NullPointerException.class, () -> batch.set(b("k"), b("v"), null, 0));
        assertThrows(NullPointerException.class, () -> batch.set(null, b("v")));
        assertThrows(NullPointerException.class, () -> batch.set(b("k"), null));
        assertThrows(NullPointerException.class, () -> batch.delete((byte[])null));
        assertThrows(NullPointerException.class, () -> batch.persist((DirectBuffer)null, 0, 1));
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> batch.delete(buffer, 0, -1));
        assertEquals("negative key length: -1", negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> batch.set(buffer, 0, 1, buffer, 0, -2));
        final IndexOutOfBoundsException outside = assertThrows(IndexOutOfBoundsException.class,
            () -> batch.set(buffer, 0, 2, buffer, 8, 3));
        assertEquals("value outside its buffer: offset=8, length=3, capacity=10", outside.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> batch.expire(buffer, -1, 2, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.expireAfter(buffer, 9, 2, 5));

        assertEquals(1, batch.size());
        assertEquals(2, batch.byteLength());
        assertOperation(batch, 0, WriteBatch.Operation.SET, "a", "1", ExpiryMode.CLEAR, 0);
    }

    @Test
    void aBatchHoldsAtMostMaxBytes()
    {
        // A buffer that states a gigabyte over 16 real bytes: the size is refused before any byte is read.
        final ByteBuffer real = ByteBuffer.allocateDirect(16);
        final UnsafeBuffer huge = new UnsafeBuffer(BufferUtil.address(real), WriteBatch.MAX_BYTES);
        final UnsafeBuffer key = new UnsafeBuffer(b("k"));
        final WriteBatch batch = new WriteBatch().set(b("a"), b("1"));

        final IllegalArgumentException one = assertThrows(IllegalArgumentException.class,
            () -> new WriteBatch().set(key, 0, 1, huge, 0, WriteBatch.MAX_BYTES));
        final IllegalArgumentException sum = assertThrows(IllegalArgumentException.class,
            () -> batch.set(key, 0, 1, huge, 0, WriteBatch.MAX_BYTES - 2));

        final String message = "batch too large: bytes=" + (WriteBatch.MAX_BYTES + 1L) + ", limit=" + WriteBatch.MAX_BYTES;
        assertEquals(message, one.getMessage());
        assertEquals(message, sum.getMessage());
        assertEquals(1, batch.size());
        batch.set(key, 0, 1, huge, 0, 16);
        assertEquals(2, batch.size());
        assertEquals(19, batch.byteLength());
        assertTrue(real.capacity() == 16, "the real buffer stays referenced while in use");
    }

    @Test
    void indexesOutsideTheBatchAreRefused()
    {
        final WriteBatch batch = new WriteBatch().set(b("a"), b("1"));

        assertThrows(IndexOutOfBoundsException.class, () -> batch.operation(1));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.keyOffset(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.keyLength(1));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.valueOffset(1));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.valueLength(1));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.expiryMode(1));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.expiryTime(1));
    }

    @Test
    void refillingAClearedBatchAllocatesNothing() throws ReflectiveOperationException
    {
        final MethodHandle allocated = allocationCounter();
        assumeTrue(allocated != null, "no per-thread allocation counter on this JVM");
        final UnsafeBuffer key = new UnsafeBuffer(b("some-key-0123456789"));
        final UnsafeBuffer value = new UnsafeBuffer(new byte[300]);
        final byte[] arrayKey = b("array-key");
        final WriteBatch batch = new WriteBatch();
        final Runnable fill = () ->
        {
            batch.clear();
            for (int i = 0; i < 200; i++)
            {
                batch.set(key, 0, key.capacity(), value, 0, value.capacity())
                    .set(arrayKey, arrayKey, ExpiryMode.AT, i)
                    .delete(key, 0, 4)
                    .expireAfter(arrayKey, i)
                    .persist(key, 1, 3);
            }
        };
        for (int i = 0; i < 1_000; i++)
        {
            fill.run();
        }

        long least = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 3 && least > 0; attempt++)
        {
            final long before = read(allocated);
            for (int i = 0; i < 100; i++)
            {
                fill.run();
            }
            least = Math.min(least, read(allocated) - before);
        }
        // far below one allocation per operation (100 refills of 1,000 operations)
        assertTrue(least < 1_000, "refilling allocated " + least + " bytes");
    }

    /**
     * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}, looked up reflectively (this module
     * does not read {@code java.management}; its tests run on the class path), or null where the JVM has none.
     */
    private static MethodHandle allocationCounter() throws ReflectiveOperationException
    {
        final Object bean = Class.forName("java.lang.management.ManagementFactory")
            .getMethod("getThreadMXBean").invoke(null);
        final Class<?> type = Class.forName("com.sun.management.ThreadMXBean");
        if (!type.isInstance(bean) || !(Boolean)type.getMethod("isThreadAllocatedMemorySupported").invoke(bean))
        {
            return null;
        }
        type.getMethod("setThreadAllocatedMemoryEnabled", boolean.class).invoke(bean, true);
        return MethodHandles.publicLookup()
            .findVirtual(type, "getCurrentThreadAllocatedBytes", MethodType.methodType(long.class)).bindTo(bean);
    }

    private static long read(final MethodHandle counter)
    {
        try
        {
            return (long)counter.invokeExact();
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("cannot read the allocation counter", ex);
        }
    }

    private static void assertOperation(
        final WriteBatch batch, final int i, final WriteBatch.Operation operation, final String key, final String value,
        final ExpiryMode mode, final long time)
    {
        assertEquals(operation, batch.operation(i), "operation " + i);
        assertArrayEquals(b(key), bytes(batch.buffer(), batch.keyOffset(i), batch.keyLength(i)), "key " + i);
        assertEquals(batch.keyOffset(i) + batch.keyLength(i), batch.valueOffset(i), "value follows key " + i);
        assertArrayEquals(b(value), bytes(batch.buffer(), batch.valueOffset(i), batch.valueLength(i)), "value " + i);
        assertEquals(mode, batch.expiryMode(i), "mode " + i);
        assertEquals(time, batch.expiryTime(i), "time " + i);
    }

    private static byte[] bytes(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
