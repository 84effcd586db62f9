package io.agni.store;

import io.agni.store.log.ChangeRecorder;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;

/**
 * A transaction's exclusive section ({@code runExclusive}, docs/architecture.md "Exclusive sections"): the calling
 * thread takes every shard's write lock, in ascending order as every multi-key write does, runs its body, and
 * releases them in reverse. The body calls the store's ordinary operations; each shard knows the thread that holds
 * it ({@code ShardReads}, "Exclusive sections") and lets that thread through without taking its lock again. The
 * thread's log recorder holds one batch open for the whole section, which the multi-key operations join, so
 * everything the body changed is one log record, appended before the locks are released (a reader that sees the
 * section's effects sees logged ones, as for every write).
 *
 * <h2>Order of events</h2>
 * <ol>
 *   <li>Enter the store's gate (close waits for the section; it is the thread's outermost operation unless
 *   nested).</li>
 *   <li>Lock every shard, ascending; begin the held batch.</li>
 *   <li>Run the body.</li>
 *   <li>End the held batch (one record), then unlock every shard, descending, whatever happened before.</li>
 *   <li>Exit the gate: a {@code PARANOID} store waits for the record's sync here, after the other threads may go
 *   on, unless the thread defers it.</li>
 * </ol>
 * Other threads' operations wait on the locks meanwhile: writers and readers of every shard, the expiry sweep, a
 * checkpoint's snapshot. A nested call finds the first shard held by its own thread and just runs its body.
 *
 * <h2>Concurrency</h2>
 * Stateless: the stamps are kept by the shards themselves, so a section allocates nothing.
 */
final class ExclusiveSection
{
    private final Shard[] shards;
    private final OperationGate gate;

    ExclusiveSection(final Shards shards)
    {
        this.shards = shards.all;
        this.gate = shards.gate;
    }

    /**
     * Runs {@code body} with every shard held by the calling thread.
     *
     * @param body what to run.
     */
    void run(final Runnable body)
    {
        if (heldByCurrentThread())
        {
            body.run();
            return;
        }
        final ThreadContext c = gate.enter();
        try
        {
            final ChangeRecorder changes = c.changes;
            int locked = 0;
            try
            {
                for (; locked < shards.length; locked++)
                {
                    shards[locked].lockExclusive(changes);
                }
                if (changes != null)
                {
                    changes.beginHeldBatch();
                }
                try
                {
                    body.run();
                }
                finally
                {
                    if (changes != null)
                    {
                        changes.endHeldBatch();
                    }
                }
            }
            finally
            {
                for (int i = locked - 1; i >= 0; i--)
                {
                    shards[i].unlockExclusive();
                }
            }
        }
        finally
        {
            gate.exit(c);
        }
    }

    /**
     * Refuses what must not run inside a section on its own thread: a checkpoint (its snapshot would hold changes
     * not logged yet) and close (it would wait for the section).
     *
     * @param what  what is refused.
     * @param store the store's name.
     * @throws IllegalStateException if the calling thread is inside a section.
     */
    void refuseInside(final String what, final String store)
    {
        if (heldByCurrentThread())
        {
            throw new IllegalStateException("cannot " + what + " " + store + " inside its exclusive section");
        }
    }

    /**
     * Whether the calling thread is inside a section of this store.
     *
     * @return whether it holds the shards.
     */
    boolean heldByCurrentThread()
    {
        return shards[0].heldExclusivelyByCurrentThread();
    }
}
