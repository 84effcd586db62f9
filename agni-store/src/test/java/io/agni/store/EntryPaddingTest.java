package io.agni.store;

import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Entries are padded to 8 bytes ({@code EntryLayout.ALIGNMENT}), so two versions of an entry can have the same
 * length while their values (and even their headers) differ. Each case here writes a new version that pads to the
 * same length as the old one, the case where an in-place rewrite is tempting and wrong if it trusts the length.
 */
class EntryPaddingTest
{
    private static final byte[] KEY = "padded-key-16byt".getBytes();

    @Test
    void overwriteWithAValueOneByteLongerInsideThePaddingKeepsTheNewLength()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).build())
        {
            // 3 header + 16 key + 100 value = 119, padded to 120; 101 bytes makes 120 exactly
            store.set(KEY, filled(100, 'a'));
            store.set(KEY, filled(101, 'b'));
            assertArrayEquals(filled(101, 'b'), store.get(KEY));
            store.set(KEY, filled(100, 'c'));
            assertArrayEquals(filled(100, 'c'), store.get(KEY));
            store.verifyIntegrity();
        }
    }

    @Test
    void appendAcrossTheOneByteLengthLimitShiftsNothingItHasNotCopied()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).build())
        {
            // value 127 has a one-byte length, 128 a two-byte one: 3 + 16 + 127 = 146 and 4 + 16 + 128 = 148 both
            // pad to 152, but the key and value start one byte later in the new version
            final byte[] start = sequence(127);
            store.set(KEY, start);
            assertEquals(128, store.append(KEY, new byte[] {(byte)0xEE}));
            final byte[] expected = Arrays.copyOf(start, 128);
            expected[127] = (byte)0xEE;
            assertArrayEquals(expected, store.get(KEY));
            store.verifyIntegrity();
        }
    }

    @Test
    void setRangePastTheEndInsideThePaddingZeroFillsTheGap()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).build())
        {
            store.set(KEY, filled(100, 'a'));
            assertEquals(104, store.setRange(KEY, 102, new byte[] {'y', 'z'}));
            final byte[] expected = Arrays.copyOf(filled(100, 'a'), 104);
            expected[102] = 'y';
            expected[103] = 'z';
            assertArrayEquals(expected, store.get(KEY));
            store.verifyIntegrity();
        }
    }

    @Test
    void incrementThatAddsADigitInsideThePaddingReadsBackTheNewNumber()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).build())
        {
            store.set(KEY, "99".getBytes());
            assertEquals(100, store.incrementBy(KEY, 1));
            assertArrayEquals("100".getBytes(), store.get(KEY));
            assertEquals(-1, store.incrementBy(KEY, -101));
            assertArrayEquals("-1".getBytes(), store.get(KEY));
            store.verifyIntegrity();
        }
    }

    @Test
    void gainingAnExpiryTimeMovesTheEntryAndKeepsItsValue()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).build())
        {
            store.set(KEY, filled(100, 'a'));
            store.set(KEY, filled(92, 'b'), SetCondition.ALWAYS, ExpiryMode.AT, TestStores.START_MS + 60_000);
            assertArrayEquals(filled(92, 'b'), store.get(KEY));
            assertEquals(60_000, store.ttlMillis(KEY));
            store.set(KEY, filled(100, 'c'));
            assertArrayEquals(filled(100, 'c'), store.get(KEY));
            assertEquals(-1, store.ttlMillis(KEY));
            store.verifyIntegrity();
        }
    }

    @Test
    void everyEntryLengthIsAMultipleOfTheAlignment()
    {
        try (OffHeapStore store = TestStores.builder(1, TestStores.clock()).build())
        {
            for (int length = 0; length < 40; length++)
            {
                store.set(("k" + length).getBytes(), filled(length, 'v'));
            }
            assertEquals(0, store.stats().liveEntryBytes() % 8, "live entry bytes are whole padded entries");
            store.verifyIntegrity();
        }
    }

    private static byte[] filled(final int length, final char c)
    {
        final byte[] value = new byte[length];
        Arrays.fill(value, (byte)c);
        return value;
    }

    private static byte[] sequence(final int length)
    {
        final byte[] value = new byte[length];
        for (int i = 0; i < length; i++)
        {
            value[i] = (byte)(i * 7 + 1);
        }
        return value;
    }
}
