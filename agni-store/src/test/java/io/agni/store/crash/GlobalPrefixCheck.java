package io.agni.store.crash;

import io.agni.api.AgniStore;
import io.agni.api.ScanResult;
import io.agni.store.crash.CrashOps.Entry;
import io.agni.store.crash.CrashOps.Op;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Checks that a store recovered after a crash or a power loss holds the state after one prefix of its writers'
 * operations taken together, not only a prefix of each thread's.
 * <p>
 * The store puts every change in one log with one sequence, appended under the write locks of the shards it
 * changes, and recovery applies a prefix of that log to a snapshot the log is consistent with (docs/durability.md).
 * The test cannot see the log's order, but the order is bound by real time: an operation that returned before
 * another began comes first. Two that overlapped may come either way, whatever their numbers say, so the check
 * relies only on the {@link Timeline}'s "returned before began" and on keys written by more than one operation:
 * <ol>
 *     <li>Every key is one an operation writes, and every operation that left any of its own keys left all of them
 *     as the whole operation does: no batch half applied, no value never written.</li>
 *     <li>If an operation is there, so is every operation acknowledged before it began.</li>
 *     <li>Every operation acknowledged before the last checkpoint or sync that returned began is there; with
 *     {@code everyAckDurable} (a crash of the process with {@code DURABLE}, anything with {@code PARANOID}), every
 *     acknowledged operation is.</li>
 *     <li>A key several operations write ({@code last}, {@code last-t<thread>}) holds the number of one of them
 *     that is there, and none of the others there began after that one returned: the store applied last what its
 *     log holds last.</li>
 * </ol>
 */
public final class GlobalPrefixCheck
{
    private GlobalPrefixCheck()
    {
    }

    /**
     * Every key of a store, with its value and expiry time (0 for none).
     *
     * @param store the store, with no writer.
     * @return the keys.
     */
    public static Map<String, Entry> read(final AgniStore store)
    {
        final Map<String, Entry> all = new TreeMap<>();
        long cursor = 0;
        do
        {
            final ScanResult page = store.scan(cursor, null, 1000);
            for (final byte[] key : page.keys())
            {
                final long expireAt = store.expireTimeMillis(key);
                all.put(new String(key, StandardCharsets.UTF_8),
                    new Entry(new String(store.get(key), StandardCharsets.UTF_8), expireAt < 0 ? 0 : expireAt));
            }
            cursor = page.cursor();
        }
        while (cursor != 0);
        return all;
    }

    /**
     * Fails unless {@code recovered} is a state one prefix of the run's log order leaves.
     *
     * @param recovered       what the store holds, from {@link #read}.
     * @param timeline        the run's real-time order.
     * @param seed            the seed the operations were generated from.
     * @param everyAckDurable whether every acknowledged operation must be there.
     * @param run             names the run in a failure.
     */
    public static void check(final Map<String, Entry> recovered, final Timeline timeline, final long seed,
        final boolean everyAckDurable, final String run)
    {
        final Map<Long, Map<String, Entry>> own = new TreeMap<>();
        for (final Map.Entry<String, Entry> e : recovered.entrySet())
        {
            final String key = e.getKey();
            if (!key.equals(NumberedOps.LAST) && !key.startsWith(NumberedOps.THREAD_LAST))
            {
                own.computeIfAbsent(number(key, run), n -> new HashMap<>()).put(key, e.getValue());
            }
        }
        final Map<Long, Op> present = new TreeMap<>();
        long latest = 0;
        for (final Map.Entry<Long, Map<String, Entry>> e : own.entrySet())
        {
            final long n = e.getKey();
            if (n > timeline.started())
            {
                fail(run + ": operation " + n + " is there but never started (" + timeline.started() + " did)");
            }
            final Op op = NumberedOps.op(seed, n, timeline.thread(n));
            final Map<String, Entry> whole = NumberedOps.ownState(op, n);
            if (!whole.equals(e.getValue()))
            {
                fail(run + ": operation " + n + " (" + op.kind() + ") is there in part or with values it never " +
                    "wrote: its keys hold " + e.getValue() + ", the whole operation leaves " + whole);
            }
            present.put(n, op);
            latest = latest == 0 || timeline.startLine(n) > timeline.startLine(latest) ? n : latest;
        }
        checkMissing(present, latest, timeline, everyAckDurable, run);
        checkShared(recovered, NumberedOps.LAST, writers(present, timeline, NumberedOps.LAST, -1), timeline, run);
        final TreeSet<Integer> threads = new TreeSet<>();
        present.keySet().forEach(n -> threads.add(timeline.thread(n)));
        recovered.keySet().stream().filter(key -> key.startsWith(NumberedOps.THREAD_LAST))
            .forEach(key -> threads.add(Integer.parseInt(key.substring(NumberedOps.THREAD_LAST.length()))));
        for (final int t : threads)
        {
            final String key = NumberedOps.threadLast(t);
            checkShared(recovered, key, writers(present, timeline, key, t), timeline, run);
        }
    }

    /**
     * Checks 2 and 3: no operation missing that returned before the last one there began, or before the last
     * durable point.
     */
    private static void checkMissing(final Map<Long, Op> present, final long latest, final Timeline timeline,
        final boolean everyAckDurable, final String run)
    {
        final int latestStart = latest == 0 ? -1 : timeline.startLine(latest);
        final int durable = everyAckDurable ? Timeline.NEVER : timeline.durableLine();
        for (long m = 1; m <= timeline.started(); m++)
        {
            final int acked = timeline.ackLine(m);
            if (acked == Timeline.NEVER || present.containsKey(m))
            {
                continue;
            }
            if (acked < latestStart)
            {
                fail(run + ": operation " + m + " is missing, but operation " + latest + ", which began after it " +
                    "returned (ack on line " + acked + ", start on line " + latestStart + "), is there; " +
                    present.size() + " of " + timeline.started() + " operations are there");
            }
            if (acked < durable)
            {
                fail(run + ": operation " + m + " is missing, but it was acknowledged (line " + acked + ") " +
                    (everyAckDurable ? "and every acknowledged one must survive" :
                    "before a checkpoint or sync that returned began (line " + durable + ")"));
            }
        }
    }

    /**
     * The operations there that write {@code key}, of thread {@code thread} or of any (-1).
     */
    private static List<Long> writers(final Map<Long, Op> present, final Timeline timeline, final String key,
        final int thread)
    {
        final List<Long> writers = new ArrayList<>();
        present.forEach((n, op) ->
        {
            if ((thread < 0 || timeline.thread(n) == thread) && NumberedOps.writes(op, key))
            {
                writers.add(n);
            }
        });
        return writers;
    }

    /**
     * Check 4 for one shared key.
     */
    private static void checkShared(final Map<String, Entry> recovered, final String key, final List<Long> writers,
        final Timeline timeline, final String run)
    {
        final Entry entry = recovered.get(key);
        if (writers.isEmpty())
        {
            if (entry != null)
            {
                fail(run + ": " + key + " holds " + entry + ", but no operation there writes it");
            }
            return;
        }
        if (entry == null || entry.expireAt() != 0 || !entry.value().matches("[1-9][0-9]*") ||
            !writers.contains(Long.parseLong(entry.value())))
        {
            fail(run + ": " + key + " holds " + entry + ", but the operations there that write it are " + writers);
        }
        final long last = Long.parseLong(entry.value());
        for (final long w : writers)
        {
            if (timeline.ackLine(last) < timeline.startLine(w))
            {
                fail(run + ": " + key + " holds " + last + ", but operation " + w + ", which writes it too and " +
                    "began after " + last + " returned (line " + timeline.ackLine(last) + "), is there");
            }
        }
    }

    /**
     * The number of the operation an own key belongs to.
     */
    private static long number(final String key, final String run)
    {
        final int end = key.indexOf("-p");
        if (!key.startsWith("n") || end < 2 || !key.substring(1, end).matches("[0-9]+") ||
            !key.substring(end + 2).matches("[0-9]+"))
        {
            fail(run + ": key " + key + " is no operation's");
        }
        return Long.parseLong(key.substring(1, end));
    }
}
