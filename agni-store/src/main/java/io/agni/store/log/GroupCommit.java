package io.agni.store.log;

import io.agni.api.StoreReadOnlyException;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The log's syncs, shared by every writer waiting for one (group commit, with no added delay): whoever finds no sync
 * running starts one for everything appended so far, and the writers that queued meanwhile find their records
 * synced when they get the lock. A failed sync is never retried: the log fails ({@link LogWriter}).
 */
final class GroupCommit
{
    /**
     * How long a writer waiting for a sync that another thread runs yields before it parks: a wake-up from a park
     * costs about as much as a short sync, and a writer that parks misses the next one.
     */
    private static final long SYNC_SPIN_NANOS = 2_000_000;

    /**
     * What a sync needs of the log.
     */
    interface Log
    {
        /**
         * Throws when the log has failed.
         */
        void throwIfFailed();

        /**
         * Under the log's append lock: writes staged records to the file and takes what the sync covers.
         *
         * @return everything appended so far.
         */
        SyncPoint prepare();

        /**
         * Fails the log.
         *
         * @param message what failed.
         * @param cause   why.
         * @return the failure to throw.
         */
        StoreReadOnlyException fail(String message, Throwable cause);

        /**
         * Closes a synced full segment's file.
         *
         * @param segment the segment.
         */
        void close(LogSegment segment);
    }

    /**
     * What one sync covers.
     *
     * @param sequence the sequence after the last record appended.
     * @param position the log position after it.
     * @param segment  the segment being written.
     * @param full     the full segments handed over since the last sync, oldest first.
     */
    record SyncPoint(long sequence, long position, LogSegment segment, LogSegment[] full)
    {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Log log;
    private volatile long synced;
    /**
     * Every record with a lower sequence is on the device; written under {@link #lock}.
     */
    private volatile long durableBelow;

    GroupCommit(final Log log, final long synced)
    {
        this.log = log;
        this.synced = synced;
    }

    /**
     * The sequence below which every record is on the device; the next append logs it
     * ({@link LogLayout#SYNCED}), so that replay knows what had reached the device.
     *
     * @return a sequence, 0 before the first sync.
     */
    long durableBelow()
    {
        return durableBelow;
    }

    /**
     * Returns once everything up to {@code position} is on the device.
     *
     * @param position a value an append returned.
     * @throws StoreReadOnlyException when the log failed before or during the sync.
     */
    void awaitDurable(final long position)
    {
        if (synced >= position)
        {
            return;
        }
        if (!lock.tryLock())
        {
            // A sync is running; the next one is likely to include this record. Yield until this one ends or the
            // lock is free, rather than park: the threads that park wake one at a time after the sync, each missing
            // the next, and every record then gets a sync of its own.
            final long deadline = System.nanoTime() + SYNC_SPIN_NANOS;
            while (true)
            {
                if (synced >= position)
                {
                    return;
                }
                if (lock.tryLock())
                {
                    break;
                }
                if (System.nanoTime() - deadline > 0)
                {
                    lock.lock();
                    break;
                }
                Thread.yield();
            }
        }
        try
        {
            if (synced >= position)
            {
                return;
            }
            log.throwIfFailed();
            // Everything appended so far, not just this caller's record.
            final SyncPoint point = log.prepare();
            syncAndClose(point.full());
            try
            {
                point.segment().file.sync();
            }
            catch (final IOException | RuntimeException ex)
            {
                throw log.fail("syncing " + point.segment().path + " failed", ex);
            }
            synced = point.position();
            if (point.sequence() > durableBelow)
            {
                durableBelow = point.sequence();
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Syncs and closes full segments, oldest first; if one fails, the log fails and the rest are closed unsynced.
     */
    private void syncAndClose(final LogSegment[] full)
    {
        int i = 0;
        try
        {
            for (; i < full.length; i++)
            {
                try
                {
                    full[i].file.sync();
                }
                catch (final IOException | RuntimeException ex)
                {
                    throw log.fail("syncing " + full[i].path + " failed", ex);
                }
                log.close(full[i]);
            }
        }
        finally
        {
            for (int j = i; j < full.length; j++)
            {
                log.close(full[j]);
            }
        }
    }
}
