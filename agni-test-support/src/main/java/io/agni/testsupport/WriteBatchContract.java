package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.EntryTooLargeException;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import io.agni.api.WriteBatch;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract of {@link AgniStore#write(WriteBatch)}: every kind of operation, in order, at one instant, the
 * batch's copies of the caller's bytes, and refusals that change nothing. A store that declares
 * {@link OptionalOperation#WRITE_BATCH} unsupported skips these tests but
 * {@code writeIsDoneOrRefusedAsTheFixtureDeclares}, which checks the refusal. Part of {@link AgniStoreContract}.
 */
public abstract class WriteBatchContract extends ScanAndStatsContract
{
    @Test
    public void writeIsDoneOrRefusedAsTheFixtureDeclares()
    {
        store.set(bytes("a"), bytes("old-a"));
        final WriteBatch batch = new WriteBatch().set(bytes("a"), bytes("1")).set(bytes("b"), bytes("2"));

        if (fixture.supports(OptionalOperation.WRITE_BATCH))
        {
            store.write(batch);
            assertValue("1", "a");
            assertValue("2", "b");
            assertEquals(2, store.size());
        }
        else
        {
            assertThrows(UnsupportedOperationException.class, () -> store.write(batch));
            assertValue("old-a", "a");
            assertValue(null, "b");
            assertEquals(1, store.size());
        }
    }

    @Test
    public void writeAppliesEveryKindOfOperation()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        store.set(bytes("deleted"), bytes("x"));
        store.set(bytes("expiring"), bytes("e"));
        store.set(bytes("persisted"), bytes("p"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));
        final long at = hoursAhead(2);

        store.write(new WriteBatch()
            .set(bytes("plain"), bytes("1"))
            .set(bytes("timed"), bytes("2"), ExpiryMode.AT, at)
            .delete(bytes("deleted"))
            .expire(bytes("expiring"), at)
            .persist(bytes("persisted")));

        assertValue("1", "plain");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("plain")));
        assertValue("2", "timed");
        assertEquals(at, store.expireTimeMillis(bytes("timed")));
        assertValue(null, "deleted");
        assertValue("e", "expiring");
        assertEquals(at, store.expireTimeMillis(bytes("expiring")));
        assertValue("p", "persisted");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("persisted")));
        assertEquals(4, store.size());
    }

    @Test
    public void laterOperationsOfABatchSeeWhatEarlierOnesDidToTheirKey()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        store.set(bytes("had-expiry"), bytes("h"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));
        final long t1 = hoursAhead(3);
        final long t2 = hoursAhead(4);

        store.write(new WriteBatch()
            .set(bytes("twice"), bytes("1")).set(bytes("twice"), bytes("2"))
            .set(bytes("set-deleted"), bytes("x")).delete(bytes("set-deleted"))
            .delete(bytes("deleted-set")).set(bytes("deleted-set"), bytes("y"))
            .set(bytes("kept"), bytes("a"), ExpiryMode.AT, t1).set(bytes("kept"), bytes("b"), ExpiryMode.KEEP, 0)
            .set(bytes("set-persisted"), bytes("c"), ExpiryMode.AT, t1).persist(bytes("set-persisted"))
            .set(bytes("set-expired"), bytes("d")).expire(bytes("set-expired"), t2)
            .expire(bytes("expired-set"), t2).set(bytes("expired-set"), bytes("e"))
            .set(bytes("had-expiry"), bytes("h2")).expire(bytes("had-expiry"), t1).expire(bytes("had-expiry"), t2)
            .delete(bytes("keep-after-delete")).set(bytes("keep-after-delete"), bytes("f"), ExpiryMode.KEEP, 0));

        assertValue("2", "twice");
        assertValue(null, "set-deleted");
        assertValue("y", "deleted-set");
        assertValue("b", "kept");
        assertEquals(t1, store.expireTimeMillis(bytes("kept")));
        assertValue("c", "set-persisted");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("set-persisted")));
        assertValue("d", "set-expired");
        assertEquals(t2, store.expireTimeMillis(bytes("set-expired")));
        assertValue("e", "expired-set");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("expired-set")), "the expire came first");
        assertValue("h2", "had-expiry");
        assertEquals(t2, store.expireTimeMillis(bytes("had-expiry")));
        assertValue("f", "keep-after-delete");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("keep-after-delete")));
        assertEquals(8, store.size());
    }

    @Test
    public void writeChangesValuesAndExpiryTimesOfEveryShape()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        final long before = hoursAhead(1);
        final long after = hoursAhead(2);
        store.set(bytes("same-length"), bytes("1234"));
        store.set(bytes("longer"), bytes("12"));
        store.set(bytes("shorter"), patterned(3000, 1));
        store.set(bytes("gains-expiry"), bytes("g"));
        store.set(bytes("loses-expiry"), bytes("l"), SetCondition.ALWAYS, ExpiryMode.AT, before);
        store.set(bytes("moves-expiry"), bytes("m"), SetCondition.ALWAYS, ExpiryMode.AT, before);
        store.set(bytes("same-expiry"), bytes("s"), SetCondition.ALWAYS, ExpiryMode.AT, before);
        store.set(bytes("timed-overwrite"), bytes("abcd"), SetCondition.ALWAYS, ExpiryMode.AT, before);
        store.set(bytes("no-expiry"), bytes("n"));

        store.write(new WriteBatch()
            .set(bytes("same-length"), bytes("5678"))
            .set(bytes("longer"), patterned(5000, 2))
            .set(bytes("shorter"), bytes("s"))
            .expire(bytes("gains-expiry"), after)
            .persist(bytes("loses-expiry"))
            .expire(bytes("moves-expiry"), after)
            .expire(bytes("same-expiry"), before)
            .set(bytes("timed-overwrite"), bytes("efgh"), ExpiryMode.AT, after)
            .persist(bytes("no-expiry")));

        assertValue("5678", "same-length");
        assertValue(patterned(5000, 2), bytes("longer"));
        assertValue("s", "shorter");
        assertValue("g", "gains-expiry");
        assertEquals(after, store.expireTimeMillis(bytes("gains-expiry")));
        assertValue("l", "loses-expiry");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("loses-expiry")));
        assertValue("m", "moves-expiry");
        assertEquals(after, store.expireTimeMillis(bytes("moves-expiry")));
        assertEquals(before, store.expireTimeMillis(bytes("same-expiry")));
        assertValue("efgh", "timed-overwrite");
        assertEquals(after, store.expireTimeMillis(bytes("timed-overwrite")));
        assertValue("n", "no-expiry");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("no-expiry")));
        assertEquals(9, store.size());
    }

    @Test
    public void expiryTimesAtOrBeforeTheBatchsInstantRemoveTheKey()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        for (final String key : List.of("set-past", "expire-past", "expire-after-zero", "set-after-negative", "kept"))
        {
            store.set(bytes(key), bytes("old"));
        }

        store.write(new WriteBatch()
            .set(bytes("set-past"), bytes("new"), ExpiryMode.AT, anHourAgo())
            .expire(bytes("expire-past"), anHourAgo())
            .expireAfter(bytes("expire-after-zero"), 0)
            .set(bytes("set-after-negative"), bytes("new"), ExpiryMode.AFTER, -5)
            .set(bytes("new-past"), bytes("new"), ExpiryMode.AT, anHourAgo())
            .set(bytes("kept"), bytes("new")));

        for (final String key : List.of("set-past", "expire-past", "expire-after-zero", "set-after-negative",
            "new-past"))
        {
            assertValue(null, key);
            assertFalse(store.exists(bytes(key)), key);
        }
        assertValue("new", "kept");
        if (fixture.canReclaimExpired())
        {
            fixture.reclaimExpired();
            assertEquals(1, store.size());
        }
    }

    @Test
    public void relativeTimesOfABatchCountFromTheStoresClock()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        store.set(bytes("expire-after"), bytes("x"));
        final long from = now();

        store.write(new WriteBatch()
            .set(bytes("set-after"), bytes("v"), ExpiryMode.AFTER, HOUR_MS)
            .expireAfter(bytes("expire-after"), 2 * HOUR_MS));

        final long to = now();
        final long setAt = store.expireTimeMillis(bytes("set-after"));
        final long expireAt = store.expireTimeMillis(bytes("expire-after"));
        assertTrue(setAt >= from + HOUR_MS && setAt <= to + HOUR_MS, "set AFTER an hour: " + (setAt - from));
        assertTrue(expireAt >= from + 2 * HOUR_MS && expireAt <= to + 2 * HOUR_MS,
            "expireAfter two hours: " + (expireAt - from));
        assertEquals(HOUR_MS, expireAt - setAt, "one reading of the clock for the whole batch");
    }

    @Test
    public void operationsOnAbsentKeysChangeNothing()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        store.set(bytes("other"), bytes("o"));

        store.write(new WriteBatch()
            .delete(bytes("absent"))
            .expire(bytes("absent"), hoursAhead(1))
            .expireAfter(bytes("absent"), HOUR_MS)
            .persist(bytes("absent"))
            .set(bytes("gone"), bytes("g")).delete(bytes("gone")).persist(bytes("gone")).expire(bytes("gone"),
                hoursAhead(1)));

        assertValue(null, "absent");
        assertValue(null, "gone");
        assertValue("o", "other");
        assertEquals(1, store.size());
    }

    @Test
    public void anEmptyBatchChangesNothing()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        store.set(bytes("k"), bytes("v"));

        store.write(new WriteBatch());

        assertValue("v", "k");
        assertEquals(1, store.size());
    }

    @Test
    public void aBatchHoldsCopiesOfWhatWasAdded()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        final byte[] key = bytes("key");
        final byte[] value = bytes("value");
        final UnsafeBuffer keys = bufferWith(bytes("direct-key"), 3);
        final UnsafeBuffer values = bufferWith(bytes("direct-value"), 5);
        final WriteBatch batch = new WriteBatch()
            .set(key, value)
            .set(keys, 3, 10, values, 5, 12)
            .set(keys, 3, 6, values, 12, 5, ExpiryMode.AT, hoursAhead(1));

        Arrays.fill(key, (byte)'X');
        Arrays.fill(value, (byte)'Y');
        keys.setMemory(0, keys.capacity(), (byte)'Z');
        values.setMemory(0, values.capacity(), (byte)'W');
        store.write(batch);

        assertValue("value", "key");
        assertValue("direct-value", "direct-key");
        assertValue("value", "direct");
        assertValue(null, "XXX");
        assertEquals(3, store.size());
    }

    @Test
    public void directFormsOfEveryOperationReadTheirRange()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        store.set(bytes("del"), bytes("d"));
        store.set(bytes("exp"), bytes("e"));
        store.set(bytes("aft"), bytes("a"));
        store.set(bytes("per"), bytes("p"), SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1));
        final UnsafeBuffer buffer = bufferWith(bytes("delexpaftper"), 2);
        final long at = hoursAhead(2);

        store.write(new WriteBatch()
            .delete(buffer, 2, 3)
            .expire(buffer, 5, 3, at)
            .expireAfter(buffer, 8, 3, 3 * HOUR_MS)
            .persist(buffer, 11, 3));

        assertValue(null, "del");
        assertEquals(at, store.expireTimeMillis(bytes("exp")));
        assertTrue(store.expireTimeMillis(bytes("aft")) > at, "expireAfter three hours");
        assertEquals(AgniStore.TTL_NO_EXPIRY, store.expireTimeMillis(bytes("per")));
        assertEquals(3, store.size());
    }

    @Test
    public void aBatchIsReusedAfterClearAndCanBeWrittenAgain()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        final WriteBatch batch = new WriteBatch();
        batch.set(bytes("a"), bytes("1")).set(bytes("b"), bytes("2"));
        store.write(batch);
        store.set(bytes("a"), bytes("changed"));

        store.write(batch);
        assertValue("1", "a");

        batch.clear().delete(bytes("a")).set(bytes("c"), bytes("3"));
        store.write(batch);

        assertValue(null, "a");
        assertValue("2", "b");
        assertValue("3", "c");
        assertEquals(2, store.size());
    }

    @Test
    public void binaryAndEmptyKeysAndValuesGoThroughABatch()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        final byte[] binary = allByteValues();

        store.write(new WriteBatch()
            .set(binary, binary)
            .set(bytes(""), bytes("empty key"))
            .set(bytes("empty value"), bytes("")));

        assertValue(binary, binary);
        assertValue("empty key", "");
        assertValue("", "empty value");
        assertEquals(3, store.size());
    }

    @Test
    public void aLargeBatchWithRepeatedKeysKeepsEachKeysLastWrite()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        final WriteBatch batch = new WriteBatch();
        for (int i = 0; i < 1_500; i++)
        {
            batch.set(bytes("k" + (i % 50)), bytes("v" + i));
            if (i % 7 == 0)
            {
                batch.delete(bytes("k" + ((i + 1) % 50)));
            }
        }

        store.write(batch);
        store.write(new WriteBatch().set(bytes("small"), bytes("s")));

        for (int k = 0; k < 50; k++)
        {
            final int last = 1_450 + k;
            assertValue("v" + last, "k" + k);
        }
        assertValue("s", "small");
        assertEquals(51, store.size());
    }

    @Test
    public void aKeyOrValueOverTheLimitRefusesTheWholeBatch()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        assumeTrue(fixture.maxKeyLength().isPresent(), "the fixture does not state the store's limits");
        final int keyLimit = fixture.maxKeyLength().getAsInt();
        final int valueLimit = fixture.maxValueLength().getAsInt();
        store.set(bytes("k"), bytes("old"));

        final EntryTooLargeException key = assertThrows(EntryTooLargeException.class, () -> store.write(
            new WriteBatch().set(bytes("k"), bytes("new")).delete(patterned(keyLimit + 1, 1))));
        assertEquals("key too large: length=" + (keyLimit + 1) + ", limit=" + keyLimit, key.getMessage());
        final EntryTooLargeException value = assertThrows(EntryTooLargeException.class, () -> store.write(
            new WriteBatch().delete(bytes("k")).set(bytes("fresh"), new byte[valueLimit + 1])));
        assertEquals("value too large: length=" + (valueLimit + 1) + ", limit=" + valueLimit, value.getMessage());

        assertValue("old", "k");
        assertValue(null, "fresh");
        assertEquals(1, store.size());
    }

    @Test
    public void writeAfterCloseThrowsStoreClosedException()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        store.close();

        assertThrows(StoreClosedException.class, () -> store.write(new WriteBatch().set(bytes("a"), bytes("1"))));
        assertThrows(StoreClosedException.class, () -> store.write(new WriteBatch()));
    }

    @Test
    public void writeLeavesTheBatchAsItWas()
    {
        requireSupported(OptionalOperation.WRITE_BATCH);
        final WriteBatch batch = new WriteBatch().set(bytes("a"), bytes("1")).delete(bytes("b"));

        store.write(batch);

        assertEquals(2, batch.size());
        assertEquals(WriteBatch.Operation.SET, batch.operation(0));
        assertEquals(WriteBatch.Operation.DELETE, batch.operation(1));
        assertArrayEquals(bytes("a1b"), copyOf(batch));
        assertValue("1", "a");
    }

    private static byte[] copyOf(final WriteBatch batch)
    {
        final byte[] bytes = new byte[batch.byteLength()];
        batch.buffer().getBytes(0, bytes);
        return bytes;
    }
}
