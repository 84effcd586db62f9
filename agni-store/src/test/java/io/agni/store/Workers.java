package io.agni.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs test threads that start together, and joins them with a timeout: a thread still running at the deadline or
 * a thread that threw fails the test. Threads are daemons, so a stuck one cannot keep the JVM alive.
 */
final class Workers
{
    /**
     * A test thread's body.
     */
    @FunctionalInterface
    interface Body
    {
        /**
         * Runs the work of one thread.
         *
         * @param index the thread's index, from 0.
         * @throws Exception anything, which fails the test.
         */
        void run(int index) throws Exception;
    }

    private final String name;
    private final List<Thread> threads = new ArrayList<>();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final CountDownLatch start = new CountDownLatch(1);
    private volatile boolean stopping;

    Workers(final String name)
    {
        this.name = name;
    }

    /**
     * Adds threads that run a body.
     *
     * @param count how many threads.
     * @param body  what each runs.
     * @return this.
     */
    Workers add(final int count, final Body body)
    {
        for (int i = 0; i < count; i++)
        {
            final int index = i;
            final Thread thread = new Thread(() ->
            {
                try
                {
                    start.await();
                    body.run(index);
                }
                catch (final Throwable t)
                {
                    failures.add(t);
                    stopping = true;
                }
            }, name + "-" + threads.size());
            thread.setDaemon(true);
            threads.add(thread);
        }
        return this;
    }

    /**
     * Whether the threads should go on: false once a thread failed or the deadline passed. Loops check it, so that
     * a failing test does not leave threads working on a store it is about to close.
     *
     * @return {@code true} while the threads should keep working.
     */
    boolean running()
    {
        return !stopping;
    }

    /**
     * Starts every thread at once.
     *
     * @return this.
     */
    Workers start()
    {
        threads.forEach(Thread::start);
        start.countDown();
        return this;
    }

    /**
     * Waits for every thread, then fails with the first failure of any thread (the others suppressed) or if a
     * thread is still running after the timeout (it is asked to stop, and given five more seconds to do so).
     *
     * @param timeout how long to wait in all.
     * @param unit    its unit.
     * @throws InterruptedException if the test thread is interrupted.
     */
    void join(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (final Thread thread : threads)
        {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        final List<String> late = new ArrayList<>();
        for (final Thread thread : threads)
        {
            if (thread.isAlive())
            {
                late.add(thread.getName());
                final Throwable where = new Throwable(thread.getName() + " still running at the deadline");
                where.setStackTrace(thread.getStackTrace());
                failures.add(where);
            }
        }
        stopping = true;
        for (final Thread thread : threads)
        {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        if (!failures.isEmpty())
        {
            final AssertionError error = new AssertionError(
                name + ": " + failures.size() + " thread failure(s)" +
                (late.isEmpty() ? "" : ", still running after " + timeout + " " + unit + ": " + late) +
                "; first: " + failures.peek(), failures.peek());
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }
}
