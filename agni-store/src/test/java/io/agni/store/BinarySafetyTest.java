package io.agni.store;

import io.agni.api.ExpiryMode;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.testsupport.ByteArrayKey;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keys and values are byte strings: every byte value, line breaks, zero bytes, empty values, and values from 1 MiB
 * to 64 MiB survive every path unchanged.
 */
class BinarySafetyTest
{
    private static final int MIB = 1024 * 1024;

    @Test
    void everySingleByteKeyAndEveryByteValueRoundTrip()
    {
        try (OffHeapStore store = TestStores.builder(4, TestStores.clock()).build())
        {
            for (int b = 0; b < 256; b++)
            {
                store.set(new byte[] {(byte)b}, rotated(b));
                store.set(new byte[] {(byte)b, (byte)(255 - b)}, new byte[] {(byte)b});
            }

            for (int b = 0; b < 256; b++)
            {
                assertArrayEquals(rotated(b), store.get(new byte[] {(byte)b}), "key 0x" + Integer.toHexString(b));
                assertArrayEquals(new byte[] {(byte)b}, store.get(new byte[] {(byte)b, (byte)(255 - b)}));
            }
            assertEquals(512, store.size());
            assertEquals(512, scanAll(store).size());
            store.verifyIntegrity();
        }
    }

    @Test
    void lineBreaksAndZeroBytesAreOrdinaryBytes()
    {
        final byte[][] keys = {
            bytes("\r\n"), bytes("\r"), bytes("\n"), bytes("a\r\nb"), new byte[1], new byte[2], new byte[8],
            new byte[9], bytes("\0a"), bytes("a\0"), bytes("*3\r\n$3\r\nSET\r\n")};
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            for (int i = 0; i < keys.length; i++)
            {
                store.set(keys[i], valueFor(i));
            }

            for (int i = 0; i < keys.length; i++)
            {
                assertArrayEquals(valueFor(i), store.get(keys[i]), ByteArrayKey.printable(keys[i]));
            }
            assertEquals(keys.length, store.size());
        }
    }

    @Test
    void emptyValuesSurviveEveryWritePath()
    {
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            store.set(bytes("set"), new byte[0]);
            store.set(new UnsafeBuffer(bytes("direct")), 0, 6, new UnsafeBuffer(new byte[0]), 0, 0);
            store.set(bytes("cond"), new byte[0], SetCondition.IF_ABSENT, ExpiryMode.AT, TestStores.START_MS + 1000);
            store.setAll(List.of(bytes("all")), List.of(new byte[0]), SetCondition.ALWAYS);
            store.append(bytes("append"), new byte[0]);
            store.getAndSet(bytes("gas"), new byte[0], SetCondition.ALWAYS, ExpiryMode.CLEAR, 0);

            for (final String key : List.of("set", "direct", "cond", "all", "append", "gas"))
            {
                final byte[] value = store.get(bytes(key));
                assertNotNull(value, key);
                assertEquals(0, value.length, key);
            }
            assertArrayEquals(new byte[0], store.getAndSet(bytes("gas"), bytes("x"), SetCondition.ALWAYS,
                ExpiryMode.CLEAR, 0));
            assertArrayEquals(new byte[0], store.getAndDelete(bytes("set")));
            store.verifyIntegrity();
        }
    }

    @Test
    void largeKeyRoundTrips()
    {
        final byte[] key = patterned(100 * 1024, 3);
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            store.set(key, bytes("v"));

            assertArrayEquals(bytes("v"), store.get(key));
            key[50_000]++;
            assertNull(store.get(key), "a key differing in one byte in the middle is another key");
            key[50_000]--;
            assertTrue(store.delete(key));
            store.verifyIntegrity();
        }
    }

    @Test
    void oneMebibyteValueRoundTripsOnEveryPath()
    {
        final byte[] value = patterned(MIB, 1);
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock()).build())
        {
            store.set(bytes("a"), value);
            store.set(new UnsafeBuffer(bytes("b")), 0, 1, new UnsafeBuffer(value), 0, value.length);

            assertArrayEquals(value, store.get(bytes("a")));
            final ExpandableDirectByteBuffer direct = new ExpandableDirectByteBuffer(64);
            assertEquals(MIB, store.get(new UnsafeBuffer(bytes("b")), 0, 1, direct, 17));
            final byte[] copied = new byte[MIB];
            direct.getBytes(17, copied);
            assertArrayEquals(value, copied);

            assertEquals(2L * MIB, store.append(bytes("a"), value));
            final byte[] doubled = store.get(bytes("a"));
            assertEquals(2 * MIB, doubled.length);
            assertEquals(value[MIB - 1], doubled[MIB - 1]);
            assertEquals(value[0], doubled[MIB]);
            assertEquals(value[MIB - 1], doubled[2 * MIB - 1]);

            assertArrayEquals(value, store.getAndDelete(bytes("b")));
            store.verifyIntegrity();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void sixtyFourMebibyteValueRoundTrips()
    {
        final int length = 64 * MIB;
        try (OffHeapStore store = TestStores.builder(2, TestStores.clock())
            .maxMemory(256L * MIB)
            .maxValueLength(length)
            .maxKeyLength(1024)
            .build())
        {
            byte[] value = patterned(length, 7);
            store.set(bytes("huge"), value);
            value = null;

            byte[] read = store.get(bytes("huge"));
            assertEquals(length, read.length);
            assertPatterned(read, 7);
            read = null;

            final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(1024);
            assertEquals(length, store.get(new UnsafeBuffer(bytes("huge")), 0, 4, dst, 0));
            assertEquals(patterned(1, 7)[0], dst.getByte(0));
            assertEquals((byte)((length - 1) * 31 + 7 + ((length - 1) >>> 10)), dst.getByte(length - 1));

            assertTrue(store.stats().liveEntryBytes() >= length);
            store.set(bytes("huge"), bytes("small now"));
            assertArrayEquals(bytes("small now"), store.get(bytes("huge")));
            assertTrue(store.stats().liveEntryBytes() < MIB, "the large value no longer counts as live");
            assertTrue(store.stats().offHeapBytes() <= store.stats().budgetBytes());
            store.verifyIntegrity();
        }
    }

    private static void assertPatterned(final byte[] value, final int seed)
    {
        for (int i = 0; i < value.length; i++)
        {
            if (value[i] != (byte)(i * 31 + seed + (i >>> 10)))
            {
                throw new AssertionError("byte " + i + " of " + value.length + " differs");
            }
        }
    }

    private static byte[] patterned(final int length, final int seed)
    {
        final byte[] value = new byte[length];
        for (int i = 0; i < length; i++)
        {
            value[i] = (byte)(i * 31 + seed + (i >>> 10));
        }
        return value;
    }

    private static byte[] rotated(final int start)
    {
        final byte[] value = new byte[256];
        for (int i = 0; i < 256; i++)
        {
            value[i] = (byte)(start + i);
        }
        return value;
    }

    private static byte[] valueFor(final int i)
    {
        return bytes("v\r\n\0" + i + "\0");
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Set<ByteArrayKey> scanAll(final OffHeapStore store)
    {
        final Set<ByteArrayKey> keys = new HashSet<>();
        long cursor = 0;
        int steps = 0;
        do
        {
            final ScanResult result = store.scan(cursor, null, 50);
            result.keys().forEach(k -> keys.add(new ByteArrayKey(k)));
            cursor = result.cursor();
            assertTrue(++steps < 1_000_000, "scan did not end");
        }
        while (cursor != 0);
        return keys;
    }
}
