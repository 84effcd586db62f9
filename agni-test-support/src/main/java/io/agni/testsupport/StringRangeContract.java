package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.EntryTooLargeException;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract of the byte-range operations: valueLength ({@code STRLEN}), getRange ({@code GETRANGE}, with Redis 7's
 * index rules) and setRange ({@code SETRANGE}: zero padding, the empty-value cases, the value limit). Part of
 * {@link AgniStoreContract}.
 */
public abstract class StringRangeContract extends CounterAndAppendContract
{
    private static final String HELLO = "Hello World";

    // ------------------------------------------------------------------------------------------------------------
    // valueLength
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void valueLengthOfAbsentKeyIsNotFound()
    {
        assertEquals(AgniStore.NOT_FOUND, store.valueLength(bytes("k")));
        assertEquals(AgniStore.NOT_FOUND, store.valueLength(bufferWith(bytes("k"), 2), 2, 1));
    }

    @Test
    public void valueLengthCountsTheBytesOfTheValue()
    {
        store.set(bytes("k"), bytes(HELLO));
        store.set(bytes("bin"), allByteValues());
        store.set(bytes("empty"), new byte[0]);

        assertEquals(11, store.valueLength(bytes("k")));
        assertEquals(256, store.valueLength(bytes("bin")));
        assertEquals(0, store.valueLength(bytes("empty")), "an empty value is present, with length 0");
        assertEquals(256, store.valueLength(bufferWith(bytes("bin"), 3), 3, 3));
    }

    @Test
    public void valueLengthOfALargeValue()
    {
        store.set(bytes("k"), patterned(VALUES_UP_TO, 5));

        assertEquals(VALUES_UP_TO, store.valueLength(bytes("k")));
    }

    @Test
    public void valueLengthOfExpiredKeyIsNotFound()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        fixture.advanceTime(10);

        assertEquals(AgniStore.NOT_FOUND, store.valueLength(bytes("k")));
    }

    @Test
    public void directValueLengthUsesOnlyTheGivenKeyRange()
    {
        store.set(bytes("key"), bytes("abc"));
        store.set(bytes("ke"), bytes("abcdef"));

        assertEquals(6, store.valueLength(bufferWith(bytes("key"), 4), 4, 2), "\"ke\" is another key");
        assertEquals(3, store.valueLength(bufferWith(bytes("key"), 4), 4, 3));
    }

    // ------------------------------------------------------------------------------------------------------------
    // getRange
    // ------------------------------------------------------------------------------------------------------------

    /**
     * The cases of Redis's {@code GETRANGE against string value} test, quirks included.
     */
    @ParameterizedTest(name = "GETRANGE \"Hello World\" {0} {1} = \"{2}\"")
    @CsvSource(value = {
        "0, 3, Hell",
        "0, -1, Hello World",
        "-4, -1, orld",
        "5, 3, ''",
        "5, 5000, ' World'",
        "-5000, 10000, Hello World",
        "0, -100, H",
        "1, -100, ''",
        "-1, -100, ''",
        "-100, -99, H",
        "-100, -100, H",
        "-100, -101, ''",
        "10, 10, d",
        "11, 11, ''",
        "-1, -1, d",
        "-11, -11, H",
        "3, -3, lo Wor",
        "-9223372036854775808, 9223372036854775807, Hello World",
        "9223372036854775807, 9223372036854775807, ''",
        "-9223372036854775808, -9223372036854775808, H"
    })
    public void getRangeFollowsRedisIndexRules(final long start, final long end, final String expected)
    {
        store.set(bytes("k"), bytes(HELLO));

        assertEquals(expected, text(store.getRange(bytes("k"), start, end)));

        final UnsafeBuffer dst = guardedBuffer(32);
        final int copied = store.getRange(bufferWith(bytes("k"), 1), 1, 1, start, end, dst, 4);
        assertEquals(expected.length(), copied);
        assertBufferHolds(bytes(expected), dst, 4);
        assertEquals(GUARD, dst.getByte(4 + copied), "the byte after the range is untouched");
    }

    @Test
    public void getRangeOfAbsentKeyIsEmpty()
    {
        assertArrayEquals(new byte[0], store.getRange(bytes("k"), 0, -1));
        final UnsafeBuffer dst = guardedBuffer(8);
        assertEquals(0, store.getRange(bufferWith(bytes("k"), 0), 0, 1, 0, -1, dst, 2));
        assertBufferHolds(new byte[0], dst, 8);
        assertFalse(store.exists(bytes("k")), "reading a range creates nothing");
    }

    @Test
    public void getRangeOfEmptyValueIsEmpty()
    {
        store.set(bytes("k"), new byte[0]);

        assertArrayEquals(new byte[0], store.getRange(bytes("k"), 0, -1));
        assertArrayEquals(new byte[0], store.getRange(bytes("k"), 0, 0));
        assertArrayEquals(new byte[0], store.getRange(bytes("k"), -1, -1));
    }

    @Test
    public void getRangeOfExpiredKeyIsEmpty()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("value"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        fixture.advanceTime(10);

        assertArrayEquals(new byte[0], store.getRange(bytes("k"), 0, -1));
    }

    @Test
    public void getRangeCopiesTheRangeOfALargeValue()
    {
        final byte[] value = patterned(VALUES_UP_TO, 11);
        store.set(bytes("k"), value);

        assertArrayEquals(Arrays.copyOfRange(value, 4000, 4010), store.getRange(bytes("k"), 4000, 4009));
        assertArrayEquals(
            Arrays.copyOfRange(value, VALUES_UP_TO - 3, VALUES_UP_TO), store.getRange(bytes("k"), -3, -1));
        assertArrayEquals(value, store.getRange(bytes("k"), 0, -1));
    }

    @Test
    public void getRangeOfBinaryValue()
    {
        store.set(bytes("k"), allByteValues());

        assertArrayEquals(Arrays.copyOfRange(allByteValues(), 250, 256), store.getRange(bytes("k"), 250, 300));
        assertArrayEquals(new byte[] {0}, store.getRange(bytes("k"), 0, 0));
    }

    @Test
    public void directGetRangeGrowsAnExpandableBuffer()
    {
        final byte[] value = patterned(3000, 2);
        store.set(bytes("k"), value);
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(4);

        assertEquals(2000, store.getRange(bufferWith(bytes("k"), 0), 0, 1, 1000, 2999, dst, 7));

        final byte[] copied = new byte[2000];
        dst.getBytes(7, copied);
        assertArrayEquals(Arrays.copyOfRange(value, 1000, 3000), copied);
    }

    @Test
    public void directGetRangeIntoTooSmallBufferThrowsIndexOutOfBounds()
    {
        store.set(bytes("k"), bytes(HELLO));

        assertThrows(IndexOutOfBoundsException.class,
            () -> store.getRange(bufferWith(bytes("k"), 0), 0, 1, 0, 5, new UnsafeBuffer(new byte[8]), 3));
        assertEquals(3, store.getRange(bufferWith(bytes("k"), 0), 0, 1, 0, 2, new UnsafeBuffer(new byte[8]), 5),
            "a range that fits exactly is copied");
        assertValue(HELLO, "k");
    }

    // ------------------------------------------------------------------------------------------------------------
    // setRange
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void setRangeOverwritesInsideTheValueAndKeepsItsLength()
    {
        store.set(bytes("k"), bytes(HELLO));

        assertEquals(11, store.setRange(bytes("k"), 6, bytes("Redis")));

        assertValue("Hello Redis", "k");
    }

    @Test
    public void setRangeExtendsTheValuePastItsEnd()
    {
        store.set(bytes("k"), bytes("Hello"));

        assertEquals(10, store.setRange(bytes("k"), 3, bytes("p World")));

        assertValue("Help World", "k");
    }

    @Test
    public void setRangePadsAShorterValueWithZeros()
    {
        store.set(bytes("k"), bytes("ab"));

        assertEquals(7, store.setRange(bytes("k"), 5, bytes("xy")));

        assertValue("ab\0\0\0xy", "k");
    }

    @Test
    public void setRangePadsAnAbsentKeyWithZeros()
    {
        assertEquals(8, store.setRange(bytes("k"), 5, bytes("abc")));

        assertValue("\0\0\0\0\0abc", "k");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    @Test
    public void setRangeAtOffsetZeroOfAbsentKeyStoresTheBytes()
    {
        assertEquals(256, store.setRange(bytes("k"), 0, allByteValues()));

        assertValue(allByteValues(), bytes("k"));
    }

    @Test
    public void setRangeOfEmptyValueOnAbsentKeyCreatesNothing()
    {
        assertEquals(0, store.setRange(bytes("k"), 0, new byte[0]));
        assertEquals(0, store.setRange(bytes("k"), 100, new byte[0]));

        assertFalse(store.exists(bytes("k")));
        assertEquals(0, store.size());
    }

    @Test
    public void setRangeOfEmptyValueOnExistingKeyReturnsItsLengthAndChangesNothing()
    {
        final long at = hoursAhead(1);
        store.set(bytes("k"), bytes("abc"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertEquals(3, store.setRange(bytes("k"), 1, new byte[0]));
        assertEquals(3, store.setRange(bytes("k"), 10, new byte[0]), "an empty write past the end pads nothing");

        assertValue("abc", "k");
        assertEquals(at, store.expireTimeMillis(bytes("k")));
    }

    @Test
    public void setRangeOfEmptyValueIsNotHeldAgainstTheValueLimit()
    {
        store.set(bytes("k"), bytes("abc"));

        assertEquals(3, store.setRange(bytes("k"), Long.MAX_VALUE, new byte[0]));
        assertEquals(0, store.setRange(bytes("absent"), Long.MAX_VALUE, new byte[0]));
    }

    @Test
    public void setRangeKeepsTheExpiryTimeInPlaceAndWhenTheValueGrows()
    {
        final long at = hoursAhead(1);
        store.set(bytes("k"), bytes("abcdef"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertEquals(6, store.setRange(bytes("k"), 2, bytes("XY")));
        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertEquals(12, store.setRange(bytes("k"), 8, bytes("1234")));
        assertEquals(at, store.expireTimeMillis(bytes("k")));

        assertValue("abXYef\0\0001234", "k");
    }

    @Test
    public void setRangeOfExpiredKeyStartsFromAnEmptyValue()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("abcdef"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        fixture.advanceTime(10);

        assertEquals(3, store.setRange(bytes("k"), 1, bytes("xy")));

        assertValue("\0xy", "k");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    @Test
    public void setRangeWithNegativeOffsetIsAnIllegalArgumentAndChangesNothing()
    {
        store.set(bytes("k"), bytes("abc"));

        assertThrows(IllegalArgumentException.class, () -> store.setRange(bytes("k"), -1, bytes("x")));
        assertThrows(IllegalArgumentException.class, () -> store.setRange(bytes("new"), -1, bytes("x")));
        assertThrows(IllegalArgumentException.class,
            () -> store.setRange(bufferWith(bytes("k"), 0), 0, 1, Long.MIN_VALUE, bufferWith(bytes("x"), 0), 0, 1));

        assertValue("abc", "k");
        assertFalse(store.exists(bytes("new")));
    }

    @Test
    public void setRangePastTheValueLimitIsRefusedBeforeAnythingChanges()
    {
        assumeTrue(fixture.maxValueLength().isPresent(), "the fixture does not state the store's value limit");
        final int limit = fixture.maxValueLength().getAsInt();
        store.set(bytes("k"), bytes("abc"));

        final EntryTooLargeException ex =
            assertThrows(EntryTooLargeException.class, () -> store.setRange(bytes("k"), limit - 1, bytes("xy")));
        assertEquals("value too large: length=" + (limit + 1) + ", limit=" + limit, ex.getMessage());
        assertThrows(EntryTooLargeException.class, () -> store.setRange(bytes("new"), limit, bytes("x")));
        assertThrows(EntryTooLargeException.class, () -> store.setRange(bytes("k"), Long.MAX_VALUE, bytes("x")));
        assertThrows(EntryTooLargeException.class, () -> store.setRange(
            bufferWith(bytes("k"), 0), 0, 1, Integer.MAX_VALUE, bufferWith(bytes("x"), 0), 0, 1));

        assertValue("abc", "k");
        assertFalse(store.exists(bytes("new")));
        assertEquals(limit, store.setRange(bytes("k"), limit - 1, bytes("x")), "a write that ends at the limit fits");
    }

    @Test
    public void setRangeThenGetRangeReadsBackTheWrittenBytes()
    {
        store.setRange(bytes("k"), 100, bytes("needle"));

        assertEquals("needle", text(store.getRange(bytes("k"), 100, 105)));
        assertEquals(106, store.valueLength(bytes("k")));
        assertArrayEquals(new byte[100], store.getRange(bytes("k"), 0, 99), "the padding is zeros");
    }

    @Test
    public void setRangeAgreesWithAnArrayModelOverManyWrites()
    {
        final SplittableRandom random = new SplittableRandom(7);
        byte[] expected = new byte[0];
        for (int i = 0; i < 200; i++)
        {
            final int offset = random.nextInt(VALUES_UP_TO / 2);
            final byte[] piece = patterned(random.nextInt(40), i);
            final long length = store.setRange(bytes("k"), offset, piece);
            if (piece.length > 0 && offset + piece.length > expected.length)
            {
                expected = Arrays.copyOf(expected, offset + piece.length);
            }
            System.arraycopy(piece, 0, expected, offset, piece.length);
            assertEquals(expected.length, length, "length after write " + i);
        }

        assertValue(expected, bytes("k"));
    }

    @Test
    public void directSetRangeUsesOnlyTheGivenRanges()
    {
        store.set(bytes("k"), bytes("abcdef"));

        assertEquals(6, store.setRange(bufferWith(bytes("kk"), 3), 4, 1, 1, bufferWith(bytes("XYZ"), 6), 7, 2));
        assertEquals(4, store.setRange(bufferWith(bytes("new"), 1), 1, 3, 2, bufferWith(bytes("pq"), 2), 2, 2));

        assertValue("aYZdef", "k");
        assertValue("\0\0pq", "new");
    }
}
