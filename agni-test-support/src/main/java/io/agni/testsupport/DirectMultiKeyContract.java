package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.RenameResult;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The contract of the zero-copy forms of the multi-key operations: {@code getAll} over keys in one buffer, with the
 * values copied one after another into a caller's buffer, and {@code rename} over keys in buffers. Part of
 * {@link AgniStoreContract}.
 */
public abstract class DirectMultiKeyContract extends RenameContract
{
    // ------------------------------------------------------------------------------------------------------------
    // getAll into a buffer
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void directGetAllCopiesTheValuesOneAfterAnotherInKeyOrder()
    {
        store.set(bytes("a"), bytes("1"));
        store.set(bytes("bb"), bytes("22"));
        store.set(bytes("empty"), bytes(""));
        final Keys keys = new Keys("a", "missing", "bb", "empty", "a");
        final UnsafeBuffer dst = guardedBuffer(32);
        final int[] lengths = new int[7];
        Arrays.fill(lengths, 99);

        final int copied = store.getAll(keys.buffer, keys.offsets, keys.lengths, 5, dst, 3, lengths);

        assertEquals(4, copied);
        assertArrayEquals(new int[] {1, AgniStore.NOT_FOUND, 2, 0, 1, 99, 99}, lengths);
        assertBufferHolds(bytes("1221"), dst, 3);
    }

    @Test
    public void directGetAllReadsOnlyTheGivenKeyRanges()
    {
        store.set(bytes("ab"), bytes("whole"));
        store.set(bytes("a"), bytes("part"));
        final UnsafeBuffer buffer = bufferWith(bytes("abab"), 2);
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(1);
        final int[] lengths = new int[3];

        final int copied = store.getAll(buffer, new int[] {2, 4, 5}, new int[] {1, 2, 1}, 3, dst, 0, lengths);

        assertEquals(4 + 5, copied);
        assertArrayEquals(new int[] {4, 5, AgniStore.NOT_FOUND}, lengths);
        assertEquals("partwhole", dst.getStringWithoutLengthAscii(0, copied));
    }

    @Test
    public void directGetAllGrowsAnExpandableBufferForLargeValues()
    {
        final byte[] large = patterned(VALUES_UP_TO, 5);
        store.set(bytes("large"), large);
        store.set(bytes("small"), bytes("s"));
        final Keys keys = new Keys("small", "large", "small");
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);
        final int[] lengths = new int[3];

        assertEquals(large.length + 2, store.getAll(keys.buffer, keys.offsets, keys.lengths, 3, dst, 1, lengths));

        final byte[] read = new byte[large.length];
        dst.getBytes(2, read);
        assertArrayEquals(large, read);
        assertEquals('s', dst.getByte(1));
        assertEquals('s', dst.getByte(2 + large.length));
    }

    @Test
    public void directGetAllOfNoKeysCopiesNothing()
    {
        final UnsafeBuffer dst = guardedBuffer(4);

        assertEquals(0, store.getAll(new UnsafeBuffer(new byte[0]), new int[0], new int[0], 0, dst, 0, new int[0]));

        assertEquals(GUARD, dst.getByte(0));
    }

    @Test
    public void directGetAllIntoATooSmallBufferThatCannotGrowThrows()
    {
        store.set(bytes("a"), bytes("12345"));
        store.set(bytes("b"), bytes("678"));
        final Keys keys = new Keys("a", "b");

        assertThrows(IndexOutOfBoundsException.class,
            () -> store.getAll(keys.buffer, keys.offsets, keys.lengths, 2, new UnsafeBuffer(new byte[7]), 0, new int[2]));

        assertValue("12345", "a");
        assertValue("678", "b");
    }

    @Test
    public void directGetAllRefusesBadCountsAndLengths()
    {
        final Keys keys = new Keys("a", "b");
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer();

        assertThrows(IllegalArgumentException.class,
            () -> store.getAll(keys.buffer, keys.offsets, keys.lengths, -1, dst, 0, new int[2]), "negative count");
        assertThrows(IllegalArgumentException.class,
            () -> store.getAll(keys.buffer, keys.offsets, keys.lengths, 3, dst, 0, new int[3]), "count past the keys");
        assertThrows(IllegalArgumentException.class,
            () -> store.getAll(keys.buffer, keys.offsets, keys.lengths, 2, dst, 0, new int[1]),
            "count past the lengths");
        assertThrows(IllegalArgumentException.class,
            () -> store.getAll(keys.buffer, keys.offsets, new int[] {1, -1}, 2, dst, 0, new int[2]),
            "negative key length");
    }

    @Test
    public void directGetAllCountsAHitOrMissPerKey()
    {
        store.set(bytes("a"), bytes("1"));
        final Keys keys = new Keys("a", "x", "a");
        final StoreStats before = store.stats();

        store.getAll(keys.buffer, keys.offsets, keys.lengths, 3, new ExpandableArrayBuffer(), 0, new int[3]);

        final StoreStats after = store.stats();
        assertEquals(2, after.hits() - before.hits(), "hits");
        assertEquals(1, after.misses() - before.misses(), "misses");
    }

    // ------------------------------------------------------------------------------------------------------------
    // rename of keys in buffers
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void directRenameMovesTheValueAndItsExpiryTime()
    {
        final long at = hoursAhead(2);
        store.set(bytes("old"), bytes("value"), SetCondition.ALWAYS, ExpiryMode.AT, at);
        final UnsafeBuffer keys = bufferWith(bytes("xoldnewx"), 2);

        assertEquals(RenameResult.RENAMED, store.rename(keys, 3, 3, keys, 6, 3, false));

        assertValue(null, "old");
        assertValue("value", "new");
        assertEquals(at, store.expireTimeMillis(bytes("new")));
    }

    @ParameterizedTest(name = "replace={0}")
    @ValueSource(booleans = {true, false})
    public void directRenameGivesTheSameResultsAsTheArrayForm(final boolean replace)
    {
        store.set(bytes("a"), bytes("1"));
        store.set(bytes("b"), bytes("2"));
        final UnsafeBuffer a = bufferWith(bytes("a"), 1);
        final UnsafeBuffer b = bufferWith(bytes("b"), 3);
        final UnsafeBuffer none = bufferWith(bytes("none"), 0);

        assertEquals(RenameResult.NO_SUCH_KEY, store.rename(none, 0, 4, b, 3, 1, replace), "absent source");
        assertEquals(replace ? RenameResult.RENAMED : RenameResult.TARGET_EXISTS, store.rename(a, 1, 1, a, 1, 1,
            replace), "onto itself");
        assertEquals(replace ? RenameResult.RENAMED : RenameResult.TARGET_EXISTS, store.rename(a, 1, 1, b, 3, 1,
            replace), "onto an existing key");

        assertValue(replace ? null : "1", "a");
        assertValue(replace ? "1" : "2", "b");
    }

    /**
     * Keys packed into one buffer behind a guard byte each, as a server's parsed command holds them.
     */
    private static final class Keys
    {
        final UnsafeBuffer buffer;
        final int[] offsets;
        final int[] lengths;

        Keys(final String... keys)
        {
            final byte[] packed = new byte[Arrays.stream(keys).mapToInt(k -> k.length() + 1).sum() + 1];
            Arrays.fill(packed, GUARD);
            offsets = new int[keys.length];
            lengths = new int[keys.length];
            int at = 1;
            for (int i = 0; i < keys.length; i++)
            {
                final byte[] key = bytes(keys[i]);
                System.arraycopy(key, 0, packed, at, key.length);
                offsets[i] = at;
                lengths[i] = key.length;
                at += key.length + 1;
            }
            buffer = new UnsafeBuffer(packed);
        }
    }
}
