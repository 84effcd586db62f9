package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of relative expiry: {@link ExpiryMode#AFTER} and {@link AgniStore#expireAfter}, whose durations the
 * store adds to its own clock ({@link AgniStore#currentTimeMillis()}) when it writes, saturating instead of
 * overflowing; and the refusal of a time given with a mode that ignores it. Part of {@link AgniStoreContract}.
 * <p>
 * On a real clock the tests read the fixture's now before and after a call and expect the store's expiry time to
 * lie between the two plus the duration; a remote store on the same machine shares that clock.
 */
public abstract class RelativeExpiryContract extends ExpiryContract
{
    // ------------------------------------------------------------------------------------------------------------
    // ExpiryMode.AFTER
    // ------------------------------------------------------------------------------------------------------------

    /**
     * On a fake clock also: the entry is there a millisecond before the duration has passed, and gone when it has.
     */
    @Test
    public void setAfterExpiresTheDurationAfterTheStoresNowWhenItWrites()
    {
        final long sentAt = now();

        assertTrue(store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AFTER, 2 * HOUR_MS));
        assertTrue(store.set(bufferWith(bytes("d"), 2), 2, 1, bufferWith(bytes("w"), 1), 1, 1,
            SetCondition.ALWAYS, ExpiryMode.AFTER, 3 * HOUR_MS));

        assertExpiresBetween(sentAt + 2 * HOUR_MS, now() + 2 * HOUR_MS, bytes("k"));
        assertExpiresBetween(sentAt + 3 * HOUR_MS, now() + 3 * HOUR_MS, bytes("d"));
        assertTtl(2 * HOUR_MS, bytes("k"));
        assertValue("v", "k");
        if (fixture.canAdvanceTime())
        {
            fixture.advanceTime(2 * HOUR_MS - 1);
            assertValue("v", "k");
            fixture.advanceTime(1);
            assertValue(null, "k");
            assertValue("w", "d");
        }
    }

    @Test
    public void setAfterHonoursTheCondition()
    {
        store.set(bytes("k"), bytes("old"));

        assertFalse(store.set(bytes("k"), bytes("new"), SetCondition.IF_ABSENT, ExpiryMode.AFTER, HOUR_MS));
        assertTrue(store.set(bytes("k"), bytes("new"), SetCondition.IF_PRESENT, ExpiryMode.AFTER, HOUR_MS));
        assertFalse(store.set(bytes("x"), bytes("new"), SetCondition.IF_PRESENT, ExpiryMode.AFTER, HOUR_MS));

        assertValue("new", "k");
        assertTtl(HOUR_MS, bytes("k"));
        assertValue(null, "x");
    }

    @Test
    public void getAndSetAfterReturnsThePreviousValueAndSetsTheDuration()
    {
        store.set(bytes("k"), bytes("old"));
        final long sentAt = now();

        assertEquals("old", text(store.getAndSet(bytes("k"), bytes("mid"), SetCondition.ALWAYS, ExpiryMode.AFTER,
            HOUR_MS)));
        final ExpandableArrayBuffer previous = new ExpandableArrayBuffer(4);
        assertEquals(3, store.getAndSet(bufferWith(bytes("k"), 1), 1, 1, bufferWith(bytes("new"), 0), 0, 3,
            SetCondition.ALWAYS, ExpiryMode.AFTER, 2 * HOUR_MS, previous, 1));

        assertEquals("mid", previous.getStringWithoutLengthAscii(1, 3));
        assertValue("new", "k");
        assertExpiresBetween(sentAt + 2 * HOUR_MS, now() + 2 * HOUR_MS, bytes("k"));
    }

    @Test
    public void getAndExpireAfterReturnsTheValueAndSetsTheDuration()
    {
        store.set(bytes("k"), bytes("v"));
        store.set(bytes("d"), bytes("w"));
        final long sentAt = now();

        assertEquals("v", text(store.getAndExpire(bytes("k"), ExpiryMode.AFTER, HOUR_MS)));
        final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(4);
        assertEquals(1, store.getAndExpire(bufferWith(bytes("d"), 3), 3, 1, ExpiryMode.AFTER, 3 * HOUR_MS, dst, 0));

        assertEquals("w", dst.getStringWithoutLengthAscii(0, 1));
        assertExpiresBetween(sentAt + HOUR_MS, now() + HOUR_MS, bytes("k"));
        assertExpiresBetween(sentAt + 3 * HOUR_MS, now() + 3 * HOUR_MS, bytes("d"));
        assertNull(store.getAndExpire(bytes("absent"), ExpiryMode.AFTER, HOUR_MS));
        assertFalse(store.exists(bytes("absent")));
    }

    @ParameterizedTest(name = "duration {0}")
    @ValueSource(longs = {0, -1, -HOUR_MS, Long.MIN_VALUE})
    public void afterWithADurationOfZeroOrLessRemovesTheEntryAtOnce(final long duration)
    {
        store.set(bytes("k"), bytes("v"));
        store.set(bytes("g"), bytes("w"));
        store.set(bytes("stays"), bytes("s"));

        assertTrue(store.set(bytes("k"), bytes("v2"), SetCondition.ALWAYS, ExpiryMode.AFTER, duration));
        assertEquals("w", text(store.getAndExpire(bytes("g"), ExpiryMode.AFTER, duration)));
        assertTrue(store.set(bytes("new"), bytes("n"), SetCondition.IF_ABSENT, ExpiryMode.AFTER, duration));

        assertFalse(store.exists(bytes("k")));
        assertFalse(store.exists(bytes("g")));
        assertFalse(store.exists(bytes("new")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.ttlMillis(bytes("k")));
        assertValue("s", "stays");
    }

    @Test
    public void afterSaturatesAtTheLatestTimeInsteadOfOverflowing()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AFTER, Long.MAX_VALUE);
        store.set(bytes("g"), bytes("w"));
        store.getAndExpire(bytes("g"), ExpiryMode.AFTER, Long.MAX_VALUE);

        assertEquals(Long.MAX_VALUE, store.expireTimeMillis(bytes("k")));
        assertEquals(Long.MAX_VALUE, store.expireTimeMillis(bytes("g")));
        assertValue("v", "k");
        assertTrue(store.ttlMillis(bytes("k")) > 1000L * HOUR_MS * 24 * 365, "ttl of a saturated expiry");
    }

    // ------------------------------------------------------------------------------------------------------------
    // A time with a mode that ignores it
    // ------------------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(value = ExpiryMode.class, names = {"CLEAR", "KEEP"})
    public void aTimeGivenWithAModeThatIgnoresItIsRefusedBeforeAnythingChanges(final ExpiryMode mode)
    {
        final long at = hoursAhead(1);
        store.set(bytes("k"), bytes("old"), SetCondition.ALWAYS, ExpiryMode.AT, at);
        final UnsafeBuffer key = bufferWith(bytes("k"), 2);
        final UnsafeBuffer fresh = bufferWith(bytes("fresh"), 1);
        final UnsafeBuffer value = bufferWith(bytes("new"), 3);
        final long time = 5;

        final Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("set", () -> store.set(bytes("k"), bytes("new"), SetCondition.ALWAYS, mode, time));
        calls.put("set direct", () -> store.set(key, 2, 1, value, 3, 3, SetCondition.ALWAYS, mode, time));
        calls.put("set absent", () -> store.set(bytes("fresh"), bytes("new"), SetCondition.IF_ABSENT, mode, -1));
        calls.put("set direct absent", () -> store.set(fresh, 1, 5, value, 3, 3, SetCondition.ALWAYS, mode, time));
        calls.put("getAndSet", () -> store.getAndSet(bytes("k"), bytes("new"), SetCondition.ALWAYS, mode, time));
        calls.put("getAndSet direct", () -> store.getAndSet(key, 2, 1, value, 3, 3, SetCondition.ALWAYS, mode, time,
            new ExpandableArrayBuffer(), 0));
        calls.put("getAndExpire", () -> store.getAndExpire(bytes("k"), mode, time));
        calls.put("getAndExpire direct", () -> store.getAndExpire(key, 2, 1, mode, time, new ExpandableArrayBuffer(),
            0));
        calls.put("getAndExpire absent", () -> store.getAndExpire(bytes("fresh"), mode, time));
        assertAll(calls.entrySet().stream().map(e -> () ->
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, e.getValue(), e.getKey());
            final long given = e.getKey().equals("set absent") ? -1 : time;
            assertEquals("expiry time given with a mode that ignores it: mode=" + mode + ", time=" + given,
                ex.getMessage(), e.getKey());
        }));

        assertValue("old", "k");
        assertEquals(at, store.expireTimeMillis(bytes("k")), "expiry time untouched");
        assertValue(null, "fresh");
        assertEquals(1, store.size());
    }

    @Test
    public void aModeThatIgnoresTheTimeAcceptsZero()
    {
        final long at = hoursAhead(1);
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertTrue(store.set(bytes("k"), bytes("v2"), SetCondition.ALWAYS, ExpiryMode.KEEP, 0));
        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertTrue(store.set(bytes("k"), bytes("v3"), SetCondition.ALWAYS, ExpiryMode.CLEAR, 0));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("k")));
    }

    // ------------------------------------------------------------------------------------------------------------
    // expireAfter
    // ------------------------------------------------------------------------------------------------------------

    /**
     * On a fake clock also: the key is there a millisecond before the duration has passed, and gone when it has.
     */
    @Test
    public void expireAfterSetsTheExpiryTheDurationAfterTheStoresNowWhenItWrites()
    {
        store.set(bytes("k"), bytes("v"));
        store.set(bytes("d"), bytes("w"));
        final long sentAt = now();

        assertTrue(store.expireAfter(bytes("k"), 3 * HOUR_MS, ExpireCondition.ALWAYS));
        assertTrue(store.expireAfter(bufferWith(bytes("xd"), 4), 5, 1, 4 * HOUR_MS, ExpireCondition.ALWAYS));

        assertExpiresBetween(sentAt + 3 * HOUR_MS, now() + 3 * HOUR_MS, bytes("k"));
        assertExpiresBetween(sentAt + 4 * HOUR_MS, now() + 4 * HOUR_MS, bytes("d"));
        assertValue("v", "k");
        if (fixture.canAdvanceTime())
        {
            fixture.advanceTime(3 * HOUR_MS - 1);
            assertValue("v", "k");
            fixture.advanceTime(1);
            assertValue(null, "k");
            assertValue("w", "d");
        }
    }

    @Test
    public void expireAfterHonoursTheConditionAgainstTheResultingTime()
    {
        final long at = hoursAhead(2);
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, at);
        store.set(bytes("plain"), bytes("p"));

        assertFalse(store.expireAfter(bytes("k"), HOUR_MS, ExpireCondition.IF_LATER), "earlier is not later");
        assertFalse(store.expireAfter(bytes("k"), HOUR_MS, ExpireCondition.IF_NO_EXPIRY));
        assertFalse(store.expireAfter(bytes("plain"), HOUR_MS, ExpireCondition.IF_HAS_EXPIRY));
        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("plain")));

        assertTrue(store.expireAfter(bytes("k"), HOUR_MS, ExpireCondition.IF_EARLIER));
        assertTrue(store.expireAfter(bytes("plain"), 4 * HOUR_MS, ExpireCondition.IF_NO_EXPIRY));
        assertTtl(HOUR_MS, bytes("k"));
        assertTtl(4 * HOUR_MS, bytes("plain"));
    }

    @ParameterizedTest(name = "duration {0}")
    @ValueSource(longs = {0, -1, -HOUR_MS, Long.MIN_VALUE})
    public void expireAfterWithADurationOfZeroOrLessRemovesTheKey(final long duration)
    {
        store.set(bytes("k"), bytes("v"));
        store.set(bytes("stays"), bytes("s"));

        assertTrue(store.expireAfter(bytes("k"), duration, ExpireCondition.ALWAYS));

        assertFalse(store.exists(bytes("k")));
        assertValue("s", "stays");
    }

    @Test
    public void expireAfterOfAnAbsentKeyReturnsFalseAndCreatesNothing()
    {
        assertFalse(store.expireAfter(bytes("k"), HOUR_MS, ExpireCondition.ALWAYS));
        assertFalse(store.expireAfter(bufferWith(bytes("k"), 1), 1, 1, -1, ExpireCondition.ALWAYS));

        assertEquals(0, store.size());
    }

    @Test
    public void expireAfterSaturatesAtTheLatestTimeInsteadOfOverflowing()
    {
        store.set(bytes("k"), bytes("v"));

        assertTrue(store.expireAfter(bytes("k"), Long.MAX_VALUE, ExpireCondition.ALWAYS));

        assertEquals(Long.MAX_VALUE, store.expireTimeMillis(bytes("k")));
        assertValue("v", "k");
    }

    // ------------------------------------------------------------------------------------------------------------
    // currentTimeMillis
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void currentTimeMillisIsTheClockExpiryTimesAreOn()
    {
        final long before = now();
        final long time = store.currentTimeMillis();
        final long after = now();

        assertTrue(time >= before && time <= after, "store's now " + time + " between " + before + " and " + after);
        if (fixture.canAdvanceTime())
        {
            fixture.advanceTime(1234);
            assertEquals(before + 1234, store.currentTimeMillis());
        }
    }

    /**
     * Asserts that a key's expiry time lies between two times: exactly the first on a fake clock, where they are
     * equal.
     */
    private void assertExpiresBetween(final long earliest, final long latest, final byte[] key)
    {
        final long at = store.expireTimeMillis(key);
        assertTrue(at >= earliest && at <= latest,
            () -> "expiry time of " + ByteArrayKey.printable(key) + ": " + at + ", expected from " + earliest +
                " to " + latest);
    }
}
