package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of the atomic read-modify-write primitives: conditional set with an expiry mode, getAndSet,
 * getAndDelete and getAndExpire. Part of {@link AgniStoreContract}.
 */
public abstract class ConditionalWriteContract extends ReadWriteContract
{
    /**
     * What a key is before a conditional write.
     */
    protected enum Before
    {
        /** Never set. */
        ABSENT,
        /** Set with an expiry time that has passed. */
        EXPIRED,
        /** Present without an expiry time. */
        NO_EXPIRY,
        /** Present with an expiry time two hours ahead. */
        WITH_EXPIRY;

        boolean live()
        {
            return this == NO_EXPIRY || this == WITH_EXPIRY;
        }
    }

    static List<Arguments> conditionalWriteCases()
    {
        final List<Arguments> cases = new ArrayList<>();
        for (final Before before : Before.values())
        {
            for (final SetCondition condition : SetCondition.values())
            {
                for (final ExpiryMode mode : ExpiryMode.values())
                {
                    cases.add(Arguments.of(before, condition, mode, false));
                    cases.add(Arguments.of(before, condition, mode, true));
                }
            }
        }
        return cases;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Conditional set: every condition x expiry mode x prior state
    // ------------------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} key, {1}, {2}, direct={3}")
    @MethodSource("conditionalWriteCases")
    public void conditionalSetWritesOnlyWhenTheConditionHoldsAndAppliesTheExpiryMode(
        final Before before, final SetCondition condition, final ExpiryMode mode, final boolean direct)
    {
        final long oldExpiry = prepare(before);
        final long time = timeFor(mode);
        final long sentAt = now();

        final boolean written;
        if (direct)
        {
            written = store.set(
                bufferWith(bytes("k"), 3), 3, 1, bufferWith(bytes("new"), 1), 1, 3, condition, mode, time);
        }
        else
        {
            written = store.set(bytes("k"), bytes("new"), condition, mode, time);
        }

        assertEquals(shouldWrite(before, condition), written, "written");
        assertOutcome(before, mode, written, oldExpiry, time, sentAt);
    }

    @ParameterizedTest(name = "{0} key, {1}, {2}, direct={3}")
    @MethodSource("conditionalWriteCases")
    public void getAndSetReturnsThePreviousValueAndWritesOnlyWhenTheConditionHolds(
        final Before before, final SetCondition condition, final ExpiryMode mode, final boolean direct)
    {
        final long oldExpiry = prepare(before);
        final long time = timeFor(mode);
        final long sentAt = now();

        final String previous;
        if (direct)
        {
            final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(1);
            final int length = store.getAndSet(
                bufferWith(bytes("k"), 2), 2, 1, bufferWith(bytes("new"), 4), 4, 3, condition, mode, time, dst, 2);
            previous = length == AgniStore.NOT_FOUND ? null : dst.getStringWithoutLengthAscii(2, length);
        }
        else
        {
            previous = text(store.getAndSet(bytes("k"), bytes("new"), condition, mode, time));
        }

        assertEquals(before.live() ? "old" : null, previous, "previous value");
        assertOutcome(before, mode, shouldWrite(before, condition), oldExpiry, time, sentAt);
    }

    /**
     * The time a conditional write of the parameterized tests passes with a mode: 5 hours ahead for {@code AT},
     * 5 hours from now for {@code AFTER}, 0 for the modes that take none.
     */
    private long timeFor(final ExpiryMode mode)
    {
        switch (mode)
        {
            case AT:
                return hoursAhead(5);
            case AFTER:
                return 5 * HOUR_MS;
            default:
                return 0;
        }
    }

    private long prepare(final Before before)
    {
        switch (before)
        {
            case EXPIRED:
                store.set(bytes("k"), bytes("old"), SetCondition.ALWAYS, ExpiryMode.AT, anHourAgo());
                return AgniStore.TTL_KEY_ABSENT;
            case NO_EXPIRY:
                store.set(bytes("k"), bytes("old"));
                return AgniStore.TTL_NO_EXPIRY;
            case WITH_EXPIRY:
                final long at = hoursAhead(2);
                store.set(bytes("k"), bytes("old"), SetCondition.ALWAYS, ExpiryMode.AT, at);
                return at;
            default:
                return AgniStore.TTL_KEY_ABSENT;
        }
    }

    private static boolean shouldWrite(final Before before, final SetCondition condition)
    {
        switch (condition)
        {
            case IF_ABSENT:
                return !before.live();
            case IF_PRESENT:
                return before.live();
            default:
                return true;
        }
    }

    /**
     * Checks the key after a conditional write of the parameterized tests, the write sent at {@code sentAt} with
     * {@code time} from {@link #timeFor}: for {@code AFTER} the expiry time is 5 hours after the store's now when it
     * wrote, between {@code sentAt} and now on a real clock, exactly {@code sentAt} on a fake one.
     */
    private void assertOutcome(
        final Before before, final ExpiryMode mode, final boolean written, final long oldExpiry, final long time,
        final long sentAt)
    {
        if (!written)
        {
            assertValue(before.live() ? "old" : null, "k");
            assertEquals(oldExpiry, store.expireTimeMillis(bytes("k")), "expiry time left alone");
            return;
        }
        assertValue("new", "k");
        if (mode == ExpiryMode.AFTER)
        {
            final long doneAt = now();
            final long at = store.expireTimeMillis(bytes("k"));
            assertTrue(at >= sentAt + 5 * HOUR_MS && at <= doneAt + 5 * HOUR_MS,
                "expiry time 5 hours after the write: " + at + ", sent at " + sentAt + ", done by " + doneAt);
            assertEquals(1, store.size(), "one entry for the key");
            return;
        }
        final long expected;
        switch (mode)
        {
            case AT:
                expected = time;
                break;
            case KEEP:
                expected = before == Before.WITH_EXPIRY ? oldExpiry : AgniStore.TTL_NO_EXPIRY;
                break;
            default:
                expected = AgniStore.TTL_NO_EXPIRY;
        }
        assertEquals(expected, store.expireTimeMillis(bytes("k")), "expiry time after the write");
        assertEquals(1, store.size(), "one entry for the key");
    }

    // ------------------------------------------------------------------------------------------------------------
    // Conditional set: the cases worth a name
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void setWithIfAbsentDoesNotOverwrite()
    {
        store.set(bytes("k"), bytes("first"));

        assertFalse(store.set(bytes("k"), bytes("second"), SetCondition.IF_ABSENT, ExpiryMode.CLEAR, 0));
        assertValue("first", "k");
    }

    @Test
    public void setWithIfPresentDoesNotCreateAKey()
    {
        assertFalse(store.set(bytes("k"), bytes("v"), SetCondition.IF_PRESENT, ExpiryMode.CLEAR, 0));

        assertFalse(store.exists(bytes("k")));
        assertEquals(0, store.size());
    }

    @Test
    public void plainSetClearsAnExistingExpiry()
    {
        store.set(bytes("k"), bytes("v1"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));

        store.set(bytes("k"), bytes("v2"));

        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    @Test
    public void setWithKeepKeepsTheRemainingTimeToLive()
    {
        final long at = hoursAhead(1);
        store.set(bytes("k"), bytes("v1"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertTrue(store.set(bytes("k"), bytes("v2"), SetCondition.ALWAYS, ExpiryMode.KEEP, 0));

        assertValue("v2", "k");
        assertEquals(at, store.expireTimeMillis(bytes("k")));
    }

    @Test
    public void setWithKeepOnAnExpiredKeyDoesNotInheritTheOldExpiry()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("v1"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 100);
        fixture.advanceTime(100);

        assertTrue(store.set(bytes("k"), bytes("v2"), SetCondition.ALWAYS, ExpiryMode.KEEP, 0));

        assertValue("v2", "k");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
        fixture.advanceTime(1000);
        assertValue("v2", "k");
    }

    @Test
    public void setWithAtInThePastMakesTheKeyInvisibleAtOnce()
    {
        store.set(bytes("k"), bytes("old"));

        assertTrue(store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, anHourAgo()));

        assertNull(store.get(bytes("k")));
        assertFalse(store.exists(bytes("k")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.ttlMillis(bytes("k")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.expireTimeMillis(bytes("k")));
    }

    @Test
    public void setWithAtEqualToNowMakesTheKeyInvisibleAtOnce()
    {
        requireFakeClock();

        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, now());

        assertNull(store.get(bytes("k")));
        assertFalse(store.exists(bytes("k")));
    }

    @Test
    public void setWithAtOneMillisecondAheadIsVisibleUntilThatMillisecond()
    {
        requireFakeClock();

        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 1);
        assertValue("v", "k");
        assertEquals(1, store.ttlMillis(bytes("k")));

        fixture.advanceTime(1);
        assertNull(store.get(bytes("k")));
    }

    @Test
    public void setWithIfAbsentOverAnExpiredKeyWritesWithoutTheOldExpiry()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("old"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        fixture.advanceTime(10);

        assertTrue(store.set(bytes("k"), bytes("new"), SetCondition.IF_ABSENT, ExpiryMode.KEEP, 0));

        assertValue("new", "k");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    @Test
    public void setWithIfPresentIgnoresAKeyThatExpiredByTheClock()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("old"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        fixture.advanceTime(10);

        assertFalse(store.set(bytes("k"), bytes("new"), SetCondition.IF_PRESENT, ExpiryMode.CLEAR, 0));

        assertNull(store.get(bytes("k")));
    }

    @Test
    public void setWithAtThenTheKeyExpiresWhenTheClockReachesIt()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 500);

        fixture.advanceTime(499);
        assertValue("v", "k");
        assertEquals(1, store.ttlMillis(bytes("k")));

        fixture.advanceTime(1);
        assertNull(store.get(bytes("k")));
        assertFalse(store.exists(bytes("k")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.ttlMillis(bytes("k")));
    }

    // ------------------------------------------------------------------------------------------------------------
    // getAndSet
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void getAndSetOfAbsentKeyReturnsNullAndWrites()
    {
        assertNull(store.getAndSet(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.CLEAR, 0));

        assertValue("v", "k");
    }

    @Test
    public void getAndSetIfAbsentOnAPresentKeyReturnsItsValueAndDoesNotWrite()
    {
        store.set(bytes("k"), bytes("kept"));

        assertEquals("kept", text(store.getAndSet(bytes("k"), bytes("v"), SetCondition.IF_ABSENT, ExpiryMode.CLEAR, 0)));

        assertValue("kept", "k");
    }

    @Test
    public void getAndSetIfPresentOnAnAbsentKeyReturnsNullAndDoesNotWrite()
    {
        assertNull(store.getAndSet(bytes("k"), bytes("v"), SetCondition.IF_PRESENT, ExpiryMode.CLEAR, 0));

        assertFalse(store.exists(bytes("k")));
    }

    @Test
    public void getAndSetReturnsAnEmptyPreviousValueAsEmptyNotNull()
    {
        store.set(bytes("k"), new byte[0]);

        assertArrayEquals(new byte[0], store.getAndSet(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.CLEAR, 0));
    }

    @Test
    public void directGetAndSetCopiesThePreviousValueToTheOffset()
    {
        store.set(bytes("k"), bytes("previous"));
        final UnsafeBuffer dst = guardedBuffer(32);

        final int length = store.getAndSet(bufferWith(bytes("k"), 0), 0, 1, bufferWith(bytes("next"), 0), 0, 4,
            SetCondition.ALWAYS, ExpiryMode.CLEAR, 0, dst, 6);

        assertEquals(8, length);
        assertBufferHolds(bytes("previous"), dst, 6);
        assertValue("next", "k");
    }

    @Test
    public void directGetAndSetOfAbsentKeyReturnsNotFound()
    {
        final int length = store.getAndSet(bufferWith(bytes("k"), 0), 0, 1, bufferWith(bytes("v"), 0), 0, 1,
            SetCondition.ALWAYS, ExpiryMode.CLEAR, 0, guardedBuffer(4), 0);

        assertEquals(AgniStore.NOT_FOUND, length);
        assertValue("v", "k");
    }

    @Test
    public void directGetAndSetIntoTooSmallBufferThrowsIndexOutOfBounds()
    {
        store.set(bytes("k"), patterned(32, 1));

        assertThrows(IndexOutOfBoundsException.class, () -> store.getAndSet(
            bufferWith(bytes("k"), 0), 0, 1, bufferWith(bytes("v"), 0), 0, 1,
            SetCondition.ALWAYS, ExpiryMode.CLEAR, 0, new UnsafeBuffer(new byte[31]), 0));
    }

    // ------------------------------------------------------------------------------------------------------------
    // getAndDelete
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void getAndDeleteReturnsTheValueAndRemovesTheKey()
    {
        store.set(bytes("k"), bytes("v"));
        store.set(bytes("other"), bytes("o"));

        assertEquals("v", text(store.getAndDelete(bytes("k"))));

        assertFalse(store.exists(bytes("k")));
        assertNull(store.getAndDelete(bytes("k")), "second getAndDelete");
        assertValue("o", "other");
        assertEquals(1, store.size());
    }

    @Test
    public void getAndDeleteOfAbsentKeyReturnsNull()
    {
        assertNull(store.getAndDelete(bytes("never")));
    }

    @Test
    public void getAndDeleteOfExpiredKeyReturnsNull()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, anHourAgo());

        assertNull(store.getAndDelete(bytes("k")));
    }

    @Test
    public void getAndDeleteOfEmptyValueReturnsEmptyArray()
    {
        store.set(bytes("k"), new byte[0]);

        assertArrayEquals(new byte[0], store.getAndDelete(bytes("k")));
        assertFalse(store.exists(bytes("k")));
    }

    @Test
    public void directGetAndDeleteCopiesTheValueAndRemovesTheKey()
    {
        store.set(bytes("k"), bytes("value"));
        final UnsafeBuffer dst = guardedBuffer(16);

        assertEquals(5, store.getAndDelete(bufferWith(bytes("k"), 4), 4, 1, dst, 3));

        assertBufferHolds(bytes("value"), dst, 3);
        assertFalse(store.exists(bytes("k")));
        assertEquals(AgniStore.NOT_FOUND, store.getAndDelete(bufferWith(bytes("k"), 4), 4, 1, dst, 3));
    }

    @Test
    public void directGetAndDeleteIntoTooSmallBufferThrowsAndKeepsTheKey()
    {
        store.set(bytes("k"), patterned(40, 2));

        assertThrows(IndexOutOfBoundsException.class,
            () -> store.getAndDelete(bufferWith(bytes("k"), 0), 0, 1, new UnsafeBuffer(new byte[39]), 0));

        assertValue(patterned(40, 2), bytes("k"));
    }

    @Test
    public void directGetAndDeleteGrowsAnExpandableBuffer()
    {
        store.set(bytes("k"), patterned(2000, 5));
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(4);

        assertEquals(2000, store.getAndDelete(bufferWith(bytes("k"), 0), 0, 1, dst, 1));

        final byte[] copied = new byte[2000];
        dst.getBytes(1, copied);
        assertArrayEquals(patterned(2000, 5), copied);
    }

    // ------------------------------------------------------------------------------------------------------------
    // getAndExpire
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void getAndExpireWithKeepReturnsTheValueAndLeavesTheExpiry()
    {
        final long at = hoursAhead(1);
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertEquals("v", text(store.getAndExpire(bytes("k"), ExpiryMode.KEEP, 0)));

        assertEquals(at, store.expireTimeMillis(bytes("k")));
    }

    @Test
    public void getAndExpireWithClearRemovesTheExpiry()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));

        assertEquals("v", text(store.getAndExpire(bytes("k"), ExpiryMode.CLEAR, 0)));

        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
        assertValue("v", "k");
    }

    @Test
    public void getAndExpireWithAtSetsTheExpiry()
    {
        store.set(bytes("k"), bytes("v"));
        final long at = hoursAhead(3);

        assertEquals("v", text(store.getAndExpire(bytes("k"), ExpiryMode.AT, at)));

        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertValue("v", "k");
    }

    @Test
    public void getAndExpireWithAtInThePastReturnsTheValueAndTheKeyIsGone()
    {
        store.set(bytes("k"), bytes("v"));

        assertEquals("v", text(store.getAndExpire(bytes("k"), ExpiryMode.AT, anHourAgo())));

        assertNull(store.get(bytes("k")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.ttlMillis(bytes("k")));
    }

    @Test
    public void getAndExpireOfAbsentKeyReturnsNullAndCreatesNothing()
    {
        assertNull(store.getAndExpire(bytes("k"), ExpiryMode.AT, hoursAhead(1)));
        assertNull(store.getAndExpire(bytes("k"), ExpiryMode.CLEAR, 0));

        assertFalse(store.exists(bytes("k")));
        assertEquals(0, store.size());
    }

    @Test
    public void getAndExpireOfExpiredKeyReturnsNull()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, anHourAgo());

        assertNull(store.getAndExpire(bytes("k"), ExpiryMode.CLEAR, 0));
        assertFalse(store.exists(bytes("k")), "clearing the expiry of an expired key must not revive it");
    }

    @Test
    public void directGetAndExpireCopiesTheValueAndSetsTheExpiry()
    {
        store.set(bytes("k"), bytes("value"));
        final UnsafeBuffer dst = guardedBuffer(16);
        final long at = hoursAhead(2);

        assertEquals(5, store.getAndExpire(bufferWith(bytes("k"), 1), 1, 1, ExpiryMode.AT, at, dst, 2));

        assertBufferHolds(bytes("value"), dst, 2);
        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertEquals(AgniStore.NOT_FOUND,
            store.getAndExpire(bufferWith(bytes("x"), 1), 1, 1, ExpiryMode.KEEP, 0, dst, 2));
    }

    @Test
    public void directGetAndExpireIntoTooSmallBufferThrowsIndexOutOfBounds()
    {
        store.set(bytes("k"), patterned(10, 1));

        assertThrows(IndexOutOfBoundsException.class, () -> store.getAndExpire(
            bufferWith(bytes("k"), 0), 0, 1, ExpiryMode.KEEP, 0, new UnsafeBuffer(new byte[9]), 0));
        assertValue(patterned(10, 1), bytes("k"));
    }
}
