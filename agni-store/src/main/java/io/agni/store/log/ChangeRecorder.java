package io.agni.store.log;

import io.agni.api.StoreReadOnlyException;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * One thread's way into the log: each change it makes under a shard's write lock is appended at once, or, between
 * {@link #beginBatch()} and {@link #endBatch()}, gathered into one {@link LogLayout#BATCH} record so that an
 * operation over several keys is recovered all or nothing. Remembers where its last record ended, so a
 * {@code PARANOID} store can wait for exactly that. Not thread-safe: one per thread and store.
 *
 * <h2>Held batches</h2>
 * An exclusive section (a transaction) holds a batch open from {@link #beginHeldBatch()} to {@link #endHeldBatch()}:
 * the multi-key operations it runs join that batch (their own {@code beginBatch}/{@code endBatch} do nothing), a
 * clear is one of its operations, and so everything the section changed is one record. The one exception is size: a
 * change that would take a held batch past {@link #MAX_BATCH_BYTES} (2 GiB) is made after the batch so far has been appended
 * as a record of its own (the change is already in memory, so refusing to log it is not an option), and a crash
 * between the two records recovers the first part only.
 */
public final class ChangeRecorder
{
    /**
     * The most bytes of changes one batch record holds: what fits in one record of a log segment.
     */
    public static final long MAX_BATCH_BYTES =
        Integer.MAX_VALUE - LogLayout.SEGMENT_HEADER_LENGTH - LogLayout.RECORD_HEADER_LENGTH - 16;

    private static final int INITIAL_BATCH_BYTES = 1024;

    /**
     * A batch buffer larger than this is dropped once its batch is appended, so that one large transaction does not
     * pin its heap for the life of the thread.
     */
    static final int RETAINED_BATCH_BYTES = 1 << 20;

    private final LogWriter log;
    private final long maxBatchBytes;
    private ExpandableArrayBuffer batch;
    private int batchLength;
    private int batchCount;
    private boolean batching;
    private boolean held;
    /**
     * Set while a multi-key write applies changes its batch record already holds ({@link #mute}).
     */
    private boolean muted;
    private long lastPosition;
    /**
     * Every record this thread appended below it is on the device: moved only once a sync covering them returned.
     */
    private long durablePosition;
    /**
     * The records below it were waited for by an operation ({@link #awaitOwnRecords()}), whether the sync succeeded
     * or not.
     */
    private long reportedPosition;

    /**
     * A recorder appending to {@code log}.
     *
     * @param log the store's log.
     */
    public ChangeRecorder(final LogWriter log)
    {
        this(log, MAX_BATCH_BYTES);
    }

    /**
     * A recorder whose batch records hold at most {@code maxBatchBytes}: for tests of a held batch that passes it.
     *
     * @param log           the store's log.
     * @param maxBatchBytes the most bytes of changes one batch record holds, at most {@link #MAX_BATCH_BYTES}.
     */
    public ChangeRecorder(final LogWriter log, final long maxBatchBytes)
    {
        if (maxBatchBytes < LogLayout.BATCH_FIXED_LENGTH || maxBatchBytes > MAX_BATCH_BYTES)
        {
            throw new IllegalArgumentException("maxBatchBytes out of range: " + maxBatchBytes);
        }
        this.log = log;
        this.maxBatchBytes = maxBatchBytes;
    }

    /**
     * Records the value a key now has.
     *
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param value          the value's bytes.
     * @param valueOffset    where they start.
     * @param valueLength    how many.
     * @param expireAtMillis the absolute expiry time, {@link LogLayout#NO_EXPIRY} for none.
     */
    public void set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength, final long expireAtMillis)
    {
        set(key, keyOffset, keyLength, value, valueOffset, valueLength, 0, value, 0, 0, value, 0, 0, expireAtMillis);
    }

    /**
     * Records the value a key is about to have, in three parts (SETRANGE in place: the old prefix, the new bytes,
     * the old rest), with {@code gap} zero bytes after the first.
     *
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param value1         the value's first part.
     * @param offset1        where it starts.
     * @param length1        its length.
     * @param gap            zero bytes after it.
     * @param value2         the value's second part.
     * @param offset2        where it starts.
     * @param length2        its length.
     * @param value3         the value's last part.
     * @param offset3        where it starts.
     * @param length3        its length.
     * @param expireAtMillis the absolute expiry time, {@link LogLayout#NO_EXPIRY} for none.
     */
    public void set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value1, final int offset1, final int length1, final int gap,
        final DirectBuffer value2, final int offset2, final int length2,
        final DirectBuffer value3, final int offset3, final int length3, final long expireAtMillis)
    {
        if (muted)
        {
            return;
        }
        if (!batching)
        {
            lastPosition = log.appendSet(key, keyOffset, keyLength, value1, offset1, length1, gap, value2, offset2,
                length2, value3, offset3, length3, expireAtMillis);
            return;
        }
        final int p = reserve(1 + RecordPayloads.setLength(keyLength, (long)length1 + gap + length2 + length3));
        batch.putByte(p, LogLayout.SET);
        RecordPayloads.putSet(batch, p + 1, key, keyOffset, keyLength, value1, offset1, length1, gap, value2, offset2,
            length2, value3, offset3, length3, expireAtMillis);
    }

    /**
     * Records that a key is gone.
     *
     * @param key       the key's bytes.
     * @param keyOffset where they start.
     * @param keyLength how many.
     */
    public void delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        if (muted)
        {
            return;
        }
        if (!batching)
        {
            lastPosition = log.appendDelete(key, keyOffset, keyLength);
            return;
        }
        final int p = reserve(1 + LogLayout.DELETE_FIXED_LENGTH + (long)keyLength);
        batch.putByte(p, LogLayout.DELETE);
        RecordPayloads.putDelete(batch, p + 1, key, keyOffset, keyLength);
    }

    /**
     * Records a key's new expiry time.
     *
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param expireAtMillis the absolute expiry time, {@link LogLayout#NO_EXPIRY} to remove it.
     */
    public void expire(final DirectBuffer key, final int keyOffset, final int keyLength, final long expireAtMillis)
    {
        if (muted)
        {
            return;
        }
        if (!batching)
        {
            lastPosition = log.appendExpire(key, keyOffset, keyLength, expireAtMillis);
            return;
        }
        final int p = reserve(1 + LogLayout.EXPIRE_FIXED_LENGTH + (long)keyLength);
        batch.putByte(p, LogLayout.EXPIRE);
        RecordPayloads.putExpire(batch, p + 1, key, keyOffset, keyLength, expireAtMillis);
    }

    /**
     * Records that every entry was removed: a record of its own, or an operation of a held batch.
     *
     * @throws IllegalStateException in a batch that is not held (an operation over some keys cannot clear them all).
     */
    public void clear()
    {
        if (!batching)
        {
            lastPosition = log.appendClear();
            return;
        }
        if (!held)
        {
            throw new IllegalStateException("a clear cannot be part of a batch");
        }
        final int p = reserve(1);
        batch.putByte(p, LogLayout.CLEAR);
    }

    /**
     * Whether changes are being gathered into a batch record, appended only when the batch ends.
     *
     * @return {@code true} between {@link #beginBatch()} and {@link #endBatch()}, or within a held batch.
     */
    public boolean batching()
    {
        return batching;
    }

    /**
     * Makes the changes recorded from now on until {@link #unmute()} nothing: for a multi-key write that appended its
     * batch record, with each key's state afterwards, before it applies the changes, so that a record the log
     * refuses leaves memory as it was.
     */
    public void mute()
    {
        muted = true;
    }

    /**
     * Ends {@link #mute()}.
     */
    public void unmute()
    {
        muted = false;
    }

    /**
     * Starts gathering changes into one record; within a held batch, does nothing (the operation joins it).
     *
     * @throws IllegalStateException if a batch that is not held is open.
     */
    public void beginBatch()
    {
        if (batching)
        {
            if (held)
            {
                return;
            }
            throw new IllegalStateException("a batch is already open");
        }
        open();
    }

    /**
     * Appends the gathered changes as one record (nothing when there were none) and stops gathering; does nothing
     * when no batch is open (an operation that failed before it began one ends it all the same), nor within a held
     * batch.
     *
     * @throws StoreReadOnlyException if the log failed (the record is not appended).
     */
    public void endBatch()
    {
        if (!batching || held)
        {
            return;
        }
        close();
    }

    /**
     * Starts the batch of an exclusive section: every change until {@link #endHeldBatch()} joins it, those of
     * multi-key operations and clears included.
     *
     * @throws IllegalStateException if a batch is open.
     */
    public void beginHeldBatch()
    {
        if (batching)
        {
            throw new IllegalStateException("a batch is already open");
        }
        open();
        held = true;
    }

    /**
     * Appends the batch of an exclusive section as one record (nothing when nothing changed) and stops gathering.
     *
     * @throws StoreReadOnlyException if the log failed (the record is not appended).
     */
    public void endHeldBatch()
    {
        if (!held)
        {
            return;
        }
        held = false;
        close();
    }

    private void open()
    {
        batching = true;
        batchLength = LogLayout.BATCH_FIXED_LENGTH;
        batchCount = 0;
    }

    private void close()
    {
        batching = false;
        final int count = batchCount;
        batchCount = 0;
        try
        {
            if (count > 0)
            {
                appendBatch(count);
            }
        }
        finally
        {
            if (batch != null && batch.capacity() > RETAINED_BATCH_BYTES)
            {
                batch = null;
            }
        }
    }

    private void appendBatch(final int count)
    {
        batch.putInt(0, count, LogLayout.ORDER);
        lastPosition = log.appendBatch(batch, 0, batchLength);
    }

    /**
     * Returns once every record this thread appended is on the device; does nothing when every one of them was
     * covered by a sync that succeeded. After a failed sync it throws at every call, since the records it did not
     * cover may be lost ({@code DeferredDurability.awaitDurable}).
     *
     * @throws StoreReadOnlyException when the log failed before those records were synced.
     */
    public void awaitDurable()
    {
        final long position = lastPosition;
        if (position > durablePosition)
        {
            reportedPosition = Math.max(reportedPosition, position);
            log.awaitDurable(position);
            durablePosition = position;
        }
    }

    /**
     * Returns once the records this thread appended since the last call are on the device: the wait at the end of
     * an operation of a {@code PARANOID} store. A failed sync is reported once, to the operation whose records it
     * did not cover, not to every later one (a read of a store whose log failed still succeeds);
     * {@link #awaitDurable()} keeps reporting it.
     *
     * @throws StoreReadOnlyException when the log failed before the records were synced.
     */
    public void awaitOwnRecords()
    {
        final long position = lastPosition;
        if (position > reportedPosition)
        {
            // Moved first: the failure is this operation's, and the next one has records of its own or none.
            reportedPosition = position;
            log.awaitDurable(position);
            durablePosition = Math.max(durablePosition, position);
        }
    }

    /**
     * Throws, before a write changes anything, when the log has failed: the store is read-only until reopened.
     *
     * @throws StoreReadOnlyException when the log has failed.
     */
    public void checkWritable()
    {
        log.throwIfFailed();
    }

    /**
     * Whether the log has failed.
     *
     * @return whether writes are refused.
     */
    public boolean failed()
    {
        return log.failure() != null;
    }

    /**
     * The log this recorder appends to.
     *
     * @return the store's log.
     */
    public LogWriter log()
    {
        return log;
    }

    private int reserve(final long length)
    {
        if (batch == null)
        {
            batch = new ExpandableArrayBuffer(INITIAL_BATCH_BYTES);
        }
        long end = batchLength + length;
        if (end > maxBatchBytes && held && batchCount > 0)
        {
            // The change is in memory already: log what came before it as a record of its own (class comment).
            appendBatch(batchCount);
            batchLength = LogLayout.BATCH_FIXED_LENGTH;
            batchCount = 0;
            end = batchLength + length;
        }
        if (end > maxBatchBytes)
        {
            throw new IllegalArgumentException(
                "a batch record holds at most " + maxBatchBytes + " bytes of changes: " + end);
        }
        batch.checkLimit((int)end);
        final int p = batchLength;
        batchLength = (int)end;
        batchCount++;
        return p;
    }
}
