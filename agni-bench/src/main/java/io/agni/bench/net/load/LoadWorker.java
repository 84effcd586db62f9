package io.agni.bench.net.load;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One event-loop thread of a run: a selector over its share of the connections, sending requests and counting
 * replies until the run ends.
 *
 * <h2>Closed loop</h2>
 * Every connection starts with {@code pipeline} requests and, each time replies arrive, sends as many new ones in
 * one write: one read and one write per readiness event, as redis-benchmark does. A request's latency runs from the
 * moment its batch was encoded to the moment its reply was read.
 *
 * <h2>Open loop</h2>
 * Each connection sends its requests when its {@link OpenLoopSchedule} says they are due, with at most
 * {@code pipeline} in flight; a request held back by that limit or by a busy thread is sent late, and its latency
 * still runs from its intended time. The thread sleeps in {@code select} until the next request is due, or parks
 * briefly when that is less than a millisecond away.
 *
 * <h2>Threads</h2>
 * The run's main thread builds the worker and reads its results after {@link Thread#join()}; {@link #progress()} and
 * the shared abort flag are the only fields both touch while it runs.
 */
final class LoadWorker implements Runnable
{
    static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);

    private static final long SPIN_PARK_NANOS = 50_000;
    private static final long MAX_SELECT_MILLIS = 100;

    private final LoadConnection[] connections;
    private final RunSettings settings;
    private final RequestEncoder encoder;
    private final RunClock clock;
    private final AtomicBoolean abort;
    private final Histogram histogram = new Histogram(HIGHEST_NANOS, 3);
    private final AtomicLong progress = new AtomicLong();
    private final boolean countMode;
    private final int pipeline;
    private long[] perSecond = new long[16];
    private long replies;
    private long measured;
    private long lastMeasuredReply;
    private long lastReplyOrStart;
    private Selector selector;
    private volatile Throwable failure;

    LoadWorker(
        final LoadConnection[] connections,
        final RunSettings settings,
        final RequestEncoder encoder,
        final RunClock clock,
        final AtomicBoolean abort)
    {
        this.connections = connections;
        this.settings = settings;
        this.encoder = encoder;
        this.clock = clock;
        this.abort = abort;
        this.countMode = settings.requests() > 0;
        this.pipeline = settings.pipeline();
    }

    @Override
    public void run()
    {
        try (Selector s = Selector.open())
        {
            selector = s;
            for (final LoadConnection c : connections)
            {
                c.key = c.channel.register(s, SelectionKey.OP_READ, c);
            }
            waitUntil(clock.start());
            loop();
        }
        catch (final Throwable ex)
        {
            failure = ex instanceof UncheckedIOException u ? u.getCause() : ex;
            abort.set(true);
        }
    }

    /**
     * @return replies counted so far, warm-up included; any thread.
     */
    long progress()
    {
        return progress.get();
    }

    Throwable failure()
    {
        return failure;
    }

    Histogram histogram()
    {
        return histogram;
    }

    long measured()
    {
        return measured;
    }

    long lastMeasuredReply()
    {
        return lastMeasuredReply;
    }

    long[] perSecond()
    {
        return perSecond;
    }

    long errors()
    {
        return Arrays.stream(connections).mapToLong(c -> c.counter.errors()).sum();
    }

    long nulls()
    {
        return Arrays.stream(connections).mapToLong(c -> c.counter.nulls()).sum();
    }

    String firstError()
    {
        return Arrays.stream(connections).map(c -> c.counter.firstError()).filter(e -> e != null).findFirst()
            .orElse(null);
    }

    /**
     * @param end the end of the measured window.
     * @return open-loop requests due before {@code end} that were never sent (0 in a run of a request count).
     */
    long late(final long end)
    {
        long late = 0;
        if (countMode)
        {
            return 0;
        }
        for (final LoadConnection c : connections)
        {
            if (c.schedule != null)
            {
                long n = c.sent;
                while (c.schedule.intendedTime(n) < end)
                {
                    n++;
                    late++;
                }
            }
        }
        return late;
    }

    private void loop() throws IOException
    {
        final boolean open = settings.openLoop();
        long now = System.nanoTime();
        lastReplyOrStart = now;
        if (!open)
        {
            for (final LoadConnection c : connections)
            {
                fill(c, now);
            }
        }
        while (!abort.get())
        {
            now = System.nanoTime();
            if (finished(now))
            {
                return;
            }
            checkStall(now);
            if (open)
            {
                final long nextDue = sendDue(now);
                waitForEvents(nextDue - System.nanoTime());
            }
            else
            {
                final long untilEnd = clock.measureEnd() - now;
                waitForEvents(untilEnd > 0 ? Math.min(untilEnd, TimeUnit.MILLISECONDS.toNanos(MAX_SELECT_MILLIS)) :
                    TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    private void waitForEvents(final long nanos) throws IOException
    {
        if (nanos >= TimeUnit.MILLISECONDS.toNanos(1))
        {
            selector.select(this::onKey, Math.min(MAX_SELECT_MILLIS, TimeUnit.NANOSECONDS.toMillis(nanos)));
        }
        else if (selector.selectNow(this::onKey) == 0 && nanos > 0)
        {
            LockSupport.parkNanos(Math.min(nanos, SPIN_PARK_NANOS));
        }
    }

    private void onKey(final SelectionKey key)
    {
        final LoadConnection c = (LoadConnection)key.attachment();
        try
        {
            if (key.isWritable())
            {
                c.flush();
            }
            if (key.isReadable())
            {
                final int done = c.read();
                if (done == ReplyCounter.PROTOCOL_ERROR)
                {
                    throw new IOException("the server sent bytes that are not RESP");
                }
                if (done > 0)
                {
                    final long now = System.nanoTime();
                    onReplies(c, done, now);
                    if (!settings.openLoop())
                    {
                        fill(c, now);
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void onReplies(final LoadConnection c, final int done, final long now)
    {
        for (int i = 0; i < done; i++)
        {
            final long sentAt = c.takeOldest();
            if (clock.measured(sentAt))
            {
                histogram.recordValue(Math.min(HIGHEST_NANOS, Math.max(0, now - sentAt)));
                measured++;
                lastMeasuredReply = now;
                countSecond(now);
            }
        }
        replies += done;
        lastReplyOrStart = now;
        progress.lazySet(replies);
    }

    private void countSecond(final long now)
    {
        int second = (int)((now - clock.measureStart()) / 1_000_000_000L);
        if (!countMode)
        {
            final int last = (int)((clock.measureEnd() - clock.measureStart() - 1) / 1_000_000_000L);
            second = Math.min(second, last);
        }
        if (second >= perSecond.length)
        {
            perSecond = Arrays.copyOf(perSecond, Math.max(second + 1, perSecond.length * 2));
        }
        perSecond[second]++;
    }

    private boolean maySend(final LoadConnection c, final long time)
    {
        if (countMode)
        {
            return time < clock.measureStart() || c.measuredSent < c.quota;
        }
        return time < clock.measureEnd();
    }

    private void fill(final LoadConnection c, final long now) throws IOException
    {
        boolean any = false;
        while (c.inFlight() < pipeline && maySend(c, now))
        {
            send(c, now);
            any = true;
        }
        if (any)
        {
            c.flush();
        }
    }

    /**
     * Sends every open-loop request that is due and allowed.
     *
     * @return when the next request that could be sent is due, or {@code now + 100 ms} if none can be sent now.
     */
    private long sendDue(final long now) throws IOException
    {
        long nextDue = now + TimeUnit.MILLISECONDS.toNanos(MAX_SELECT_MILLIS);
        for (final LoadConnection c : connections)
        {
            boolean any = false;
            while (c.inFlight() < pipeline)
            {
                final long due = c.schedule.peek();
                if (!maySend(c, due))
                {
                    break;
                }
                if (due > now)
                {
                    nextDue = Math.min(nextDue, due);
                    break;
                }
                c.schedule.take();
                send(c, due);
                any = true;
            }
            if (any)
            {
                c.flush();
            }
        }
        return nextDue;
    }

    private void send(final LoadConnection c, final long time)
    {
        if (time >= clock.measureStart())
        {
            c.measuredSent++;
        }
        c.encodeNext(encoder, settings.workload(), settings.keys(), time);
    }

    private boolean finished(final long now)
    {
        for (final LoadConnection c : connections)
        {
            if (c.inFlight() > 0)
            {
                return false;
            }
            if (countMode ? c.measuredSent < c.quota : now < clock.measureEnd())
            {
                return false;
            }
        }
        return true;
    }

    private void checkStall(final long now) throws IOException
    {
        if (now - lastReplyOrStart > settings.stallNanos())
        {
            long inFlight = 0;
            for (final LoadConnection c : connections)
            {
                inFlight += c.inFlight();
            }
            if (inFlight > 0)
            {
                throw new IOException("no reply for " + TimeUnit.NANOSECONDS.toMillis(settings.stallNanos()) +
                    " ms with " + inFlight + " requests in flight");
            }
            lastReplyOrStart = now;
        }
    }

    private static void waitUntil(final long time)
    {
        long left;
        while ((left = time - System.nanoTime()) > 0)
        {
            LockSupport.parkNanos(left);
        }
    }
}
