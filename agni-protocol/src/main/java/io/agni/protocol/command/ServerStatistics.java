package io.agni.protocol.command;

import io.agni.api.AgniException;
import io.agni.api.AgniStore;
import io.agni.api.StoreStats;
import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The statistics one server keeps for {@code INFO}, and what {@code CONFIG RESETSTAT} resets: the commands' counts
 * (one {@link CommandRecorder} per command processor, merged when read), the error replies by code, the samples
 * behind {@code instantaneous_ops_per_sec}, the peak of {@code used_memory}, and the baselines that turn the
 * store's and the server's ever-growing counters into counts since the last reset.
 *
 * <h2>Reset</h2>
 * The counters keep growing; {@link #reset} records their values then, and what {@code INFO} reports is the
 * difference. So a reset never races with a counter's single writer, and the store, whose statistics cannot be
 * reset, needs no change. The error table is replaced by an empty one, as Redis empties its own.
 *
 * <h2>Threads</h2>
 * Thread-safe. Counting (recorders, {@link #error}) allocates nothing once an error code has been seen; reading and
 * resetting are synchronized and allocate.
 */
public final class ServerStatistics
{
    /**
     * The most distinct error codes counted, as Redis's {@code ERROR_STATS_NUMBER}; replies with a code first seen
     * after that are counted in {@code total_error_replies} only.
     */
    public static final int MAX_ERROR_CODES = 128;

    /**
     * The longest error code: the first word of the reply, if it has a space in its first 32 bytes, else
     * {@code ERR}, as Redis's {@code afterErrorReply} reads it.
     */
    static final int MAX_ERROR_CODE_LENGTH = 32;

    static final int HITS = 0;
    static final int MISSES = 1;
    static final int EXPIRED = 2;
    static final int EVICTED = 3;
    static final int CONNECTIONS = 4;
    static final int REJECTED_CONNECTIONS = 5;
    static final int EVICTED_CLIENTS = 6;
    private static final int COUNTERS = 7;

    private static final int SAMPLES = 16;
    private static final long SAMPLE_INTERVAL_MS = 100;
    private static final long RATE_WINDOW_MS = 2_000;
    private static final byte[] ERR = "ERR".getBytes(StandardCharsets.US_ASCII);

    private final List<CommandRecorder> recorders = new CopyOnWriteArrayList<>();
    private final AtomicLong totalErrors = new AtomicLong();
    private final AtomicLong peakMemory = new AtomicLong();
    private final String runId = randomHex();
    private final String replicationId = randomHex();
    private volatile ErrorCount[] errors = new ErrorCount[0];
    private List<String> names;
    private long[] commandBaseline = new long[0];
    private final long[] counterBaseline = new long[COUNTERS];
    private final long[] sampleTimes = new long[SAMPLES];
    private final long[] sampleTotals = new long[SAMPLES];
    private int samples;
    private int nextSample;

    /**
     * Empty statistics, for one server.
     */
    public ServerStatistics()
    {
    }

    /**
     * A new recorder for one command processor (one event loop), if its table has the same commands as every
     * other recorder's.
     *
     * @param table the processor's command table.
     * @return the recorder, counted in this server's statistics from now on, or {@code null} when the table's
     * commands differ from the other recorders' (a processor of other commands keeps statistics of its own).
     */
    synchronized CommandRecorder recorder(final CommandTable table)
    {
        if (names == null)
        {
            names = table.statsNames();
            commandBaseline = new long[names.size() * CommandRecorder.FIELDS];
        }
        else if (!names.equals(table.statsNames()))
        {
            return null;
        }
        final CommandRecorder recorder = new CommandRecorder(names.size());
        recorders.add(recorder);
        return recorder;
    }

    /**
     * Counts an error reply by its code. Any thread; allocates only the first time a code is seen.
     *
     * @param reply  holds the reply.
     * @param offset where it starts, at its {@code -}.
     * @param end    where the encoded replies end.
     */
    void error(final DirectBuffer reply, final int offset, final int end)
    {
        totalErrors.incrementAndGet();
        final int start = offset + 1;
        int codeEnd = -1;
        for (int i = start, limit = Math.min(end, start + MAX_ERROR_CODE_LENGTH); i < limit; i++)
        {
            final byte b = reply.getByte(i);
            if (b == ' ')
            {
                codeEnd = i;
                break;
            }
            if (b == '\r')
            {
                break;
            }
        }
        if (codeEnd < 0)
        {
            count(ERR, null, 0, ERR.length);
        }
        else
        {
            count(null, reply, start, codeEnd - start);
        }
    }

    /**
     * Counts an error reply whose code is known, e.g. {@code ERR} for a protocol error the network layer wrote.
     * Any thread.
     *
     * @param code the code, at most {@value #MAX_ERROR_CODE_LENGTH} ASCII characters.
     */
    public void error(final String code)
    {
        totalErrors.incrementAndGet();
        final byte[] bytes = code.getBytes(StandardCharsets.US_ASCII);
        count(bytes, null, 0, bytes.length);
    }

    private void count(final byte[] array, final DirectBuffer buffer, final int offset, final int length)
    {
        for (final ErrorCount error : errors)
        {
            if (error.matches(array, buffer, offset, length))
            {
                error.count.incrementAndGet();
                return;
            }
        }
        addError(array, buffer, offset, length);
    }

    private synchronized void addError(final byte[] array, final DirectBuffer buffer, final int offset, final int length)
    {
        final ErrorCount[] current = errors;
        for (final ErrorCount error : current)
        {
            if (error.matches(array, buffer, offset, length))
            {
                error.count.incrementAndGet();
                return;
            }
        }
        if (current.length >= MAX_ERROR_CODES)
        {
            return;
        }
        final byte[] code = new byte[length];
        if (array != null)
        {
            System.arraycopy(array, offset, code, 0, length);
        }
        else
        {
            buffer.getBytes(offset, code);
        }
        final ErrorCount added = new ErrorCount(code);
        added.count.set(1);
        final ErrorCount[] grown = Arrays.copyOf(current, current.length + 1);
        grown[current.length] = added;
        errors = grown;
    }

    /**
     * Returns the names of the commands counted, indexed as {@link #commandCounts()}; empty before a processor
     * registered.
     *
     * @return the names of the commands counted.
     */
    synchronized List<String> commandNames()
    {
        return names == null ? List.of() : names;
    }

    /**
     * The commands' counts since the last reset, {@link CommandRecorder#FIELDS} per command: calls, nanoseconds,
     * rejected calls, failed calls.
     *
     * @return a new array.
     */
    synchronized long[] commandCounts()
    {
        final long[] sums = new long[commandBaseline.length];
        for (final CommandRecorder recorder : recorders)
        {
            recorder.addTo(sums);
        }
        for (int i = 0; i < sums.length; i++)
        {
            sums[i] = Math.max(0, sums[i] - commandBaseline[i]);
        }
        return sums;
    }

    /**
     * Returns every command's calls since the last reset ({@code total_commands_processed}).
     *
     * @return every command's calls since the last reset ({@code total_commands_processed}).
     */
    public synchronized long totalCommands()
    {
        return Math.max(0, totalCallsNow() - baselineCalls());
    }

    private long totalCallsNow()
    {
        long total = 0;
        for (final CommandRecorder recorder : recorders)
        {
            total += recorder.totalCalls();
        }
        return total;
    }

    private long baselineCalls()
    {
        long total = 0;
        for (int i = CommandRecorder.CALLS; i < commandBaseline.length; i += CommandRecorder.FIELDS)
        {
            total += commandBaseline[i];
        }
        return total;
    }

    /**
     * Returns the error replies since the last reset ({@code total_error_replies}).
     *
     * @return the error replies since the last reset ({@code total_error_replies}).
     */
    public long totalErrors()
    {
        return totalErrors.get();
    }

    /**
     * The error codes seen since the last reset, each with its count, in the order first seen.
     *
     * @return pairs of code and count ({@code errorstat_<code>:count=<n>}).
     */
    List<Map.Entry<String, Long>> errorCounts()
    {
        final ErrorCount[] current = errors;
        final ArrayList<Map.Entry<String, Long>> list = new ArrayList<>(current.length);
        for (final ErrorCount error : current)
        {
            list.add(Map.entry(new String(error.code, StandardCharsets.US_ASCII), error.count.get()));
        }
        list.sort(Map.Entry.comparingByKey());
        return list;
    }

    /**
     * Takes a sample of the commands counted for {@code instantaneous_ops_per_sec}, unless one was taken less than
     * 100 ms ago. Any thread: the event loops call it on their ticks and {@code INFO} when it reports.
     *
     * @param nowMillis the time now, milliseconds of a clock that does not go backwards.
     * @return whether a sample was taken.
     */
    public synchronized boolean sample(final long nowMillis)
    {
        if (samples > 0)
        {
            final long last = sampleTimes[(nextSample + SAMPLES - 1) % SAMPLES];
            if (nowMillis - last < SAMPLE_INTERVAL_MS)
            {
                return false;
            }
        }
        sampleTimes[nextSample] = nowMillis;
        sampleTotals[nextSample] = totalCallsNow();
        nextSample = (nextSample + 1) % SAMPLES;
        samples = Math.min(SAMPLES, samples + 1);
        return true;
    }

    /**
     * An event loop's tick: takes a sample of the commands counted, and when it did, of {@code used_memory} for
     * its peak. Any thread; allocates (the store's statistics) at most every 100 ms.
     *
     * @param nowMillis the time now, milliseconds of a clock that does not go backwards.
     * @param store     the server's store.
     */
    public void tick(final long nowMillis, final AgniStore store)
    {
        if (sample(nowMillis))
        {
            try
            {
                peakMemory(ServerInfoCommand.usedMemory(store.stats()));
            }
            catch (final AgniException ex)
            {
                // a store closed under a running server: no memory to sample, and nothing for the loop to do
            }
        }
    }

    /**
     * Commands per second over the samples of the last two seconds, as Redis's average of its last 16 samples
     * taken every 100 ms: 0 until two samples 100 ms apart exist.
     *
     * @param nowMillis the time now, of the clock given to {@link #sample}.
     * @return commands per second, rounded down.
     */
    synchronized long instantaneousOpsPerSecond(final long nowMillis)
    {
        sample(nowMillis);
        if (samples < 2)
        {
            return 0;
        }
        final int newest = (nextSample + SAMPLES - 1) % SAMPLES;
        int oldest = -1;
        for (int i = samples; i >= 2; i--)
        {
            final int index = (nextSample + SAMPLES - i) % SAMPLES;
            if (nowMillis - sampleTimes[index] <= RATE_WINDOW_MS)
            {
                oldest = index;
                break;
            }
        }
        if (oldest < 0)
        {
            return 0;
        }
        final long elapsed = sampleTimes[newest] - sampleTimes[oldest];
        if (elapsed < SAMPLE_INTERVAL_MS)
        {
            return 0;
        }
        return Math.max(0, sampleTotals[newest] - sampleTotals[oldest]) * 1000 / elapsed;
    }

    /**
     * Raises the peak of {@code used_memory} to a value seen now, and returns the peak.
     *
     * @param usedBytes {@code used_memory} now.
     * @return the peak since start or the last reset.
     */
    long peakMemory(final long usedBytes)
    {
        return peakMemory.accumulateAndGet(usedBytes, Math::max);
    }

    /**
     * Returns the value of a counter since the last reset.
     *
     * @param counter  which ({@link #HITS} ...).
     * @param valueNow its value now, as the store or the server counts it.
     * @return its growth since the last reset.
     */
    synchronized long sinceReset(final int counter, final long valueNow)
    {
        return Math.max(0, valueNow - counterBaseline[counter]);
    }

    /**
     * {@code CONFIG RESETSTAT}: from now on, what Redis resets counts from zero: the commands' counts, the error
     * replies, the keyspace hits and misses, the expired and evicted keys, the connections received and rejected,
     * the clients evicted, and the peak memory (which the next {@code INFO} sets to the memory used then).
     *
     * @param stats  the store's statistics now.
     * @param server the server now.
     */
    synchronized void reset(final StoreStats stats, final ServerContext server)
    {
        Arrays.fill(commandBaseline, 0);
        for (final CommandRecorder recorder : recorders)
        {
            recorder.addTo(commandBaseline);
        }
        counterBaseline[HITS] = stats.hits();
        counterBaseline[MISSES] = stats.misses();
        counterBaseline[EXPIRED] = stats.expired();
        counterBaseline[EVICTED] = stats.evicted();
        counterBaseline[CONNECTIONS] = server.totalConnectionsReceived();
        counterBaseline[REJECTED_CONNECTIONS] = server.rejectedConnections();
        counterBaseline[EVICTED_CLIENTS] = server.evictedClients();
        errors = new ErrorCount[0];
        totalErrors.set(0);
        peakMemory.set(0);
        samples = 0;
        nextSample = 0;
    }

    /**
     * Returns a random 40-character hex id for this server's life ({@code run_id}).
     *
     * @return a random 40-character hex id for this server's life ({@code run_id}).
     */
    String runId()
    {
        return runId;
    }

    /**
     * Returns the replication id ({@code master_replid}), random as Redis's for a master that never replicated.
     *
     * @return the replication id ({@code master_replid}).
     */
    String replicationId()
    {
        return replicationId;
    }

    private static String randomHex()
    {
        final byte[] bytes = new byte[20];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static final class ErrorCount
    {
        final byte[] code;
        final AtomicLong count = new AtomicLong();

        ErrorCount(final byte[] code)
        {
            this.code = code;
        }

        boolean matches(final byte[] array, final DirectBuffer buffer, final int offset, final int length)
        {
            if (code.length != length)
            {
                return false;
            }
            for (int i = 0; i < length; i++)
            {
                final byte b = array != null ? array[offset + i] : buffer.getByte(offset + i);
                if (b != code[i])
                {
                    return false;
                }
            }
            return true;
        }
    }
}
