package io.agni.testsupport;

import io.agni.api.AgniStore;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The root of the {@link AgniStoreContract} chain: opens a {@link StoreFixture} before each test, closes it after,
 * and holds the helpers every part of the contract uses. Extend {@link AgniStoreContract}, not this class.
 */
public abstract class StoreContractSupport
{
    /**
     * How far from now the contract puts "future" and "past" expiry times when the clock is real: far enough that
     * a slow machine or a remote server's clock skew cannot move a key across it during a test.
     */
    protected static final long HOUR_MS = 3_600_000L;

    /**
     * The byte written around the content of the buffers the contract builds, to catch reads and writes outside
     * the range a call was given.
     */
    protected static final byte GUARD = (byte)0xA5;

    /**
     * The longest key the contract uses outside the limit tests: a store under test must accept keys this long.
     */
    public static final int KEYS_UP_TO = 256;

    /**
     * The longest value the contract uses outside the limit tests: a store under test must accept values this long.
     */
    public static final int VALUES_UP_TO = 8192;

    /**
     * The fixture of the running test.
     */
    protected StoreFixture fixture;

    /**
     * The store of the running test.
     */
    protected AgniStore store;

    /**
     * Creates the store for one test. Called before each test; the contract closes the fixture after it.
     *
     * @return a fixture owning a new, empty store.
     */
    protected abstract StoreFixture createFixture();

    @BeforeEach
    final void openFixture()
    {
        fixture = createFixture();
        store = fixture.store();
        if (fixture.maxKeyLength().orElse(KEYS_UP_TO) < KEYS_UP_TO ||
            fixture.maxValueLength().orElse(VALUES_UP_TO) < VALUES_UP_TO)
        {
            fixture.close();
            throw new IllegalStateException("the contract needs keys up to " + KEYS_UP_TO + " bytes and values up to " +
                VALUES_UP_TO + " bytes; the fixture's limits are " + fixture.maxKeyLength() + " and " +
                fixture.maxValueLength());
        }
    }

    @AfterEach
    final void closeFixture()
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Time
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Skips the running test unless the store's clock can be moved by the test.
     */
    protected final void requireFakeClock()
    {
        assumeTrue(fixture.canAdvanceTime(),
            "needs a fake clock to move time; this store runs on a real clock");
    }

    /**
     * Skips the running test, with the reason, if the fixture declared the operation it tests unsupported.
     *
     * @param operation the optional operation the test needs.
     */
    protected final void requireSupported(final OptionalOperation operation)
    {
        assumeTrue(fixture.supports(operation),
            "the fixture declares " + operation.description() + " unsupported (AgniStore allows it: an optional " +
            "operation), so the contract checks its refusal instead of its result");
    }

    /**
     * The store's now.
     *
     * @return milliseconds since the epoch.
     */
    protected final long now()
    {
        return fixture.now();
    }

    /**
     * An expiry time far enough ahead that the key cannot expire during the test, however slow it is.
     *
     * @param hours how many hours ahead.
     * @return an absolute time in milliseconds.
     */
    protected final long hoursAhead(final int hours)
    {
        return now() + hours * HOUR_MS;
    }

    /**
     * An expiry time that has certainly passed.
     *
     * @return an absolute time in milliseconds, an hour ago.
     */
    protected final long anHourAgo()
    {
        return now() - HOUR_MS;
    }

    /**
     * Asserts the time to live of a key: exactly with a fake clock, within a minute below the expected value with a
     * real one.
     *
     * @param expected the expected remaining milliseconds.
     * @param key      the key.
     */
    protected final void assertTtl(final long expected, final byte[] key)
    {
        final long actual = store.ttlMillis(key);
        if (fixture.canAdvanceTime())
        {
            assertEquals(expected, actual, () -> "ttlMillis of " + ByteArrayKey.printable(key));
        }
        else
        {
            assertTrue(actual <= expected && actual > expected - 60_000,
                () -> "ttlMillis of " + ByteArrayKey.printable(key) + ": expected about " + expected +
                    ", was " + actual);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Bytes and buffers
    // ------------------------------------------------------------------------------------------------------------

    /**
     * The ISO-8859-1 bytes of a string: one byte per char, so {@code "\u00ff"} is the byte {@code 0xff}.
     *
     * @param text the text.
     * @return the bytes.
     */
    protected static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * The ISO-8859-1 text of bytes.
     *
     * @param bytes the bytes, or {@code null}.
     * @return the text, or {@code null}.
     */
    protected static String text(final byte[] bytes)
    {
        return bytes == null ? null : new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * A value of a given length whose bytes depend on their position and on a seed, so that a value copied from
     * the wrong place or cut short is detected.
     *
     * @param length the length.
     * @param seed   varies the content.
     * @return the bytes.
     */
    protected static byte[] patterned(final int length, final int seed)
    {
        final byte[] value = new byte[length];
        for (int i = 0; i < length; i++)
        {
            value[i] = (byte)(i * 31 + seed * 7 + (i >>> 8));
        }
        return value;
    }

    /**
     * Every byte value once, {@code 0x00} to {@code 0xff}.
     *
     * @return 256 bytes.
     */
    protected static byte[] allByteValues()
    {
        final byte[] value = new byte[256];
        for (int i = 0; i < 256; i++)
        {
            value[i] = (byte)i;
        }
        return value;
    }

    /**
     * A buffer over a heap array holding {@code content} at {@code offset}, with {@link #GUARD} bytes before and
     * after it.
     *
     * @param content the bytes to place.
     * @param offset  where they start.
     * @return the buffer; its capacity is larger than {@code offset + content.length}.
     */
    protected static UnsafeBuffer bufferWith(final byte[] content, final int offset)
    {
        final byte[] array = new byte[offset + content.length + 5];
        Arrays.fill(array, GUARD);
        System.arraycopy(content, 0, array, offset, content.length);
        return new UnsafeBuffer(array);
    }

    /**
     * A buffer over a heap array of a given capacity, filled with {@link #GUARD}.
     *
     * @param capacity the capacity.
     * @return the buffer.
     */
    protected static UnsafeBuffer guardedBuffer(final int capacity)
    {
        final byte[] array = new byte[capacity];
        Arrays.fill(array, GUARD);
        return new UnsafeBuffer(array);
    }

    /**
     * Asserts that a buffer holds the expected bytes at an offset and only {@link #GUARD} bytes before it.
     *
     * @param expected the expected bytes.
     * @param buffer   the buffer.
     * @param offset   where the bytes are.
     */
    protected static void assertBufferHolds(final byte[] expected, final UnsafeBuffer buffer, final int offset)
    {
        final byte[] actual = new byte[expected.length];
        buffer.getBytes(offset, actual);
        assertArrayEquals(expected, actual, "bytes copied into the buffer");
        for (int i = 0; i < offset; i++)
        {
            assertEquals(GUARD, buffer.getByte(i), "byte before the offset was overwritten at index " + i);
        }
    }

    /**
     * Asserts the value of a key.
     *
     * @param expected the expected value, or {@code null} for absent.
     * @param key      the key.
     */
    protected final void assertValue(final byte[] expected, final byte[] key)
    {
        final byte[] actual = store.get(key);
        if (expected == null || actual == null || !Arrays.equals(expected, actual))
        {
            assertEquals(ByteArrayKey.printable(expected), ByteArrayKey.printable(actual),
                () -> "value of " + ByteArrayKey.printable(key));
        }
    }

    /**
     * Asserts the value of a key, as ISO-8859-1 text.
     *
     * @param expected the expected value, or {@code null} for absent.
     * @param key      the key.
     */
    protected final void assertValue(final String expected, final String key)
    {
        assertValue(expected == null ? null : bytes(expected), bytes(key));
    }
}
