package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of the plain reads and writes: get, set, exists, delete, in the {@code byte[]} and the zero-copy
 * forms, and the multi-key getAll and setAll. Part of {@link AgniStoreContract}.
 */
public abstract class ReadWriteContract extends StoreContractSupport
{
    // ------------------------------------------------------------------------------------------------------------
    // get / set / exists / delete, byte[] form
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void getOfAbsentKeyReturnsNull()
    {
        assertNull(store.get(bytes("missing")));
        assertFalse(store.exists(bytes("missing")));
    }

    @Test
    public void setThenGetReturnsTheValue()
    {
        store.set(bytes("k"), bytes("v1"));

        assertValue("v1", "k");
        assertTrue(store.exists(bytes("k")));
    }

    @Test
    public void setOverwritesWithLongerAndShorterValues()
    {
        store.set(bytes("k"), bytes("short"));
        store.set(bytes("k"), bytes("a much longer value than before, long enough to need more room"));
        assertValue("a much longer value than before, long enough to need more room", "k");

        store.set(bytes("k"), bytes("x"));
        assertValue("x", "k");
        assertEquals(1, store.size());
    }

    @Test
    public void storeKeepsNoReferenceToTheCallersArrays()
    {
        final byte[] key = bytes("k");
        final byte[] value = bytes("value");
        store.set(key, value);
        value[0] = 'X';
        key[0] = 'j';

        final byte[] read = store.get(bytes("k"));
        assertArrayEquals(bytes("value"), read);
        read[0] = 'Y';

        assertValue("value", "k");
        assertNull(store.get(bytes("j")));
    }

    @Test
    public void emptyValueIsStoredAndDiffersFromAbsent()
    {
        store.set(bytes("k"), new byte[0]);

        final byte[] read = store.get(bytes("k"));
        assertNotNull(read, "an empty value is a value");
        assertEquals(0, read.length);
        assertTrue(store.exists(bytes("k")));
        assertEquals(1, store.size());
    }

    @Test
    public void emptyKeyIsAValidKey()
    {
        store.set(new byte[0], bytes("for the empty key"));

        assertValue(bytes("for the empty key"), new byte[0]);
        assertTrue(store.exists(new byte[0]));
        assertNull(store.get(bytes("\0")), "the empty key is not the key \\0");
        assertTrue(store.delete(new byte[0]));
        assertFalse(store.exists(new byte[0]));
    }

    @Test
    public void keysThatArePrefixesOfEachOtherAreDistinct()
    {
        final String[] keys = {"", "a", "ab", "abc", "abcd", "abcdefgh", "abcdefghi", "abcdefghijklmnop", "b"};
        for (final String key : keys)
        {
            store.set(bytes(key), bytes("value of " + key));
        }
        for (final String key : keys)
        {
            assertValue("value of " + key, key);
        }
        assertEquals(keys.length, store.size());
    }

    @Test
    public void binaryKeysAndValuesRoundTrip()
    {
        final byte[] allBytes = allByteValues();
        final byte[] crlf = bytes("line\r\nnext\r\n");
        final byte[] zeros = new byte[33];
        final byte[] zeroKey = new byte[9];

        store.set(allBytes, crlf);
        store.set(crlf, zeros);
        store.set(zeroKey, allBytes);
        store.set(bytes("\0"), bytes("one zero byte"));

        assertValue(crlf, allBytes);
        assertValue(zeros, crlf);
        assertValue(allBytes, zeroKey);
        assertValue(bytes("one zero byte"), bytes("\0"));
        assertNull(store.get(new byte[8]), "eight zero bytes are not nine");
        assertNull(store.get(new byte[10]), "ten zero bytes are not nine");
    }

    @Test
    public void valuesOfManySizesRoundTrip()
    {
        final int[] sizes = {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 255, 256, 1000, 4095, 4096};
        for (final int size : sizes)
        {
            store.set(bytes("size:" + size), patterned(size, size));
        }
        for (final int size : sizes)
        {
            assertValue(patterned(size, size), bytes("size:" + size));
        }
    }

    @Test
    public void deleteRemovesAKeyAndSaysWhetherItWasThere()
    {
        store.set(bytes("k"), bytes("v"));
        store.set(bytes("other"), bytes("stays"));

        assertTrue(store.delete(bytes("k")));
        assertNull(store.get(bytes("k")));
        assertFalse(store.exists(bytes("k")));
        assertFalse(store.delete(bytes("k")), "second delete");
        assertFalse(store.delete(bytes("never-set")));
        assertValue("stays", "other");
        assertEquals(1, store.size());
    }

    @Test
    public void keyCanBeSetAgainAfterDelete()
    {
        store.set(bytes("k"), bytes("v1"));
        store.delete(bytes("k"));
        store.set(bytes("k"), bytes("v2"));

        assertValue("v2", "k");
        assertEquals(1, store.size());
    }

    @Test
    public void nullArgumentsAreRejectedWithNullPointerException()
    {
        assertThrows(NullPointerException.class, () -> store.get(null));
        assertThrows(NullPointerException.class, () -> store.set(null, bytes("v")));
        assertThrows(NullPointerException.class, () -> store.set(bytes("k"), null));
        assertThrows(NullPointerException.class, () -> store.exists(null));
        assertThrows(NullPointerException.class, () -> store.delete(null));
        assertThrows(NullPointerException.class, () -> store.getAll(null));
        assertThrows(NullPointerException.class, () -> store.setAll(null, List.of(), SetCondition.ALWAYS));
        assertFalse(store.exists(bytes("k")), "a refused call wrote nothing");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Zero-copy forms
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void directGetCopiesTheValueToTheOffsetAndTouchesNothingBefore()
    {
        store.set(bytes("key"), bytes("the value"));
        final UnsafeBuffer key = bufferWith(bytes("key"), 3);
        final UnsafeBuffer dst = guardedBuffer(64);

        final int length = store.get(key, 3, 3, dst, 11);

        assertEquals(9, length);
        assertBufferHolds(bytes("the value"), dst, 11);
        assertEquals(GUARD, dst.getByte(20), "byte after the value");
    }

    @Test
    public void directGetOfAbsentKeyReturnsNotFoundAndLeavesTheBuffer()
    {
        final UnsafeBuffer dst = guardedBuffer(16);

        assertEquals(AgniStore.NOT_FOUND, store.get(bufferWith(bytes("nope"), 0), 0, 4, dst, 0));
        for (int i = 0; i < 16; i++)
        {
            assertEquals(GUARD, dst.getByte(i));
        }
    }

    @Test
    public void directGetOfEmptyValueReturnsZero()
    {
        store.set(bytes("k"), new byte[0]);

        assertEquals(0, store.get(bufferWith(bytes("k"), 2), 2, 1, guardedBuffer(4), 4));
    }

    @Test
    public void directGetGrowsAnExpandableArrayBuffer()
    {
        final byte[] value = patterned(5000, 1);
        store.set(bytes("big"), value);
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);

        final int length = store.get(bufferWith(bytes("big"), 1), 1, 3, dst, 3);

        assertEquals(5000, length);
        final byte[] copied = new byte[5000];
        dst.getBytes(3, copied);
        assertArrayEquals(value, copied);
    }

    @Test
    public void directGetGrowsAnExpandableDirectByteBuffer()
    {
        final byte[] value = patterned(3000, 2);
        store.set(bytes("big"), value);
        final ExpandableDirectByteBuffer dst = new ExpandableDirectByteBuffer(16);

        final int length = store.get(bufferWith(bytes("big"), 0), 0, 3, dst, 100);

        assertEquals(3000, length);
        final byte[] copied = new byte[3000];
        dst.getBytes(100, copied);
        assertArrayEquals(value, copied);
    }

    /**
     * A key of the common length (16 bytes) and a value of the common shape, which an in-process store may read on a
     * fast path: a key range past the end of its buffer, or a destination offset before its start, is refused as a
     * mistake in the call, and an expandable destination grows.
     */
    @Test
    public void directGetChecksTheKeyRangeAndTheDestinationOffset()
    {
        final byte[] key = bytes("sixteen-byte-key");
        store.set(key, patterned(100, 7));
        final UnsafeBuffer keys = bufferWith(key, 4);

        assertThrows(IndexOutOfBoundsException.class,
            () -> store.get(keys, 10, 16, new UnsafeBuffer(new byte[200]), 0));
        assertThrows(IndexOutOfBoundsException.class,
            () -> store.get(keys, -1, 16, new UnsafeBuffer(new byte[200]), 0));
        assertThrows(IndexOutOfBoundsException.class,
            () -> store.get(keys, 4, 16, new UnsafeBuffer(new byte[200]), -1));
        assertThrows(IndexOutOfBoundsException.class,
            () -> store.get(keys, 4, 16, new ExpandableArrayBuffer(200), -1));

        final ExpandableArrayBuffer grows = new ExpandableArrayBuffer(8);
        assertEquals(100, store.get(keys, 4, 16, grows, 50));
        final byte[] copied = new byte[100];
        grows.getBytes(50, copied);
        assertArrayEquals(patterned(100, 7), copied);
        assertValue(patterned(100, 7), key);
    }

    @Test
    public void directGetIntoTooSmallBufferThrowsIndexOutOfBounds()
    {
        store.set(bytes("k"), patterned(16, 3));
        final UnsafeBuffer key = bufferWith(bytes("k"), 0);

        assertThrows(IndexOutOfBoundsException.class, () -> store.get(key, 0, 1, new UnsafeBuffer(new byte[15]), 0));
        assertThrows(IndexOutOfBoundsException.class, () -> store.get(key, 0, 1, new UnsafeBuffer(new byte[20]), 5));
        assertValue(patterned(16, 3), bytes("k"));
    }

    @Test
    public void directGetIntoBufferWithExactlyEnoughRoomSucceeds()
    {
        store.set(bytes("k"), patterned(16, 4));
        final UnsafeBuffer dst = guardedBuffer(20);

        assertEquals(16, store.get(bufferWith(bytes("k"), 0), 0, 1, dst, 4));
        assertBufferHolds(patterned(16, 4), dst, 4);
    }

    @Test
    public void directSetReadsOnlyTheGivenRanges()
    {
        final UnsafeBuffer key = bufferWith(bytes("key"), 5);
        final UnsafeBuffer value = bufferWith(bytes("value"), 7);

        store.set(key, 5, 3, value, 7, 5);

        assertValue("value", "key");
        assertEquals(1, store.size());
    }

    @Test
    public void directAndByteArrayFormsAddressTheSameEntry()
    {
        store.set(bytes("shared"), bytes("from byte[]"));
        final UnsafeBuffer key = bufferWith(bytes("shared"), 9);
        assertTrue(store.exists(key, 9, 6));

        store.set(key, 9, 6, bufferWith(bytes("from buffer"), 2), 2, 11);
        assertValue("from buffer", "shared");
        assertEquals(1, store.size());

        assertTrue(store.delete(key, 9, 6));
        assertFalse(store.exists(bytes("shared")));
        assertFalse(store.exists(key, 9, 6));
        assertFalse(store.delete(key, 9, 6));
    }

    @Test
    public void directSetOfEmptyValueStoresAnEmptyValue()
    {
        store.set(bufferWith(bytes("k"), 1), 1, 1, guardedBuffer(0), 0, 0);

        assertArrayEquals(new byte[0], store.get(bytes("k")));
    }

    @Test
    public void directFormsWithEmptyKeyAddressTheEmptyKey()
    {
        store.set(guardedBuffer(4), 2, 0, bufferWith(bytes("v"), 0), 0, 1);

        assertValue(bytes("v"), new byte[0]);
        assertTrue(store.exists(guardedBuffer(4), 4, 0));
    }

    @Test
    public void directKeyRangeMatchesByContentNotByBuffer()
    {
        final UnsafeBuffer keys = new UnsafeBuffer(bytes("xxabcabcxx"));
        store.set(keys, 2, 3, bufferWith(bytes("v"), 0), 0, 1);

        assertTrue(store.exists(keys, 5, 3), "the same bytes at another offset are the same key");
        assertFalse(store.exists(keys, 2, 2));
        assertFalse(store.exists(keys, 2, 4));
        assertEquals(1, store.size());
    }

    // ------------------------------------------------------------------------------------------------------------
    // getAll
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void getAllReturnsValuesInOrderWithNullForMissingKeys()
    {
        store.set(bytes("a"), bytes("1"));
        store.set(bytes("c"), bytes("3"));

        final List<byte[]> values = store.getAll(List.of(bytes("a"), bytes("b"), bytes("c"), bytes("d")));

        assertEquals(Arrays.asList("1", null, "3", null), texts(values));
    }

    @Test
    public void getAllWithRepeatedKeysReturnsTheValueForEachOccurrence()
    {
        store.set(bytes("a"), bytes("1"));

        final List<byte[]> values = store.getAll(List.of(bytes("a"), bytes("a"), bytes("x"), bytes("a")));

        assertEquals(Arrays.asList("1", "1", null, "1"), texts(values));
        assertTrue(values.get(0) != values.get(1), "each element is its own copy");
    }

    @Test
    public void getAllOfNoKeysReturnsAnEmptyList()
    {
        assertEquals(List.of(), store.getAll(List.of()));
    }

    @Test
    public void getAllReturnsEmptyValuesAsEmptyArrays()
    {
        store.set(bytes("e"), new byte[0]);

        final List<byte[]> values = store.getAll(List.of(bytes("e")));

        assertNotNull(values.get(0));
        assertEquals(0, values.get(0).length);
    }

    // ------------------------------------------------------------------------------------------------------------
    // setAll
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void setAllWritesEveryKey()
    {
        store.set(bytes("b"), bytes("old"));

        assertTrue(store.setAll(keys("a", "b", "c"), keys("1", "2", "3"), SetCondition.ALWAYS));

        assertEquals(Arrays.asList("1", "2", "3"), texts(store.getAll(keys("a", "b", "c"))));
        assertEquals(3, store.size());
    }

    @Test
    public void setAllClearsTheExpiryOfKeysItOverwrites()
    {
        store.set(bytes("a"), bytes("old"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));

        store.setAll(keys("a", "b"), keys("1", "2"), SetCondition.ALWAYS);

        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("a")));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("b")));
    }

    @Test
    public void setAllWithARepeatedKeyKeepsTheLastValue()
    {
        assertTrue(store.setAll(keys("a", "b", "a"), keys("first", "2", "last"), SetCondition.ALWAYS));

        assertValue("last", "a");
        assertValue("2", "b");
        assertEquals(2, store.size());
    }

    @Test
    public void setAllIfAbsentWritesWhenNoKeyExists()
    {
        assertTrue(store.setAll(keys("a", "b"), keys("1", "2"), SetCondition.IF_ABSENT));

        assertValue("1", "a");
        assertValue("2", "b");
    }

    @Test
    public void setAllIfAbsentWritesNothingWhenOneKeyExists()
    {
        store.set(bytes("c"), bytes("existing"));

        assertFalse(store.setAll(keys("a", "b", "c"), keys("1", "2", "3"), SetCondition.IF_ABSENT));

        assertValue(null, "a");
        assertValue(null, "b");
        assertValue("existing", "c");
        assertEquals(1, store.size());
    }

    @Test
    public void setAllIfAbsentTreatsAnExpiredKeyAsAbsent()
    {
        store.set(bytes("a"), bytes("gone"), SetCondition.ALWAYS, ExpiryMode.AT, anHourAgo());

        assertTrue(store.setAll(keys("a", "b"), keys("1", "2"), SetCondition.IF_ABSENT));

        assertValue("1", "a");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("a")));
    }

    @Test
    public void setAllIfAbsentWithARepeatedAbsentKeyWritesTheLastValue()
    {
        assertTrue(store.setAll(keys("a", "a"), keys("first", "last"), SetCondition.IF_ABSENT));

        assertValue("last", "a");
    }

    @Test
    public void setAllFromOneBufferWritesEveryPairAndTheLastValueOfARepeatedKey()
    {
        store.set(bytes("b"), bytes("old"));
        final String text = "..a.1..b.22.c.333.a.last";
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes(text));
        final int[] offsets = {2, 4, 7, 9, 12, 14, 18, 20, -1, -1};
        final int[] lengths = {1, 1, 1, 2, 1, 3, 1, 4, -1, -1};

        assertTrue(store.setAll(buffer, offsets, lengths, 4, SetCondition.ALWAYS));

        assertEquals(Arrays.asList("last", "22", "333"), texts(store.getAll(keys("a", "b", "c"))));
        assertEquals(3, store.size());
        assertFalse(store.setAll(buffer, offsets, lengths, 1, SetCondition.IF_ABSENT), "a is present");
        assertValue("last", "a");
    }

    @Test
    public void setAllFromOneBufferRefusesArraysShorterThanThePairs()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes("a1"));

        assertThrows(IllegalArgumentException.class,
            () -> store.setAll(buffer, new int[] {0, 1}, new int[] {1, 1}, 2, SetCondition.ALWAYS));
        assertThrows(IllegalArgumentException.class,
            () -> store.setAll(buffer, new int[] {0, 1}, new int[] {1, 1}, -1, SetCondition.ALWAYS));
        assertEquals(0, store.size());
    }

    @Test
    public void setAllOfALargeBatchThenOfASmallOneWritesBothWhole()
    {
        final int pairs = 1_500; // more than a store may keep scratch for; 50 keys, each repeated 30 times
        final List<byte[]> keys = new ArrayList<>();
        final List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < pairs; i++)
        {
            keys.add(bytes("k" + (i % 50)));
            values.add(bytes("v" + i));
        }

        assertTrue(store.setAll(keys, values, SetCondition.ALWAYS));
        assertTrue(store.setAll(keys("k0", "small"), keys("again", "s"), SetCondition.ALWAYS));

        assertEquals(51, store.size());
        assertValue("again", "k0");
        assertValue("v1451", "k1");
        assertValue("v1499", "k49");
        assertValue("s", "small");
    }

    /**
     * Redis has no {@code MSET} that writes only if every key exists: skipped for a fixture that declares
     * {@link OptionalOperation#SET_ALL_IF_PRESENT} unsupported.
     */
    @Test
    public void setAllIfPresentWritesOnlyWhenEveryKeyExists()
    {
        requireSupported(OptionalOperation.SET_ALL_IF_PRESENT);
        store.set(bytes("a"), bytes("old-a"));

        assertFalse(store.setAll(keys("a", "b"), keys("1", "2"), SetCondition.IF_PRESENT));
        assertValue("old-a", "a");
        assertValue(null, "b");

        store.set(bytes("b"), bytes("old-b"));
        assertTrue(store.setAll(keys("a", "b"), keys("1", "2"), SetCondition.IF_PRESENT));
        assertValue("1", "a");
        assertValue("2", "b");
    }

    /**
     * Redis has no {@code MSET} that writes only if every key exists: skipped for a fixture that declares
     * {@link OptionalOperation#SET_ALL_IF_PRESENT} unsupported.
     */
    @Test
    public void setAllIfPresentTreatsAnExpiredKeyAsAbsent()
    {
        requireSupported(OptionalOperation.SET_ALL_IF_PRESENT);
        store.set(bytes("a"), bytes("old-a"));
        store.set(bytes("b"), bytes("gone"), SetCondition.ALWAYS, ExpiryMode.AT, anHourAgo());

        assertFalse(store.setAll(keys("a", "b"), keys("1", "2"), SetCondition.IF_PRESENT));
        assertValue("old-a", "a");
        assertValue(null, "b");
    }

    /**
     * {@code setAll} with {@code IF_PRESENT}, both forms, over keys that all exist: written, or, where the fixture
     * declares it {@linkplain OptionalOperation#SET_ALL_IF_PRESENT unsupported}, refused with
     * {@link UnsupportedOperationException} and nothing changed, as {@link AgniStore} allows.
     */
    @Test
    public void setAllIfPresentIsDoneOrRefusedAsTheFixtureDeclares()
    {
        store.set(bytes("a"), bytes("old-a"));
        store.set(bytes("b"), bytes("old-b"));
        final UnsafeBuffer buffer = bufferWith(bytes("a3b4"), 0);
        final int[] offsets = {0, 1, 2, 3};
        final int[] lengths = {1, 1, 1, 1};

        if (fixture.supports(OptionalOperation.SET_ALL_IF_PRESENT))
        {
            assertTrue(store.setAll(keys("a", "b"), keys("1", "2"), SetCondition.IF_PRESENT));
            assertValue("1", "a");
            assertValue("2", "b");
            assertTrue(store.setAll(buffer, offsets, lengths, 2, SetCondition.IF_PRESENT));
            assertValue("3", "a");
            assertValue("4", "b");
        }
        else
        {
            assertThrows(UnsupportedOperationException.class,
                () -> store.setAll(keys("a", "b"), keys("1", "2"), SetCondition.IF_PRESENT));
            assertThrows(UnsupportedOperationException.class,
                () -> store.setAll(buffer, offsets, lengths, 2, SetCondition.IF_PRESENT));
            assertValue("old-a", "a");
            assertValue("old-b", "b");
        }
        assertEquals(2, store.size());
    }

    @Test
    public void setAllWithListsOfDifferentSizesThrowsAndWritesNothing()
    {
        assertThrows(IllegalArgumentException.class,
            () -> store.setAll(keys("a", "b"), keys("1"), SetCondition.ALWAYS));
        assertThrows(IllegalArgumentException.class,
            () -> store.setAll(keys("a"), keys("1", "2"), SetCondition.ALWAYS));

        assertEquals(0, store.size());
        assertFalse(store.exists(bytes("a")));
    }

    @Test
    public void setAllWithBinaryAndEmptyValuesRoundTrips()
    {
        final List<byte[]> keys = List.of(allByteValues(), new byte[0], bytes("\r\n"));
        final List<byte[]> values = List.of(new byte[0], allByteValues(), new byte[3]);

        assertTrue(store.setAll(keys, values, SetCondition.ALWAYS));

        final List<byte[]> read = store.getAll(keys);
        for (int i = 0; i < keys.size(); i++)
        {
            assertArrayEquals(values.get(i), read.get(i), "value " + i);
        }
    }

    /**
     * Keys as {@code byte[]}s.
     *
     * @param texts the keys as text.
     * @return a new mutable list.
     */
    protected static List<byte[]> keys(final String... texts)
    {
        final List<byte[]> list = new ArrayList<>(texts.length);
        for (final String text : texts)
        {
            list.add(bytes(text));
        }
        return list;
    }

    /**
     * Values as text, {@code null}s kept.
     *
     * @param values the values.
     * @return the texts.
     */
    protected static List<String> texts(final List<byte[]> values)
    {
        final List<String> list = new ArrayList<>(values.size());
        for (final byte[] value : values)
        {
            list.add(text(value));
        }
        return list;
    }
}
