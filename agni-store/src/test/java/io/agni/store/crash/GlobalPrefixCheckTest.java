package io.agni.store.crash;

import io.agni.store.OffHeapStore;
import io.agni.store.crash.CrashOps.Entry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link GlobalPrefixCheck} accepts what a prefix of a log order the real-time order allows leaves, and rejects
 * each way a recovery could break it: an operation missing before one that is there, an operation in part, a value
 * no operation wrote, a shared key left by an older writer, an acknowledged operation lost that had to survive.
 */
class GlobalPrefixCheckTest
{
    private static final long SEED = 7;
    private static final int OPS = 200;

    @Test
    void acceptsEveryPrefixOfOneThreadsOperations()
    {
        final Timeline timeline = Timeline.parse(sequential(OPS));
        for (final int k : new int[] {0, 1, 57, OPS})
        {
            final Map<String, Entry> state = state(LongStream.rangeClosed(1, k), List.of());
            assertDoesNotThrow(() -> GlobalPrefixCheck.check(state, timeline, SEED, false, "prefix " + k));
        }
    }

    @Test
    void rejectsAnOperationMissingBeforeOneThatIsThere()
    {
        final Map<String, Entry> state = state(LongStream.rangeClosed(1, OPS).filter(n -> n != 100), List.of());
        assertFails(state, Timeline.parse(sequential(OPS)), false, "operation 100 is missing, but operation 200");
    }

    @Test
    void rejectsAnOperationThereInPart()
    {
        final Map<String, Entry> state = state(LongStream.rangeClosed(1, OPS), List.of());
        final long n = LongStream.rangeClosed(1, OPS)
            .filter(m -> NumberedOps.ownState(NumberedOps.op(SEED, m, 0), m).size() > 1).findFirst().orElseThrow();
        state.remove(NumberedOps.ownState(NumberedOps.op(SEED, n, 0), n).keySet().iterator().next());
        assertFails(state, Timeline.parse(sequential(OPS)), false, "operation " + n + " (");
    }

    @Test
    void rejectsAValueNoOperationWrote()
    {
        final Map<String, Entry> state = state(LongStream.rangeClosed(1, OPS), List.of());
        state.put(NumberedOps.ownPrefix(3) + 0, new Entry("n3-s0-", 0));
        assertFails(state, Timeline.parse(sequential(OPS)), false, "never wrote");
        final Map<String, Entry> stranger = state(LongStream.rangeClosed(1, OPS), List.of());
        stranger.put("stranger", new Entry("x", 0));
        assertFails(stranger, Timeline.parse(sequential(OPS)), false, "key stranger is no operation's");
    }

    @Test
    void rejectsASharedKeyLeftByAnOlderWriter()
    {
        final Map<String, Entry> state = state(LongStream.rangeClosed(1, OPS), List.of());
        final long[] writers = LongStream.rangeClosed(1, OPS)
            .filter(n -> NumberedOps.writes(NumberedOps.op(SEED, n, 0), NumberedOps.LAST)).toArray();
        state.put(NumberedOps.LAST, new Entry(Long.toString(writers[writers.length - 2]), 0));
        assertFails(state, Timeline.parse(sequential(OPS)), false, "last holds " + writers[writers.length - 2]);
    }

    @Test
    void rejectsALostOperationThatHadToSurvive()
    {
        final Map<String, Entry> state = state(LongStream.rangeClosed(1, 150), List.of());
        assertFails(state, Timeline.parse(sequential(OPS)), true, "operation 151 is missing, but it was acknowledged");
        final List<String> lines = sequential(OPS);
        lines.add(2 * 160, "durable-start");
        lines.add("durable-end");
        assertFails(state, Timeline.parse(lines), false, "before a checkpoint or sync that returned began");
    }

    @Test
    void acceptsEitherOrderOfOverlappingOperationsButNotOfOneThatReturnedBeforeAnotherBegan()
    {
        // Operations 1 and 2 overlap; 3 begins after both returned; all three write "last".
        final long seed = LongStream.iterate(1, s -> s + 1).filter(s ->
            NumberedOps.writes(NumberedOps.op(s, 1, 0), NumberedOps.LAST) &&
            NumberedOps.writes(NumberedOps.op(s, 2, 1), NumberedOps.LAST) &&
            NumberedOps.writes(NumberedOps.op(s, 3, 0), NumberedOps.LAST)).findFirst().orElseThrow();
        final Timeline timeline = Timeline.parse(List.of(
            "start 0 1", "start 1 2", "ack 2", "ack 1", "start 0 3", "ack 3"));
        final List<Integer> threads = List.of(0, 0, 1, 0);
        for (final long[] order : new long[][] {{1}, {2}, {1, 2}, {2, 1}, {1, 2, 3}, {2, 1, 3}})
        {
            final Map<String, Entry> state = state(seed, LongStream.of(order), threads);
            assertDoesNotThrow(() -> GlobalPrefixCheck.check(state, timeline, seed, false, "order"));
        }
        assertFails(seed, state(seed, LongStream.of(2, 3), threads), timeline, false, "operation 1 is missing");
        assertFails(seed, state(seed, LongStream.of(1, 3), threads), timeline, false, "operation 2 is missing");
        assertFails(seed, state(seed, LongStream.of(1, 3, 2), threads), timeline, false, "last holds 2");
    }

    /**
     * The lines of one thread running operations 1 to {@code ops}, each acknowledged before the next began.
     */
    private static List<String> sequential(final int ops)
    {
        final List<String> lines = new ArrayList<>();
        for (int n = 1; n <= ops; n++)
        {
            lines.add("start 0 " + n);
            lines.add("ack " + n);
        }
        return lines;
    }

    private static Map<String, Entry> state(final LongStream order, final List<Integer> threads)
    {
        return state(SEED, order, threads);
    }

    /**
     * What a store holds after the operations in {@code order}, each of the thread {@code threads} gives it (0 for
     * every one past the list's end).
     */
    private static Map<String, Entry> state(final long seed, final LongStream order, final List<Integer> threads)
    {
        try (OffHeapStore store = OffHeapStore.builder().shards(4).maxMemory(64L << 20).build())
        {
            order.forEach(n -> CrashOps.apply(store,
                NumberedOps.op(seed, n, n < threads.size() ? threads.get((int)n) : 0)));
            return new TreeMap<>(GlobalPrefixCheck.read(store));
        }
    }

    private static void assertFails(final Map<String, Entry> state, final Timeline timeline,
        final boolean everyAckDurable, final String message)
    {
        assertFails(SEED, state, timeline, everyAckDurable, message);
    }

    private static void assertFails(final long seed, final Map<String, Entry> state, final Timeline timeline,
        final boolean everyAckDurable, final String message)
    {
        final AssertionError failure = assertThrows(AssertionError.class,
            () -> GlobalPrefixCheck.check(state, timeline, seed, everyAckDurable, "run"));
        assertTrue(failure.getMessage().contains(message), failure.getMessage());
    }
}
