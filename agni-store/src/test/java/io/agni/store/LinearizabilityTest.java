package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.NotAFloatException;
import io.agni.api.NotAnIntegerException;
import io.agni.api.RenameResult;
import io.agni.api.SetCondition;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

/**
 * Lincheck: the single-key operations of a two-shard store, and rename across its keys (which may or may not share
 * a shard, as the store's hash seed falls), are linearizable, checked against {@link SequentialStore} over keys 1..3
 * (so that operations collide) under the stress and the model-checking strategies.
 * <p>
 * Lincheck creates a fresh {@link Target} per scenario run; opening an off-heap store each time would cost more than
 * the scenario (and Lincheck has no hook to close it), so every target shares the one store the test opens, and
 * clears it when created (nothing else runs on the store then). The test closes the store when Lincheck is done.
 */
@Tag("concurrency")
class LinearizabilityTest
{
    @BeforeEach
    void openSharedStore()
    {
        SharedStore.store = TestStores.builder(2, TestStores.clock()).maxMemory(4L * 1024 * 1024).build();
    }

    @AfterEach
    void closeSharedStore()
    {
        SharedStore.store.close();
        SharedStore.store = null;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void singleKeyOperationsAreLinearizableUnderStress()
    {
        final StressOptions options = new StressOptions()
            .iterations(6)
            .invocationsPerIteration(200)
            .threads(3)
            .actorsPerThread(3)
            .actorsBefore(2)
            .actorsAfter(1)
            .sequentialSpecification(SequentialStore.class);
        COLLISIONS.forEach(options::addCustomScenario);
        options.check(Target.class);
    }

    /**
     * About a minute on two idle cores, half as much again in debug-memory mode; the bound leaves room for a loaded
     * machine.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void singleKeyOperationsAreLinearizableUnderModelChecking()
    {
        final ModelCheckingOptions options = new ModelCheckingOptions()
            .addGuarantee(forClasses(LinearizabilityTest::outsideTheModel).allMethods().ignore())
            .iterations(2)
            .invocationsPerIteration(60)
            .threads(2)
            .actorsPerThread(3)
            .actorsBefore(2)
            .actorsAfter(1)
            .sequentialSpecification(SequentialStore.class);
        COLLISIONS.forEach(options::addCustomScenario);
        options.check(Target.class);
    }

    /**
     * The code the model checker must run without analysing it.
     * <ul>
     * <li>Agrona's buffers only move bytes to and from off-heap memory, which Lincheck cannot see anyway, and Lincheck
     * 3.7 fails on their interface constant {@code SHOULD_BOUNDS_CHECK}.</li>
     * <li>The model checker snapshots the objects reachable from the static fields an invocation reads and restores
     * them after it. Restoring the store's Java-side state while its off-heap memory moved on would corrupt it, and
     * restoring {@code DebugMemory}'s registry would make it report false double frees; so the store is handed over
     * by {@link SharedStore} and {@code DebugMemory} runs unanalysed, outside the snapshot.</li>
     * <li>The decimal arithmetic of incrementByFloat ({@code java.math}, {@code Decimal}, {@code DecimalFloat}) is a
     * pure function of bytes read under the shard's lock; analysed, it would multiply the events of every
     * interleaving.</li>
     * </ul>
     */
    private static boolean outsideTheModel(final String className)
    {
        return className.startsWith("org.agrona.") ||
            className.startsWith("java.math.") ||
            className.equals("io.agni.api.internal.Decimal") ||
            className.equals("io.agni.store.shard.DecimalFloat") ||
            className.equals(SharedStore.class.getName()) ||
            className.equals("io.agni.store.memory.DebugMemory");
    }

    /**
     * Holds the store every {@link Target} shares, outside the model checker's view.
     */
    public static final class SharedStore
    {
        private static volatile OffHeapStore store;

        private SharedStore()
        {
        }

        static OffHeapStore get()
        {
            return store;
        }
    }

    /**
     * Scenarios that Lincheck's random generator finds only now and then: two threads racing on one key with the
     * same read-modify-write operation, then a read of the result.
     */
    private static final List<ExecutionScenario> COLLISIONS = List.of(
        collision(actor("set", 1, 1), actor("incrementBy", 1, 1), actor("incrementBy", 1, 2)),
        collision(actor("set", 1, 1), actor("append", 1, 2), actor("append", 1, 3)),
        collision(actor("delete", 1), actor("setIfAbsent", 1, 0), actor("setIfAbsent", 1, 1)),
        collision(actor("set", 1, 0), actor("getAndSet", 1, 1), actor("getAndSet", 1, 2)),
        collision(actor("set", 1, 3), actor("getAndDelete", 1), actor("getAndDelete", 1)),
        collision(actor("set", 1, 2), actor("getAndDelete", 1), actor("incrementBy", 1, 1)),
        collision(actor("set", 1, 2), actor("setRange", 1, 1, 5), actor("setRange", 1, 3, 2)),
        collision(actor("set", 1, 1), actor("incrementByFloat", 1, 0), actor("incrementByFloat", 1, 3)),
        collision(actor("set", 1, 3), actor("append", 1, 1), actor("setRange", 1, 2, 1)),
        collision(actor("setExpiring", 1, 1), actor("getZeroCopy", 1), actor("set", 1, 2)),
        collision(actor("set", 1, 1), actor("setExpiring", 1, 2), actor("getZeroCopy", 1)),
        twoKeys(actor("set", 1, 1), actor("rename", 1, 2, false), actor("rename", 2, 1, false)),
        twoKeys(actor("set", 1, 1), actor("rename", 1, 2, true), actor("set", 2, 3)),
        twoKeys(actor("set", 2, 2), actor("rename", 2, 1, true), actor("getRange", 2, 0, -1)));

    private static ExecutionScenario twoKeys(final Actor initial, final Actor first, final Actor second)
    {
        return new ExecutionScenario(List.of(initial), List.of(List.of(first), List.of(second)),
            List.of(actor("get", 1), actor("get", 2)), null);
    }

    private static ExecutionScenario collision(final Actor initial, final Actor first, final Actor second)
    {
        return new ExecutionScenario(
            List.of(initial), List.of(List.of(first), List.of(second)), List.of(actor("get", 1)), null);
    }

    private static Actor actor(final String operation, final Object... args)
    {
        for (final Method method : Target.class.getMethods())
        {
            if (method.getName().equals(operation))
            {
                return new Actor(method, List.of(args));
            }
        }
        throw new IllegalArgumentException("no operation " + operation);
    }

    /**
     * The values the operations write: integers (so increments succeed) and non-integers (so they fail).
     */
    static final String[] VALUES = {"0", "1", "12", "z", "", "-7"};

    private static final long ONE_HOUR_MS = TimeUnit.HOURS.toMillis(1);

    /**
     * The deltas incrementByFloat adds.
     */
    static final double[] FLOAT_DELTAS = {0.5, -0.25, 1.5, 0.1};

    /**
     * The length of key 1, 2 and 3: the zero-copy GET compares a key of 8 to 16 bytes as two words and any other
     * key byte by byte, so the keys take both ways.
     */
    private static final int[] KEY_LENGTHS = {0, 2, 12, 16};

    static byte[] key(final int key)
    {
        final byte[] bytes = new byte[KEY_LENGTHS[key]];
        Arrays.fill(bytes, (byte)'-');
        bytes[0] = 'k';
        bytes[1] = (byte)('0' + key);
        return bytes;
    }

    static byte[] value(final int value)
    {
        return VALUES[value].getBytes(StandardCharsets.US_ASCII);
    }

    static String text(final byte[] bytes)
    {
        return bytes == null ? null : new String(bytes, StandardCharsets.US_ASCII);
    }

    /**
     * The operations under test, on the shared store. Results are strings and numbers, so that Lincheck compares
     * them by value.
     */
    @Param(name = "key", gen = IntGen.class, conf = "1:3")
    @Param(name = "value", gen = IntGen.class, conf = "0:5")
    @Param(name = "delta", gen = IntGen.class, conf = "-2:2")
    @Param(name = "index", gen = IntGen.class, conf = "-3:3")
    @Param(name = "offset", gen = IntGen.class, conf = "0:3")
    @Param(name = "floatDelta", gen = IntGen.class, conf = "0:3")
    public static class Target
    {
        private final OffHeapStore store = SharedStore.get();

        public Target()
        {
            store.clear();
        }

        @Operation
        public String get(@Param(name = "key") final int key)
        {
            return text(store.get(key(key)));
        }

        @Operation
        public void set(@Param(name = "key") final int key, @Param(name = "value") final int value)
        {
            store.set(key(key), value(value));
        }

        /**
         * GET through the zero-copy path, whose common case is {@code FastRead}'s single optimistic probe.
         */
        @Operation
        public String getZeroCopy(@Param(name = "key") final int key)
        {
            final byte[] k = key(key);
            final ExpandableArrayBuffer dst = new ExpandableArrayBuffer(8);
            final int length = store.get(new UnsafeBuffer(k), 0, k.length, dst, 0);
            return length == AgniStore.NOT_FOUND ? null : dst.getStringWithoutLengthAscii(0, length);
        }

        /**
         * SET with an expiry time an hour after the fake clock's (which stands still), so that the entry takes the
         * header shape with an expiry time and reads see the same value as after a plain SET.
         */
        @Operation
        public void setExpiring(@Param(name = "key") final int key, @Param(name = "value") final int value)
        {
            store.set(key(key), value(value), SetCondition.ALWAYS, ExpiryMode.AT, TestStores.START_MS + ONE_HOUR_MS);
        }

        @Operation
        public boolean setIfAbsent(@Param(name = "key") final int key, @Param(name = "value") final int value)
        {
            return store.set(key(key), value(value), SetCondition.IF_ABSENT, ExpiryMode.CLEAR, 0);
        }

        @Operation
        public boolean delete(@Param(name = "key") final int key)
        {
            return store.delete(key(key));
        }

        @Operation
        public String incrementBy(@Param(name = "key") final int key, @Param(name = "delta") final int delta)
        {
            try
            {
                return Long.toString(store.incrementBy(key(key), delta));
            }
            catch (final NotAnIntegerException ex)
            {
                return "not an integer";
            }
        }

        @Operation
        public long append(@Param(name = "key") final int key, @Param(name = "value") final int value)
        {
            return store.append(key(key), value(value));
        }

        @Operation
        public String getAndSet(@Param(name = "key") final int key, @Param(name = "value") final int value)
        {
            return text(store.getAndSet(key(key), value(value), SetCondition.ALWAYS, ExpiryMode.CLEAR, 0));
        }

        @Operation
        public String getAndDelete(@Param(name = "key") final int key)
        {
            return text(store.getAndDelete(key(key)));
        }

        @Operation
        public int valueLength(@Param(name = "key") final int key)
        {
            return store.valueLength(key(key));
        }

        @Operation
        public String getRange(
            @Param(name = "key") final int key, @Param(name = "index") final int start,
            @Param(name = "index") final int end)
        {
            return text(store.getRange(key(key), start, end));
        }

        @Operation
        public long setRange(
            @Param(name = "key") final int key, @Param(name = "offset") final int offset,
            @Param(name = "value") final int value)
        {
            return store.setRange(key(key), offset, value(value));
        }

        @Operation
        public String rename(
            @Param(name = "key") final int key, @Param(name = "key") final int newKey, final boolean replace)
        {
            return store.rename(key(key), key(newKey), replace).name();
        }

        @Operation
        public String incrementByFloat(@Param(name = "key") final int key, @Param(name = "floatDelta") final int delta)
        {
            try
            {
                return text(store.incrementByFloat(key(key), FLOAT_DELTAS[delta]));
            }
            catch (final NotAFloatException ex)
            {
                return "not a float";
            }
        }
    }

    /**
     * The sequential specification: a {@link HashMap} with the same operations.
     */
    public static class SequentialStore
    {
        private final Map<Integer, String> map = new HashMap<>();

        public String get(final int key)
        {
            return map.get(key);
        }

        public void set(final int key, final int value)
        {
            map.put(key, VALUES[value]);
        }

        public String getZeroCopy(final int key)
        {
            return map.get(key);
        }

        public void setExpiring(final int key, final int value)
        {
            map.put(key, VALUES[value]);
        }

        public boolean setIfAbsent(final int key, final int value)
        {
            return map.putIfAbsent(key, VALUES[value]) == null;
        }

        public boolean delete(final int key)
        {
            return map.remove(key) != null;
        }

        public String incrementBy(final int key, final int delta)
        {
            final String old = map.getOrDefault(key, "0");
            if (!old.matches("0|-?[1-9][0-9]{0,18}"))
            {
                return "not an integer";
            }
            final String sum = Long.toString(Long.parseLong(old) + delta);
            map.put(key, sum);
            return sum;
        }

        public long append(final int key, final int value)
        {
            final String joined = map.getOrDefault(key, "") + VALUES[value];
            map.put(key, joined);
            return joined.length();
        }

        public String getAndSet(final int key, final int value)
        {
            return map.put(key, VALUES[value]);
        }

        public String getAndDelete(final int key)
        {
            return map.remove(key);
        }

        public int valueLength(final int key)
        {
            final String value = map.get(key);
            return value == null ? -1 : value.length();
        }

        public String getRange(final int key, final int start, final int end)
        {
            final String value = map.getOrDefault(key, "");
            final int length = value.length();
            if (start < 0 && end < 0 && start > end)
            {
                return "";
            }
            final int first = Math.max(0, start < 0 ? length + start : start);
            final int last = Math.min(length - 1, Math.max(0, end < 0 ? length + end : end));
            return first > last ? "" : value.substring(first, last + 1);
        }

        public long setRange(final int key, final int offset, final int value)
        {
            final String old = map.get(key);
            final String piece = VALUES[value];
            if (piece.isEmpty())
            {
                return old == null ? 0 : old.length();
            }
            final StringBuilder updated = new StringBuilder(old == null ? "" : old);
            while (updated.length() < offset)
            {
                updated.append('\0');
            }
            updated.replace(offset, Math.min(updated.length(), offset + piece.length()), piece);
            map.put(key, updated.toString());
            return updated.length();
        }

        public String rename(final int key, final int newKey, final boolean replace)
        {
            if (!map.containsKey(key))
            {
                return RenameResult.NO_SUCH_KEY.name();
            }
            if (key == newKey || !replace && map.containsKey(newKey))
            {
                return (replace ? RenameResult.RENAMED : RenameResult.TARGET_EXISTS).name();
            }
            map.put(newKey, map.remove(key));
            return RenameResult.RENAMED.name();
        }

        public String incrementByFloat(final int key, final int delta)
        {
            final String old = map.getOrDefault(key, "0");
            if (!old.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)"))
            {
                return "not a float";
            }
            final BigDecimal sum = new BigDecimal(old.endsWith(".") ? old + "0" : old)
                .add(new BigDecimal(Double.toString(FLOAT_DELTAS[delta])))
                .round(new MathContext(17, RoundingMode.HALF_EVEN));
            final String text = sum.signum() == 0 ? "0" : sum.stripTrailingZeros().toPlainString();
            map.put(key, text);
            return text;
        }
    }
}
