package io.agni.store.log;

import io.agni.api.StoreReadOnlyException;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * One thread's way into the log: each change it makes under a shard's write lock is appended at once, or, between
 * {@link #beginBatch()} and {@link #endBatch()}, gathered into one {@link LogLayout#BATCH} record so that an
 * operation over several keys is recovered all or nothing. Remembers where its last record ended, so a
 * {@code PARANOID} store can wait for exactly that. Not thread-safe: one per thread and store.
 */
public final class ChangeRecorder
{
    /**
     * The most bytes of changes one batch record holds: what fits in one record of a log segment.
     */
    public static final long MAX_BATCH_BYTES =
        Integer.MAX_VALUE - LogLayout.SEGMENT_HEADER_LENGTH - LogLayout.RECORD_HEADER_LENGTH - 16;

    private static final int INITIAL_BATCH_BYTES = 1024;

    private final LogWriter log;
    private ExpandableArrayBuffer batch;
    private int batchLength;
    private int batchCount;
    private boolean batching;
    private long lastPosition;
    private long durablePosition;

    /**
     * A recorder appending to {@code log}.
     *
     * @param log the store's log.
     */
    public ChangeRecorder(final LogWriter log)
    {
        this.log = log;
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
        if (!batching)
        {
            lastPosition = log.appendSet(key, keyOffset, keyLength, value, valueOffset, valueLength, expireAtMillis);
            return;
        }
        final int p = reserve(1 + LogLayout.SET_FIXED_LENGTH + (long)keyLength + valueLength);
        batch.putByte(p, LogLayout.SET);
        batch.putInt(p + 1, keyLength, LogLayout.ORDER);
        batch.putInt(p + 1 + Integer.BYTES, valueLength, LogLayout.ORDER);
        batch.putLong(p + 1 + 2 * Integer.BYTES, expireAtMillis, LogLayout.ORDER);
        final int k = p + 1 + LogLayout.SET_FIXED_LENGTH;
        batch.putBytes(k, key, keyOffset, keyLength);
        batch.putBytes(k + keyLength, value, valueOffset, valueLength);
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
        if (!batching)
        {
            lastPosition = log.appendDelete(key, keyOffset, keyLength);
            return;
        }
        final int p = reserve(1 + LogLayout.DELETE_FIXED_LENGTH + (long)keyLength);
        batch.putByte(p, LogLayout.DELETE);
        batch.putInt(p + 1, keyLength, LogLayout.ORDER);
        batch.putBytes(p + 1 + LogLayout.DELETE_FIXED_LENGTH, key, keyOffset, keyLength);
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
        if (!batching)
        {
            lastPosition = log.appendExpire(key, keyOffset, keyLength, expireAtMillis);
            return;
        }
        final int p = reserve(1 + LogLayout.EXPIRE_FIXED_LENGTH + (long)keyLength);
        batch.putByte(p, LogLayout.EXPIRE);
        batch.putInt(p + 1, keyLength, LogLayout.ORDER);
        batch.putLong(p + 1 + Integer.BYTES, expireAtMillis, LogLayout.ORDER);
        batch.putBytes(p + 1 + LogLayout.EXPIRE_FIXED_LENGTH, key, keyOffset, keyLength);
    }

    /**
     * Records that every entry was removed.
     */
    public void clear()
    {
        if (batching)
        {
            throw new IllegalStateException("a clear cannot be part of a batch");
        }
        lastPosition = log.appendClear();
    }

    /**
     * Starts gathering changes into one record.
     */
    public void beginBatch()
    {
        if (batching)
        {
            throw new IllegalStateException("a batch is already open");
        }
        batching = true;
        batchLength = LogLayout.BATCH_FIXED_LENGTH;
        batchCount = 0;
    }

    /**
     * Appends the gathered changes as one record (nothing when there were none) and stops gathering; does nothing
     * when no batch is open (an operation that failed before it began one ends it all the same).
     */
    public void endBatch()
    {
        if (!batching)
        {
            return;
        }
        batching = false;
        final int count = batchCount;
        batchCount = 0;
        if (count > 0)
        {
            batch.putInt(0, count, LogLayout.ORDER);
            lastPosition = log.appendBatch(batch, 0, batchLength);
        }
    }

    /**
     * Returns once every record this thread appended is on the device; does nothing when there is none since the
     * last call.
     *
     * @throws StoreReadOnlyException when the log failed.
     */
    public void awaitDurable()
    {
        final long position = lastPosition;
        if (position > durablePosition)
        {
            // Moved first: a failed sync is reported to the write that waited for it, not to every later call.
            durablePosition = position;
            log.awaitDurable(position);
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
        final long end = batchLength + length;
        if (end > MAX_BATCH_BYTES)
        {
            throw new IllegalArgumentException("a batch holds less than 2 GiB of changes: " + end);
        }
        batch.checkLimit((int)end);
        final int p = batchLength;
        batchLength = (int)end;
        batchCount++;
        return p;
    }
}
