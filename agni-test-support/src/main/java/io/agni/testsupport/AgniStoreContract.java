package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.EntryTooLargeException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The contract every {@link AgniStore} honours, as one abstract JUnit 5 suite (the pattern of Agrona's
 * {@code MutableDirectBufferTests}). A store configuration runs it by extending this class and giving a fixture:
 * <pre>{@code
 * class OneShardStoreTest extends AgniStoreContract {
 *     protected StoreFixture createFixture() {
 *         CachedEpochClock clock = new CachedEpochClock();
 *         clock.update(1_700_000_000_000L);
 *         OffHeapStore store = OffHeapStore.builder().shards(1).clock(clock).build();
 *         return StoreFixture.forStore(store).fakeClock(clock).reclaimExpired(store::sweepExpired).build();
 *     }
 * }
 * }</pre>
 * The suite is split by concern into a chain of abstract classes, each one file: {@link ReadWriteContract},
 * {@link ConditionalWriteContract}, {@link ExpiryContract}, {@link RelativeExpiryContract},
 * {@link CounterAndAppendContract}, {@link StringRangeContract}, {@link FloatIncrementContract},
 * {@link RenameContract}, {@link DirectMultiKeyContract}, {@link ScanAndStatsContract}, {@link WriteBatchContract},
 * and this class (limits and lifecycle). Extend only this one.
 *
 * <h2>What the store must accept</h2>
 * Every test starts with an empty store and writes little (a few hundred small entries at most), so a store with a
 * small memory budget can run the suite; one test grows the store until it is full or has a few thousand more keys.
 * Outside the limit tests, keys are at most {@link #KEYS_UP_TO} bytes and values at most {@link #VALUES_UP_TO};
 * a fixture stating smaller limits is refused.
 *
 * <h2>Stores that cannot do everything</h2>
 * <ul>
 * <li>A store on a real clock (a remote server): the tests that must move time skip themselves by assumption
 * (see {@link StoreFixture#canAdvanceTime()}); the others use expiry times hours away from now.</li>
 * <li>A fixture without {@link StoreFixture#canReclaimExpired()} skips the tests that count entries after expiry.</li>
 * <li>A fixture without {@link StoreFixture#maxKeyLength()} skips the length-limit tests.</li>
 * <li>An optional operation ({@link AgniStore}'s javadoc, "Optional operations") the store refuses with
 * {@link UnsupportedOperationException}: the fixture declares it with
 * {@link StoreFixture.Builder#unsupported(OptionalOperation)}; the tests of that operation then skip themselves by
 * assumption, with the reason, and {@code setAllIfPresentIsDoneOrRefusedAsTheFixtureDeclares} and
 * {@code writeIsDoneOrRefusedAsTheFixtureDeclares} check that the store refuses it and changes nothing.</li>
 * <li>Behaviour a store cannot match for another reason is isolated in tests named for it, so that a subclass in
 * any package can skip each by overriding it (every test method is public) with {@code @Disabled} and a reason:
 * {@code stats*} (Redis reports statistics per server, not per store, and has no memory accounting of this shape),
 * {@code getAllOfNoKeysReturnsAnEmptyList} ({@code MGET} needs a key).</li>
 * </ul>
 */
public abstract class AgniStoreContract extends WriteBatchContract
{
    // ------------------------------------------------------------------------------------------------------------
    // Length limits
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void keyLongerThanTheLimitIsRefusedByEveryOperationBeforeAnythingChanges()
    {
        assumeTrue(fixture.maxKeyLength().isPresent(), "the fixture does not state the store's key limit");
        final int limit = fixture.maxKeyLength().getAsInt();
        final byte[] key = patterned(limit + 1, 9);
        final UnsafeBuffer keyBuffer = bufferWith(key, 3);
        final String message = "key too large: length=" + (limit + 1) + ", limit=" + limit;
        store.set(bytes("existing"), bytes("v"));

        final Map<String, Executable> operations = everyKeyOperation(key, keyBuffer, 3, key.length);
        operations.put("setAll", () -> store.setAll(List.of(bytes("fresh"), key), keys("a", "b"), SetCondition.ALWAYS));
        operations.put("rename onto it", () -> store.rename(bytes("existing"), key, true));
        operations.put("rename direct onto it", () -> store.rename(
            bufferWith(bytes("existing"), 0), 0, 8, keyBuffer, 3, key.length, true));
        assertAll(operations.entrySet().stream().map(e -> () ->
        {
            final EntryTooLargeException ex = assertThrows(EntryTooLargeException.class, e.getValue(), e.getKey());
            assertEquals(message, ex.getMessage(), e.getKey());
        }));

        assertEquals(1, store.size(), "nothing written");
        assertValue(null, "fresh");
        assertValue("v", "existing");
    }

    @Test
    public void keyAtTheLimitIsAccepted()
    {
        assumeTrue(fixture.maxKeyLength().isPresent(), "the fixture does not state the store's key limit");
        final byte[] key = patterned(fixture.maxKeyLength().getAsInt(), 8);

        store.set(key, bytes("v"));

        assertValue(bytes("v"), key);
        assertEquals(1, store.incrementBy(patterned(fixture.maxKeyLength().getAsInt(), 7), 1));
    }

    @Test
    public void valueLongerThanTheLimitIsRefusedByEveryWriteBeforeAnythingChanges()
    {
        assumeTrue(fixture.maxValueLength().isPresent(), "the fixture does not state the store's value limit");
        final int limit = fixture.maxValueLength().getAsInt();
        final byte[] value = new byte[limit + 1];
        final UnsafeBuffer valueBuffer = new UnsafeBuffer(value);
        final UnsafeBuffer keyBuffer = bufferWith(bytes("k"), 0);
        final String message = "value too large: length=" + (limit + 1) + ", limit=" + limit;
        store.set(bytes("k"), bytes("old"));

        final Map<String, Executable> operations = new LinkedHashMap<>();
        operations.put("set", () -> store.set(bytes("k"), value));
        operations.put("set direct", () -> store.set(keyBuffer, 0, 1, valueBuffer, 0, value.length));
        operations.put("set if present", () -> store.set(bytes("k"), value, SetCondition.IF_PRESENT, ExpiryMode.KEEP, 0));
        operations.put("set direct if absent", () -> store.set(
            bufferWith(bytes("new"), 0), 0, 3, valueBuffer, 0, value.length, SetCondition.IF_ABSENT, ExpiryMode.CLEAR, 0));
        operations.put("getAndSet", () -> store.getAndSet(bytes("k"), value, SetCondition.ALWAYS, ExpiryMode.CLEAR, 0));
        operations.put("getAndSet direct", () -> store.getAndSet(keyBuffer, 0, 1, valueBuffer, 0, value.length,
            SetCondition.ALWAYS, ExpiryMode.CLEAR, 0, new ExpandableArrayBuffer(), 0));
        operations.put("setAll", () -> store.setAll(keys("fresh", "k"), List.of(bytes("ok"), value), SetCondition.ALWAYS));
        assertAll(operations.entrySet().stream().map(e -> () ->
        {
            final EntryTooLargeException ex = assertThrows(EntryTooLargeException.class, e.getValue(), e.getKey());
            assertEquals(message, ex.getMessage(), e.getKey());
        }));

        assertValue("old", "k");
        assertValue(null, "new");
        assertValue(null, "fresh");
        assertEquals(1, store.size());
    }

    @Test
    public void valueAtTheLimitIsAccepted()
    {
        assumeTrue(fixture.maxValueLength().isPresent(), "the fixture does not state the store's value limit");
        final byte[] value = patterned(fixture.maxValueLength().getAsInt(), 3);

        store.set(bytes("k"), value);

        assertValue(value, bytes("k"));
    }

    @Test
    public void appendPastTheValueLimitIsRefusedAndLeavesTheValue()
    {
        assumeTrue(fixture.maxValueLength().isPresent(), "the fixture does not state the store's value limit");
        final int limit = fixture.maxValueLength().getAsInt();
        assumeTrue(limit >= 2, "the value limit leaves no room to append");
        final byte[] start = patterned(limit - 2, 4);
        store.set(bytes("k"), start);

        final EntryTooLargeException ex =
            assertThrows(EntryTooLargeException.class, () -> store.append(bytes("k"), bytes("abc")));
        assertEquals("value too large: length=" + (limit + 1) + ", limit=" + limit, ex.getMessage());
        assertThrows(EntryTooLargeException.class,
            () -> store.append(bufferWith(bytes("k"), 0), 0, 1, bufferWith(bytes("abc"), 0), 0, 3));
        assertValue(start, bytes("k"));

        assertEquals(limit, store.append(bytes("k"), bytes("ab")));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Lifecycle
    // ------------------------------------------------------------------------------------------------------------

    @Test
    public void everyOperationThrowsStoreClosedExceptionAfterClose()
    {
        store.set(bytes("k"), bytes("v"));
        store.close();

        final Map<String, Executable> operations = everyKeyOperation(bytes("k"), bufferWith(bytes("k"), 1), 1, 1);
        operations.put("setAll", () -> store.setAll(keys("a"), keys("1"), SetCondition.ALWAYS));
        operations.put("scan", () -> store.scan(0, null, 10));
        operations.put("randomKey", () -> store.randomKey());
        operations.put("size", () -> store.size());
        operations.put("clear", () -> store.clear());
        operations.put("stats", () -> store.stats());
        assertAll(operations.entrySet().stream()
            .map(e -> () -> assertThrows(StoreClosedException.class, e.getValue(), e.getKey())));
    }

    @Test
    public void closeIsIdempotent()
    {
        store.set(bytes("k"), bytes("v"));

        store.close();
        store.close();

        assertThrows(StoreClosedException.class, () -> store.get(bytes("k")));
    }

    /**
     * Every operation that takes a key, in both forms, named, called with the given key.
     *
     * @param key       the key as an array.
     * @param keyBuffer the key in a buffer.
     * @param offset    where it starts in the buffer.
     * @param length    its length.
     * @return a new mutable map from operation name to call.
     */
    private Map<String, Executable> everyKeyOperation(
        final byte[] key, final UnsafeBuffer keyBuffer, final int offset, final int length)
    {
        final UnsafeBuffer value = bufferWith(bytes("1"), 0);
        final Map<String, Executable> ops = new LinkedHashMap<>();
        ops.put("get", () -> store.get(key));
        ops.put("get direct", () -> store.get(keyBuffer, offset, length, new ExpandableArrayBuffer(), 0));
        ops.put("exists", () -> store.exists(key));
        ops.put("exists direct", () -> store.exists(keyBuffer, offset, length));
        ops.put("getAll", () -> store.getAll(List.of(bytes("existing"), key)));
        ops.put("getAll direct", () -> store.getAll(keyBuffer, new int[] {offset}, new int[] {length}, 1,
            new ExpandableArrayBuffer(), 0, new int[1]));
        ops.put("ttlMillis", () -> store.ttlMillis(key));
        ops.put("ttlMillis direct", () -> store.ttlMillis(keyBuffer, offset, length));
        ops.put("expireTimeMillis", () -> store.expireTimeMillis(key));
        ops.put("expireTimeMillis direct", () -> store.expireTimeMillis(keyBuffer, offset, length));
        ops.put("set", () -> store.set(key, bytes("1")));
        ops.put("set direct", () -> store.set(keyBuffer, offset, length, value, 0, 1));
        ops.put("set conditional", () -> store.set(key, bytes("1"), SetCondition.IF_ABSENT, ExpiryMode.CLEAR, 0));
        ops.put("set conditional direct", () -> store.set(
            keyBuffer, offset, length, value, 0, 1, SetCondition.ALWAYS, ExpiryMode.AT, hoursAhead(1)));
        ops.put("getAndSet", () -> store.getAndSet(key, bytes("1"), SetCondition.ALWAYS, ExpiryMode.CLEAR, 0));
        ops.put("getAndSet direct", () -> store.getAndSet(keyBuffer, offset, length, value, 0, 1,
            SetCondition.ALWAYS, ExpiryMode.CLEAR, 0, new ExpandableArrayBuffer(), 0));
        ops.put("delete", () -> store.delete(key));
        ops.put("delete direct", () -> store.delete(keyBuffer, offset, length));
        ops.put("getAndDelete", () -> store.getAndDelete(key));
        ops.put("getAndDelete direct",
            () -> store.getAndDelete(keyBuffer, offset, length, new ExpandableArrayBuffer(), 0));
        ops.put("getAndExpire", () -> store.getAndExpire(key, ExpiryMode.CLEAR, 0));
        ops.put("getAndExpire direct", () -> store.getAndExpire(
            keyBuffer, offset, length, ExpiryMode.AT, hoursAhead(1), new ExpandableArrayBuffer(), 0));
        ops.put("incrementBy", () -> store.incrementBy(key, 1));
        ops.put("incrementBy direct", () -> store.incrementBy(keyBuffer, offset, length, 1));
        ops.put("append", () -> store.append(key, bytes("1")));
        ops.put("append direct", () -> store.append(keyBuffer, offset, length, value, 0, 1));
        ops.put("expire", () -> store.expire(key, hoursAhead(1), ExpireCondition.ALWAYS));
        ops.put("expire direct", () -> store.expire(keyBuffer, offset, length, hoursAhead(1), ExpireCondition.ALWAYS));
        ops.put("expireAfter", () -> store.expireAfter(key, HOUR_MS, ExpireCondition.ALWAYS));
        ops.put("expireAfter direct",
            () -> store.expireAfter(keyBuffer, offset, length, HOUR_MS, ExpireCondition.ALWAYS));
        ops.put("persist", () -> store.persist(key));
        ops.put("persist direct", () -> store.persist(keyBuffer, offset, length));
        ops.put("valueLength", () -> store.valueLength(key));
        ops.put("valueLength direct", () -> store.valueLength(keyBuffer, offset, length));
        ops.put("getRange", () -> store.getRange(key, 0, -1));
        ops.put("getRange direct",
            () -> store.getRange(keyBuffer, offset, length, 0, -1, new ExpandableArrayBuffer(), 0));
        ops.put("setRange", () -> store.setRange(key, 2, bytes("1")));
        ops.put("setRange direct", () -> store.setRange(keyBuffer, offset, length, 0, value, 0, 1));
        ops.put("rename", () -> store.rename(key, bytes("renamed"), true));
        ops.put("rename direct", () -> store.rename(keyBuffer, offset, length, bufferWith(bytes("renamed"), 0), 0, 7,
            true));
        ops.put("incrementByFloat", () -> store.incrementByFloat(key, 1.5));
        ops.put("incrementByFloat direct",
            () -> store.incrementByFloat(keyBuffer, offset, length, 1.5, new ExpandableArrayBuffer(), 0));
        return ops;
    }
}
