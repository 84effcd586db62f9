package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of expiry: ttlMillis, expireTimeMillis, expire with every condition (Redis 7's {@code NX XX GT LT}, and {@code XX LT}),
 * persist, and the invisibility of expired keys to every operation. Part of {@link AgniStoreContract}.
 */
public abstract class ExpiryContract extends ConditionalWriteContract
{
    // ------------------------------------------------------------------------------------------------------------
    // ttlMillis / expireTimeMillis
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void ttlAndExpireTimeOfAbsentKeyAreMinusTwo()
    {
        assertEquals(-2, store.ttlMillis(bytes("k")));
        assertEquals(-2, store.expireTimeMillis(bytes("k")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.ttlMillis(bufferWith(bytes("k"), 1), 1, 1));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.expireTimeMillis(bufferWith(bytes("k"), 1), 1, 1));
    }

    @Test
    public void ttlAndExpireTimeOfKeyWithoutExpiryAreMinusOne()
    {
        store.set(bytes("k"), bytes("v"));

        assertEquals(-1, store.ttlMillis(bytes("k")));
        assertEquals(-1, store.expireTimeMillis(bytes("k")));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bufferWith(bytes("k"), 2), 2, 1));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bufferWith(bytes("k"), 2), 2, 1));
    }

    @Test
    public void ttlAndExpireTimeOfKeyWithExpiry()
    {
        final long at = hoursAhead(1);
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertEquals(at, store.expireTimeMillis(bufferWith(bytes("k"), 3), 3, 1));
        assertTtl(HOUR_MS, bytes("k"));
        final long direct = store.ttlMillis(bufferWith(bytes("k"), 3), 3, 1);
        assertTrue(direct > 0 && direct <= HOUR_MS, "direct ttlMillis " + direct);
    }

    @Test
    public void ttlCountsDownWithTheClock()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 1000);

        assertEquals(1000, store.ttlMillis(bytes("k")));
        fixture.advanceTime(400);
        assertEquals(600, store.ttlMillis(bytes("k")));
        fixture.advanceTime(599);
        assertEquals(1, store.ttlMillis(bytes("k")));
        fixture.advanceTime(1);
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.ttlMillis(bytes("k")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.expireTimeMillis(bytes("k")));
    }

    @Test
    public void expiredKeyIsInvisibleToEveryRead()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        store.set(bytes("stays"), bytes("s"));
        fixture.advanceTime(10);

        assertNull(store.get(bytes("k")));
        assertEquals(AgniStore.NOT_FOUND, store.get(bufferWith(bytes("k"), 0), 0, 1, guardedBuffer(8), 0));
        assertFalse(store.exists(bytes("k")));
        assertFalse(store.exists(bufferWith(bytes("k"), 0), 0, 1));
        assertEquals(java.util.Arrays.asList(null, "s"), texts(store.getAll(keys("k", "stays"))));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.ttlMillis(bytes("k")));
    }

    @Test
    public void expiredKeyIsInvisibleToEveryWrite()
    {
        requireFakeClock();
        for (final String key : List.of("del", "getdel", "getex", "expire", "persist", "incr", "append"))
        {
            store.set(bytes(key), bytes("7"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 10);
        }
        fixture.advanceTime(10);

        assertFalse(store.delete(bytes("del")), "delete of an expired key removes no live entry");
        assertNull(store.getAndDelete(bytes("getdel")));
        assertNull(store.getAndExpire(bytes("getex"), ExpiryMode.CLEAR, 0));
        assertFalse(store.expire(bytes("expire"), now() + 1000, ExpireCondition.ALWAYS));
        assertFalse(store.persist(bytes("persist")));
        assertEquals(1, store.incrementBy(bytes("incr"), 1), "an expired integer counts as absent");
        assertEquals(3, store.append(bytes("append"), bytes("abc")), "an expired value counts as absent");

        assertNull(store.get(bytes("getex")));
        assertNull(store.get(bytes("expire")));
        assertNull(store.get(bytes("persist")));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("incr")));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("append")));
        assertValue("abc", "append");
    }

    @Test
    public void keyExpiredByAPastTimeIsInvisibleWithoutMovingTheClock()
    {
        store.set(bytes("k"), bytes("12"), SetCondition.ALWAYS, ExpiryMode.AT, anHourAgo());

        assertFalse(store.exists(bytes("k")));
        assertFalse(store.delete(bytes("k")));
        assertFalse(store.persist(bytes("k")));
        assertEquals(5, store.incrementBy(bytes("k"), 5));
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    // ------------------------------------------------------------------------------------------------------------
    // expire
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void expireSetsTheExpiryTime()
    {
        store.set(bytes("k"), bytes("v"));
        final long at = hoursAhead(2);

        assertTrue(store.expire(bytes("k"), at, ExpireCondition.ALWAYS));

        assertEquals(at, store.expireTimeMillis(bytes("k")));
        assertValue("v", "k");
    }

    @Test
    public void expireReplacesAnExistingExpiryTime()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(5));

        assertTrue(store.expire(bytes("k"), hoursAhead(1), ExpireCondition.ALWAYS));

        assertTtl(HOUR_MS, bytes("k"));
    }

    @ParameterizedTest
    @EnumSource(ExpireCondition.class)
    public void expireOfAbsentKeyReturnsFalseAndCreatesNothing(final ExpireCondition condition)
    {
        assertFalse(store.expire(bytes("k"), hoursAhead(1), condition));
        assertFalse(store.expire(bytes("k"), anHourAgo(), condition));

        assertFalse(store.exists(bytes("k")));
        assertEquals(0, store.size());
    }

    @Test
    public void expireWithPastTimeDeletesTheKey()
    {
        store.set(bytes("k"), bytes("v"));
        store.set(bytes("other"), bytes("o"));

        assertTrue(store.expire(bytes("k"), anHourAgo(), ExpireCondition.ALWAYS));

        assertFalse(store.exists(bytes("k")));
        assertEquals(AgniStore.TTL_KEY_ABSENT, store.ttlMillis(bytes("k")));
        assertValue("o", "other");
    }

    @Test
    public void expireWithTimeEqualToNowDeletesTheKey()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("v"));

        assertTrue(store.expire(bytes("k"), now(), ExpireCondition.ALWAYS));

        assertFalse(store.exists(bytes("k")));
    }

    @Test
    public void expireWithPastTimeStillHonoursTheCondition()
    {
        store.set(bytes("k"), bytes("v"));

        assertFalse(store.expire(bytes("k"), anHourAgo(), ExpireCondition.IF_HAS_EXPIRY));
        assertFalse(store.expire(bytes("k"), anHourAgo(), ExpireCondition.IF_LATER));

        assertValue("v", "k");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    @Test
    public void expireIfNoExpirySetsOnlyAKeyWithoutOne()
    {
        store.set(bytes("plain"), bytes("v"));
        final long first = hoursAhead(1);
        store.set(bytes("timed"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, first);

        assertTrue(store.expire(bytes("plain"), hoursAhead(2), ExpireCondition.IF_NO_EXPIRY));
        assertFalse(store.expire(bytes("timed"), hoursAhead(2), ExpireCondition.IF_NO_EXPIRY));

        assertTtl(2 * HOUR_MS, bytes("plain"));
        assertEquals(first, store.expireTimeMillis(bytes("timed")));
    }

    @Test
    public void expireIfHasExpirySetsOnlyAKeyWithOne()
    {
        store.set(bytes("plain"), bytes("v"));
        store.set(bytes("timed"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));
        final long second = hoursAhead(2);

        assertFalse(store.expire(bytes("plain"), second, ExpireCondition.IF_HAS_EXPIRY));
        assertTrue(store.expire(bytes("timed"), second, ExpireCondition.IF_HAS_EXPIRY));

        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("plain")));
        assertEquals(second, store.expireTimeMillis(bytes("timed")));
    }

    @Test
    public void expireIfLaterIsNeverTrueForAKeyWithoutExpiry()
    {
        store.set(bytes("k"), bytes("v"));

        assertFalse(store.expire(bytes("k"), hoursAhead(1000), ExpireCondition.IF_LATER));
        assertFalse(store.expire(bytes("k"), Long.MAX_VALUE, ExpireCondition.IF_LATER));

        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    @Test
    public void expireIfLaterSetsOnlyAStrictlyLaterTime()
    {
        final long at = hoursAhead(2);
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertFalse(store.expire(bytes("k"), at - 1, ExpireCondition.IF_LATER), "earlier");
        assertFalse(store.expire(bytes("k"), at, ExpireCondition.IF_LATER), "equal");
        assertEquals(at, store.expireTimeMillis(bytes("k")));

        assertTrue(store.expire(bytes("k"), at + 1, ExpireCondition.IF_LATER), "later");
        assertEquals(at + 1, store.expireTimeMillis(bytes("k")));
    }

    @Test
    public void expireIfEarlierIsAlwaysTrueForAKeyWithoutExpiry()
    {
        store.set(bytes("k"), bytes("v"));
        final long at = hoursAhead(1000);

        assertTrue(store.expire(bytes("k"), at, ExpireCondition.IF_EARLIER));

        assertEquals(at, store.expireTimeMillis(bytes("k")));
    }

    @Test
    public void expireIfEarlierSetsOnlyAStrictlyEarlierTime()
    {
        final long at = hoursAhead(2);
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertFalse(store.expire(bytes("k"), at + 1, ExpireCondition.IF_EARLIER), "later");
        assertFalse(store.expire(bytes("k"), at, ExpireCondition.IF_EARLIER), "equal");
        assertEquals(at, store.expireTimeMillis(bytes("k")));

        assertTrue(store.expire(bytes("k"), at - 1, ExpireCondition.IF_EARLIER), "earlier");
        assertEquals(at - 1, store.expireTimeMillis(bytes("k")));
    }

    @Test
    public void expireIfEarlierWithPastTimeDeletesTheKey()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));

        assertTrue(store.expire(bytes("k"), anHourAgo(), ExpireCondition.IF_EARLIER));

        assertFalse(store.exists(bytes("k")));
    }

    @Test
    public void expireIfHasExpiryAndEarlierIsNeverTrueForAKeyWithoutExpiry()
    {
        store.set(bytes("k"), bytes("v"));

        assertFalse(store.expire(bytes("k"), hoursAhead(1), ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER), "future");
        assertFalse(store.expire(bytes("k"), anHourAgo(), ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER), "past");

        assertValue("v", "k");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    @Test
    public void expireIfHasExpiryAndEarlierSetsOnlyAStrictlyEarlierTime()
    {
        final long at = hoursAhead(2);
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, at);

        assertFalse(store.expire(bytes("k"), at + 1, ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER), "later");
        assertFalse(store.expire(bytes("k"), at, ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER), "equal");
        assertEquals(at, store.expireTimeMillis(bytes("k")));

        assertTrue(store.expire(bytes("k"), at - 1, ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER), "earlier");
        assertEquals(at - 1, store.expireTimeMillis(bytes("k")));
    }

    @Test
    public void expireIfHasExpiryAndEarlierWithPastTimeDeletesAKeyWithExpiry()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));

        assertTrue(store.expire(bytes("k"), anHourAgo(), ExpireCondition.IF_HAS_EXPIRY_AND_EARLIER));

        assertFalse(store.exists(bytes("k")));
    }

    @Test
    public void directExpireUsesOnlyTheGivenKeyRange()
    {
        store.set(bytes("key"), bytes("v"));
        final long at = hoursAhead(1);
        final UnsafeBuffer key = bufferWith(bytes("key"), 6);

        assertTrue(store.expire(key, 6, 3, at, ExpireCondition.ALWAYS));
        assertFalse(store.expire(key, 6, 2, at, ExpireCondition.ALWAYS), "the key \"ke\" does not exist");

        assertEquals(at, store.expireTimeMillis(bytes("key")));
        assertTrue(store.expire(key, 6, 3, anHourAgo(), ExpireCondition.IF_EARLIER));
        assertFalse(store.exists(bytes("key")));
    }

    @Test
    public void expireThenTheKeyDisappearsWhenTheClockReachesIt()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("v"));

        assertTrue(store.expire(bytes("k"), now() + 50, ExpireCondition.ALWAYS));
        fixture.advanceTime(49);
        assertValue("v", "k");
        fixture.advanceTime(1);
        assertValue(null, "k");
    }

    // ------------------------------------------------------------------------------------------------------------
    // persist
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void persistRemovesTheExpiry()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));

        assertTrue(store.persist(bytes("k")));

        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
        assertValue("v", "k");
        assertFalse(store.persist(bytes("k")), "second persist");
    }

    @Test
    public void persistOfKeyWithoutExpiryReturnsFalse()
    {
        store.set(bytes("k"), bytes("v"));

        assertFalse(store.persist(bytes("k")));
        assertValue("v", "k");
    }

    @Test
    public void persistOfAbsentKeyReturnsFalseAndCreatesNothing()
    {
        assertFalse(store.persist(bytes("k")));
        assertFalse(store.persist(bufferWith(bytes("k"), 1), 1, 1));

        assertEquals(0, store.size());
    }

    @Test
    public void directPersistRemovesTheExpiry()
    {
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));

        assertTrue(store.persist(bufferWith(bytes("xk"), 2), 3, 1));

        assertEquals(AgniStore.TTL_NO_EXPIRY, store.ttlMillis(bytes("k")));
    }

    @Test
    public void persistedKeyOutlivesItsFormerExpiry()
    {
        requireFakeClock();
        store.set(bytes("k"), bytes("v"), SetCondition.ALWAYS, ExpiryMode.AT, now() + 100);

        assertTrue(store.persist(bytes("k")));
        fixture.advanceTime(10_000);

        assertValue("v", "k");
    }
}
