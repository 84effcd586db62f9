package io.agni.bench.net.load;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one measurement against one server: opens the connections, hands them round-robin to
 * {@link LoadWorker} threads, waits for them while reporting progress, and merges what they measured.
 *
 * <h2>Threads</h2>
 * {@link #execute} runs on the caller's thread and returns once every worker has ended; the connections are closed
 * whatever happens.
 */
public final class LoadRun
{
    private static final long START_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long PROGRESS_MILLIS = 250;
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    /**
     * Told about a run's progress, on the thread that called {@link #execute}.
     */
    @FunctionalInterface
    public interface ProgressListener
    {
        /**
         * @param clock   the run's phases.
         * @param now     {@link System#nanoTime()}.
         * @param replies replies counted so far, warm-up included.
         */
        void onProgress(RunClock clock, long now, long replies);
    }

    /**
     * Told when the measured window opens and closes, on the thread that called {@link #execute}, within about a
     * millisecond of each edge (in a run of a request count, the window closes when the last reply is in): where the
     * harness reads the CPU time that the window cost.
     */
    public interface WindowListener
    {
        /**
         * The measured window has opened: the warm-up is over.
         */
        void onWindowStart();

        /**
         * The measured window has closed.
         */
        void onWindowEnd();
    }

    private LoadRun()
    {
    }

    /**
     * Runs the load and measures it.
     *
     * @param settings what to run.
     * @param listener told about progress every 250 ms, or null.
     * @return what was measured.
     * @throws IOException          if a connection fails, the server closes one, sends something that is not RESP or
     *                              stops answering.
     * @throws InterruptedException if the calling thread is interrupted; the workers are stopped first.
     */
    public static RunMeasurement execute(final RunSettings settings, final ProgressListener listener)
        throws IOException, InterruptedException
    {
        return execute(settings, listener, null);
    }

    /**
     * Runs the load and measures it, telling a listener when the measured window opens and closes.
     *
     * @param settings what to run.
     * @param listener told about progress every 250 ms, or null.
     * @param window   told at the edges of the measured window, or null.
     * @return what was measured.
     * @throws IOException          as {@link #execute(RunSettings, ProgressListener)}.
     * @throws InterruptedException if the calling thread is interrupted; the workers are stopped first.
     */
    public static RunMeasurement execute(
        final RunSettings settings,
        final ProgressListener listener,
        final WindowListener window) throws IOException, InterruptedException
    {
        final RequestEncoder encoder = new RequestEncoder(settings.valueSize());
        final List<SocketChannel> channels = new ArrayList<>();
        try
        {
            for (int i = 0; i < settings.connections(); i++)
            {
                channels.add(connect(settings));
            }
            return run(settings, encoder, channels, listener, window);
        }
        finally
        {
            for (final SocketChannel channel : channels)
            {
                try
                {
                    channel.close();
                }
                catch (final IOException ignore)
                {
                    // Closing a connection that failed: nothing more to learn from it.
                }
            }
        }
    }

    private static RunMeasurement run(
        final RunSettings settings,
        final RequestEncoder encoder,
        final List<SocketChannel> channels,
        final ProgressListener listener,
        final WindowListener window) throws IOException, InterruptedException
    {
        final int connections = channels.size();
        final long start = System.nanoTime() + START_DELAY_NANOS;
        final long measureStart = start + settings.warmupNanos();
        final RunClock clock = new RunClock(start, measureStart,
            settings.requests() > 0 ? Long.MAX_VALUE : measureStart + settings.durationNanos());

        final int threads = settings.effectiveThreads();
        final List<List<LoadConnection>> shares = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            shares.add(new ArrayList<>());
        }
        for (int i = 0; i < connections; i++)
        {
            final OpenLoopSchedule schedule = settings.openLoop() ?
                new OpenLoopSchedule(start, settings.rate(), connections, i) : null;
            final long quota = settings.requests() > 0 ?
                settings.requests() / connections + (i < settings.requests() % connections ? 1 : 0) : Long.MAX_VALUE;
            shares.get(i % threads).add(new LoadConnection(channels.get(i), settings.pipeline(),
                encoder.maxRequestLength(), settings.seed() * 1_000_003L + i, schedule, quota));
        }

        final AtomicBoolean abort = new AtomicBoolean();
        final List<LoadWorker> workers = new ArrayList<>();
        final List<Thread> threadList = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final LoadWorker worker = new LoadWorker(shares.get(t).toArray(new LoadConnection[0]), settings, encoder,
                clock, abort);
            workers.add(worker);
            final Thread thread = new Thread(worker, "agni-loadgen-" + t);
            thread.setDaemon(true);
            threadList.add(thread);
        }
        threadList.forEach(Thread::start);
        final WindowEdges edges = new WindowEdges(clock, window);
        try
        {
            for (final Thread thread : threadList)
            {
                while (thread.isAlive())
                {
                    thread.join(edges.waitMillis(System.nanoTime()));
                    final long now = System.nanoTime();
                    edges.poll(now);
                    if (listener != null)
                    {
                        listener.onProgress(clock, now, workers.stream().mapToLong(LoadWorker::progress).sum());
                    }
                }
            }
            edges.finish();
        }
        catch (final InterruptedException ex)
        {
            abort.set(true);
            for (final Thread thread : threadList)
            {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            }
            throw ex;
        }
        for (final LoadWorker worker : workers)
        {
            if (worker.failure() != null)
            {
                throw new IOException(worker.failure().getMessage(), worker.failure());
            }
        }
        return merge(settings, clock, workers);
    }

    /**
     * Calls a {@link WindowListener} once at each edge of the measured window, from the thread that waits for the
     * workers, and says how long that thread may wait before the next edge or progress report is due.
     */
    static final class WindowEdges
    {
        private final RunClock clock;
        private final WindowListener listener;
        private boolean started;
        private boolean ended;

        WindowEdges(final RunClock clock, final WindowListener listener)
        {
            this.clock = clock;
            this.listener = listener;
        }

        long waitMillis(final long now)
        {
            long wait = PROGRESS_MILLIS;
            if (listener != null && !ended)
            {
                final long edge = started ? clock.measureEnd() : clock.measureStart();
                if (edge != Long.MAX_VALUE)
                {
                    wait = Math.min(wait, Math.max(1, TimeUnit.NANOSECONDS.toMillis(edge - now) + 1));
                }
            }
            return wait;
        }

        void poll(final long now)
        {
            if (listener == null)
            {
                return;
            }
            if (!started && now - clock.measureStart() >= 0)
            {
                started = true;
                listener.onWindowStart();
            }
            if (started && !ended && clock.measureEnd() != Long.MAX_VALUE && now - clock.measureEnd() >= 0)
            {
                ended = true;
                listener.onWindowEnd();
            }
        }

        void finish()
        {
            if (listener == null)
            {
                return;
            }
            if (!started)
            {
                started = true;
                listener.onWindowStart();
            }
            if (!ended)
            {
                ended = true;
                listener.onWindowEnd();
            }
        }
    }

    private static RunMeasurement merge(final RunSettings settings, final RunClock clock, final List<LoadWorker> workers)
    {
        final Histogram histogram = new Histogram(LoadWorker.HIGHEST_NANOS, 3);
        long measured = 0;
        long errors = 0;
        long nulls = 0;
        long lastReply = clock.measureStart();
        String firstError = null;
        int seconds = 0;
        for (final LoadWorker worker : workers)
        {
            histogram.add(worker.histogram());
            measured += worker.measured();
            errors += worker.errors();
            nulls += worker.nulls();
            lastReply = Math.max(lastReply, worker.lastMeasuredReply());
            firstError = firstError != null ? firstError : worker.firstError();
            seconds = Math.max(seconds, lastNonZero(worker.perSecond()) + 1);
        }
        final long window = settings.requests() > 0 ? lastReply - clock.measureStart() : settings.durationNanos();
        if (settings.requests() == 0)
        {
            seconds = (int)((settings.durationNanos() + 999_999_999L) / 1_000_000_000L);
        }
        final long[] perSecond = new long[seconds];
        long late = 0;
        for (final LoadWorker worker : workers)
        {
            final long[] own = worker.perSecond();
            for (int i = 0; i < Math.min(own.length, seconds); i++)
            {
                perSecond[i] += own[i];
            }
            late += worker.late(clock.measureEnd());
        }
        final double throughput = window > 0 ? measured * 1e9 / window : 0;
        return new RunMeasurement(measured, errors, nulls, firstError, window, throughput, Latency.of(histogram),
            perSecond, late);
    }

    private static int lastNonZero(final long[] values)
    {
        for (int i = values.length - 1; i >= 0; i--)
        {
            if (values[i] != 0)
            {
                return i;
            }
        }
        return -1;
    }

    private static SocketChannel connect(final RunSettings settings) throws IOException
    {
        final SocketChannel channel = SocketChannel.open();
        try
        {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.socket().connect(settings.address(), CONNECT_TIMEOUT_MILLIS);
            channel.configureBlocking(false);
            return channel;
        }
        catch (final IOException ex)
        {
            channel.close();
            throw new IOException("cannot connect to " + settings.address() + ": " + ex.getMessage(), ex);
        }
    }
}
