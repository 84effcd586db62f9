package io.agni.store.crash;

import java.util.function.Consumer;

/**
 * Writes down the real-time order of a run of writer threads as lines, for {@link Timeline} to read back.
 * <p>
 * An operation takes its number from one counter shared by every thread and writes {@code start <thread> <n>} in
 * the same step, before it calls the store; once the store returned it writes {@code ack <n>}. A checkpoint or sync
 * writes {@code durable-start} before it begins and {@code durable-end} once it returned. Every line is written
 * under this object's lock, so the lines are in one order, and since a start line comes before its call and an ack
 * line after it, an {@code ack a} above a {@code start b} says that a returned before b began: a store whose log
 * orders a after b is wrong. (The numbers alone say nothing of the kind: two threads writing different keys at the
 * same time may reach the log in either order.)
 * <p>
 * Any thread may call every method.
 */
public final class Recorder
{
    private final Consumer<String> lines;
    /**
     * The last number given out; guarded by this, which is what makes the numbers follow the start lines.
     */
    private long counter;
    private long acks;

    /**
     * @param lines where the lines go, one call per line, under this recorder's lock (so never concurrently).
     */
    public Recorder(final Consumer<String> lines)
    {
        this.lines = lines;
    }

    /**
     * Numbers the calling thread's next operation, which it must start after this returns.
     *
     * @param thread the writer's index.
     * @return the operation's number, from 1.
     */
    public synchronized long start(final int thread)
    {
        final long n = ++counter;
        lines.accept("start " + thread + " " + n);
        return n;
    }

    /**
     * Says that operation {@code n} returned.
     *
     * @param n the operation's number.
     */
    public synchronized void ack(final long n)
    {
        lines.accept("ack " + n);
        acks++;
        notifyAll();
    }

    /**
     * Says that a checkpoint or sync is about to begin: when it returns, every operation acknowledged before this
     * line survives a crash and a power loss.
     */
    public synchronized void durableStart()
    {
        lines.accept("durable-start");
    }

    /**
     * Says that the checkpoint or sync begun by the last {@link #durableStart()} returned.
     */
    public synchronized void durableEnd()
    {
        lines.accept("durable-end");
    }

    /**
     * Waits until {@code count} operations were acknowledged, or until the deadline.
     *
     * @param count         the acknowledgements to wait for.
     * @param deadlineNanos a {@link System#nanoTime()} to give up at.
     * @return whether there were that many.
     * @throws InterruptedException if the thread is interrupted.
     */
    public synchronized boolean awaitAcks(final long count, final long deadlineNanos) throws InterruptedException
    {
        long left = deadlineNanos - System.nanoTime();
        while (acks < count && left > 0)
        {
            wait(Math.max(1, left / 1_000_000));
            left = deadlineNanos - System.nanoTime();
        }
        return acks >= count;
    }
}
