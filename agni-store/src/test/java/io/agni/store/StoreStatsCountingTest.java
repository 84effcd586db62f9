package io.agni.store;

import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreStats;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pins which calls of the off-heap store count as hits and misses, as {@link StoreStats}'s javadoc defines them:
 * the reads of a value or its length count one per key, every other call counts nothing.
 */
class StoreStatsCountingTest
{
    private final OffHeapStore store = TestStores.builder(4, TestStores.clock()).build();

    @AfterEach
    void close()
    {
        store.close();
    }

    @Test
    void theReadsOfAValueCountAHitForALiveKeyAndAMissForAnAbsentOne()
    {
        final Map<String, Executable> reads = new LinkedHashMap<>();
        for (final String key : new String[] {"live", "absent"})
        {
            final byte[] k = bytes(key);
            final UnsafeBuffer b = new UnsafeBuffer(k);
            reads.put("get " + key, () -> store.get(k));
            reads.put("get direct " + key, () -> store.get(b, 0, k.length, new ExpandableArrayBuffer(), 0));
            reads.put("getAll " + key, () -> store.getAll(List.of(k)));
            reads.put("getAll direct " + key, () -> store.getAll(b, new int[] {0}, new int[] {k.length}, 1,
                new ExpandableArrayBuffer(), 0, new int[1]));
            reads.put("getAndExpire " + key, () -> store.getAndExpire(k, ExpiryMode.KEEP, 0));
            reads.put("getAndExpire direct " + key,
                () -> store.getAndExpire(b, 0, k.length, ExpiryMode.KEEP, 0, new ExpandableArrayBuffer(), 0));
            reads.put("getRange " + key, () -> store.getRange(k, 0, -1));
            reads.put("getRange direct " + key,
                () -> store.getRange(b, 0, k.length, 0, -1, new ExpandableArrayBuffer(), 0));
            reads.put("valueLength " + key, () -> store.valueLength(k));
            reads.put("valueLength direct " + key, () -> store.valueLength(b, 0, k.length));
        }
        store.set(bytes("live"), bytes("value"));

        assertAll(reads.entrySet().stream().map(e -> () ->
        {
            final boolean live = e.getKey().endsWith(" live");
            assertCounts(e.getKey(), e.getValue(), live ? 1 : 0, live ? 0 : 1);
        }));
    }

    @Test
    void everyOtherCallCountsNothing()
    {
        store.set(bytes("live"), bytes("12"));
        final byte[] k = bytes("live");
        final UnsafeBuffer b = new UnsafeBuffer(k);
        final Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("exists", () -> store.exists(k));
        calls.put("exists absent", () -> store.exists(bytes("absent")));
        calls.put("exists direct", () -> store.exists(b, 0, k.length));
        calls.put("ttlMillis", () -> store.ttlMillis(k));
        calls.put("expireTimeMillis", () -> store.expireTimeMillis(bytes("absent")));
        calls.put("set", () -> store.set(k, bytes("12")));
        calls.put("getAndSet", () -> store.getAndSet(k, bytes("12"), SetCondition.ALWAYS, ExpiryMode.CLEAR, 0));
        calls.put("getAndSet absent", () -> store.getAndSet(bytes("other"), bytes("1"), SetCondition.IF_PRESENT,
            ExpiryMode.CLEAR, 0));
        calls.put("incrementBy", () -> store.incrementBy(k, 1));
        calls.put("append", () -> store.append(k, bytes("")));
        calls.put("setRange", () -> store.setRange(k, 0, bytes("1")));
        calls.put("setRange of nothing", () -> store.setRange(k, 5, bytes("")));
        calls.put("setRange of nothing absent", () -> store.setRange(bytes("absent"), 5, bytes("")));
        calls.put("expire", () -> store.expire(k, TestStores.START_MS + 1_000_000, ExpireCondition.ALWAYS));
        calls.put("expireAfter", () -> store.expireAfter(k, 1_000_000, ExpireCondition.ALWAYS));
        calls.put("persist", () -> store.persist(k));
        calls.put("rename onto itself", () -> store.rename(k, k, true));
        calls.put("scan", () -> store.scan(0, null, 10));
        calls.put("randomKey", store::randomKey);
        calls.put("getAndDelete absent", () -> store.getAndDelete(bytes("absent")));
        calls.put("delete absent", () -> store.delete(bytes("absent")));

        assertAll(calls.entrySet().stream().map(e -> () -> assertCounts(e.getKey(), e.getValue(), 0, 0)));
    }

    private void assertCounts(final String name, final Executable call, final long hits, final long misses)
        throws Throwable
    {
        final StoreStats before = store.stats();
        call.execute();
        final StoreStats after = store.stats();
        assertEquals(hits, after.hits() - before.hits(), name + ": hits");
        assertEquals(misses, after.misses() - before.misses(), name + ": misses");
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
