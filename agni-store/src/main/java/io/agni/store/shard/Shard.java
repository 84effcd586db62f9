package io.agni.store.shard;

import io.agni.api.AgniStore;
import io.agni.api.CapacityExceededException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.index.IndexLayout;
import io.agni.store.log.ChangeRecorder;
import io.agni.store.memory.OffHeapMemory;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * One shard: its index table and arena ({@link ShardTable}), the writing of entries ({@link ShardStorage}) and its
 * lock and reads ({@link ShardReads}), with the writes and the whole-shard operations here. Implements the
 * per-operation storage and locking protocol of docs/architecture.md ("Operations").
 *
 * <h2>Concurrency</h2>
 * Every write takes the write lock for the whole operation; reads are optimistic first ({@link ShardReads}).
 *
 * <h2>Expiry</h2>
 * Expired entries are invisible: reads treat them as absent; a write or a read that meets one removes it
 * (counted in {@link #expiredCount()}); {@link #sweep} removes them in bounded steps.
 */
public final class Shard extends ShardReads
{
    /**
     * An empty shard.
     *
     * @param memory where its memory comes from.
     * @param clock  the store's clock.
     * @param seed   the store's hash seed.
     * @throws CapacityExceededException if the budget cannot hold the initial index.
     */
    public Shard(final OffHeapMemory memory, final EpochClock clock, final long seed)
    {
        super(memory, clock, seed);
    }

    /**
     * Gives the shard the store's other shards, which evict for it when the budget refuses a write it cannot make
     * room for itself. Once, before the store is used.
     *
     * @param all every shard of the store, this one included.
     */
    public void peers(final Shard[] all)
    {
        compactor.peers = all;
    }

    /**
     * Marks the shard as being rebuilt from the store's directory, or done with it: while it is, eviction removes no
     * entry as expired (a later record may extend its time), only as evicted. Before the store is used.
     *
     * @param recovering whether recovery is running.
     */
    public void recovering(final boolean recovering)
    {
        this.recovering = recovering;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Writes (each takes the write lock)
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Sets, conditionally, with an expiry mode; optionally copies the previous value out (getAndSet).
     *
     * @return for a plain set: 1 if written, 0 if not; with {@code previous}: the previous length or NOT_FOUND.
     */
    public int set(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expireAt,
        final boolean returnPrevious, final MutableDirectBuffer previous, final int previousOffset,
        final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite(c.changes);
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            int result = 1;
            if (returnPrevious)
            {
                result = copyPrevious(i, previous, previousOffset, c);
            }
            final boolean present = i >= 0;
            if (condition == SetCondition.IF_ABSENT && present || condition == SetCondition.IF_PRESENT && !present)
            {
                return returnPrevious ? result : 0;
            }
            final boolean hasExpiry;
            final long at;
            switch (expiryMode)
            {
                case KEEP:
                    hasExpiry = present && e.hasExpiry();
                    at = hasExpiry ? e.expireAt : 0;
                    break;
                case AT:
                    hasExpiry = true;
                    at = expireAt;
                    break;
                default:
                    hasExpiry = false;
                    at = 0;
                    break;
            }
            if (hasExpiry && at <= clock.time())
            {
                if (present)
                {
                    removeAt(i, e);
                }
                return result;
            }
            put(tag, i, e, key, keyOffset, keyLength, value, valueOffset, valueLength, null, 0, 0, hasExpiry, at);
            return result;
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Removes a key, optionally copying its value out first (getAndDelete).
     *
     * @return without {@code copy}: 1 if removed, 0 if absent; with it: the value's length or NOT_FOUND.
     */
    public int delete(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final boolean copy, final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite(c.changes);
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            if (i < 0)
            {
                return copy ? AgniStore.NOT_FOUND : 0;
            }
            final int result = copy ? copyPrevious(i, dst, dstOffset, c) : 1;
            removeAt(i, e);
            return result;
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Reads a value and changes its expiry (getAndExpire).
     *
     * @return the value's length or NOT_FOUND.
     */
    public int getAndExpire(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final ExpiryMode expiryMode, final long expireAt,
        final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        if (expiryMode == ExpiryMode.KEEP)
        {
            return get(hash, key, keyOffset, keyLength, dst, dstOffset, c);
        }
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite(c.changes);
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            if (i < 0)
            {
                return AgniStore.NOT_FOUND;
            }
            final int result = copyPrevious(i, dst, dstOffset, c);
            if (expiryMode == ExpiryMode.CLEAR)
            {
                if (e.hasExpiry())
                {
                    rewrite(tag, i, e, false, 0);
                }
            }
            else if (expireAt <= clock.time())
            {
                removeAt(i, e);
            }
            else if (e.hasExpiry())
            {
                EntryLayout.putExpireAt(e.buffer, e.offset, expireAt);
                logExpiry(e, expireAt);
            }
            else
            {
                rewrite(tag, i, e, true, expireAt);
            }
            return result;
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Changes a key's expiry time under a condition (expire); a time not after now removes the key.
     *
     * @return whether the key existed and the condition held.
     */
    public boolean expire(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final long expireAt, final ExpireCondition condition, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite(c.changes);
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            if (i < 0)
            {
                return false;
            }
            final boolean has = e.hasExpiry();
            final boolean allowed;
            switch (condition)
            {
                case IF_NO_EXPIRY:
                    allowed = !has;
                    break;
                case IF_HAS_EXPIRY:
                    allowed = has;
                    break;
                case IF_LATER:
                    allowed = has && expireAt > e.expireAt;
                    break;
                case IF_EARLIER:
                    allowed = !has || expireAt < e.expireAt;
                    break;
                case IF_HAS_EXPIRY_AND_EARLIER:
                    allowed = has && expireAt < e.expireAt;
                    break;
                default:
                    allowed = true;
                    break;
            }
            if (!allowed)
            {
                return false;
            }
            if (expireAt <= clock.time())
            {
                removeAt(i, e);
            }
            else if (has)
            {
                EntryLayout.putExpireAt(e.buffer, e.offset, expireAt);
                logExpiry(e, expireAt);
            }
            else
            {
                rewrite(tag, i, e, true, expireAt);
            }
            return true;
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Removes a key's expiry time (persist).
     *
     * @return whether the key existed with an expiry time.
     */
    public boolean persist(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite(c.changes);
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            if (i < 0 || !e.hasExpiry())
            {
                return false;
            }
            rewrite(tag, i, e, false, 0);
            return true;
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Adds {@code delta} to a decimal integer value (incrementBy); keeps the expiry time.
     *
     * @return the new value.
     */
    public long incrementBy(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final long delta,
        final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite(c.changes);
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            long current = 0;
            if (i >= 0)
            {
                current = DecimalLong.parse(e.buffer, e.valueOffset, e.valueLength);
            }
            final long next = DecimalLong.add(current, delta);
            final UnsafeBuffer digits = c.digits;
            final int length = DecimalLong.format(next, digits);
            final boolean hasExpiry = i >= 0 && e.hasExpiry();
            put(tag, i, e, key, keyOffset, keyLength, digits, 0, length, null, 0, 0, hasExpiry,
                hasExpiry ? e.expireAt : 0);
            return next;
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Appends bytes to a value (append); keeps the expiry time.
     *
     * @return the new length.
     */
    public long append(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength, final int maxValueLength,
        final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite(c.changes);
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            final int oldLength = i >= 0 ? e.valueLength : 0;
            final long newLength = (long)oldLength + valueLength;
            Limits.checkEntry(keyLength, newLength, maxValueLength);
            if (i >= 0 && valueLength == 0)
            {
                return oldLength;
            }
            final boolean hasExpiry = i >= 0 && e.hasExpiry();
            if (i >= 0)
            {
                put(tag, i, e, key, keyOffset, keyLength, e.buffer, e.valueOffset, oldLength,
                    value, valueOffset, valueLength, hasExpiry, e.expireAt);
            }
            else
            {
                put(tag, i, e, key, keyOffset, keyLength, value, valueOffset, valueLength, null, 0, 0, false, 0);
            }
            return newLength;
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Overwrites a value from {@code offset} on with non-empty bytes, zero-padding a shorter or absent value
     * (setRange); keeps the expiry time. The caller has checked {@code offset + valueLength} against the value limit.
     * A write that ends within the value is done in place; a longer value is written as a new entry of the old
     * prefix, the zero gap and the new bytes.
     *
     * @return the new length.
     */
    public long setRange(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final int offset,
        final DirectBuffer value, final int valueOffset, final int valueLength, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite(c.changes);
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            final int oldLength = i >= 0 ? e.valueLength : 0;
            final int end = offset + valueLength;
            if (i >= 0 && end <= oldLength)
            {
                if (changes != null)
                {
                    // Logged first, from the old prefix, the new bytes and the old rest: a record the log refuses
                    // leaves the value as it was.
                    changes.set(e.buffer, e.keyOffset, e.keyLength, e.buffer, e.valueOffset, offset, 0,
                        value, valueOffset, valueLength, e.buffer, e.valueOffset + end, oldLength - end,
                        e.hasExpiry() ? e.expireAt : 0);
                }
                e.buffer.putBytes(e.valueOffset + offset, value, valueOffset, valueLength);
                return oldLength;
            }
            final int prefix = Math.min(oldLength, offset);
            final boolean hasExpiry = i >= 0 && e.hasExpiry();
            put(tag, i, e, key, keyOffset, keyLength, i >= 0 ? e.buffer : value, i >= 0 ? e.valueOffset : valueOffset,
                prefix, offset - prefix, value, valueOffset, valueLength, hasExpiry, hasExpiry ? e.expireAt : 0);
            return end;
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Adds {@code delta} to a decimal number value (incrementByFloat, {@link DecimalFloat}); keeps the expiry time.
     * When {@code dst} is given, its room is checked before anything changes and the text is copied into it.
     *
     * @return the new value's text.
     */
    public byte[] incrementByFloat(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final double delta,
        final int maxValueLength, final MutableDirectBuffer dst, final int dstOffset, final ThreadContext c)
    {
        final int tag = IndexLayout.tag(hash);
        final EntryCursor e = c.entry;
        final long stamp = acquireWrite(c.changes);
        try
        {
            final int i = findForWrite(tag, key, keyOffset, keyLength, e);
            final byte[] text = i >= 0 ?
                DecimalFloat.add(e.buffer, e.valueOffset, e.valueLength, delta) : DecimalFloat.add(null, 0, 0, delta);
            if (text.length > maxValueLength)
            {
                throw Limits.valueTooLarge(text.length, maxValueLength);
            }
            if (dst != null && !dst.isExpandable() && (long)dstOffset + text.length > dst.capacity())
            {
                throw new IndexOutOfBoundsException(
                    "destination too small: value length=" + text.length + ", capacity=" + dst.capacity());
            }
            final boolean hasExpiry = i >= 0 && e.hasExpiry();
            final UnsafeBuffer textBuffer = new UnsafeBuffer(text);
            put(tag, i, e, key, keyOffset, keyLength, textBuffer, 0, text.length, 0, textBuffer, 0, 0,
                hasExpiry, hasExpiry ? e.expireAt : 0);
            if (dst != null)
            {
                dst.putBytes(dstOffset, text);
            }
            return text;
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Recovery only: gives a key this value and expiry time as they are, even a time already past (a later record may
     * extend it; the entry is reclaimed as expired otherwise). Not logged.
     *
     * @param hash           the key's hash.
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param value          the value's bytes.
     * @param valueOffset    where they start.
     * @param valueLength    how many.
     * @param expireAtMillis the absolute expiry time, 0 for none.
     * @param e              a cursor.
     */
    public void recoverSet(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength, final long expireAtMillis,
        final EntryCursor e)
    {
        final int tag = IndexLayout.tag(hash);
        final long stamp = acquireWrite(null);
        try
        {
            final int i = findAnyLocked(tag, key, keyOffset, keyLength, e);
            put(tag, i, e, key, keyOffset, keyLength, value, valueOffset, valueLength, null, 0, 0,
                expireAtMillis != 0, expireAtMillis);
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Recovery only: gives a present key (expired or not) this expiry time as it is, 0 for none. Not logged.
     *
     * @param hash           the key's hash.
     * @param key            the key's bytes.
     * @param keyOffset      where they start.
     * @param keyLength      how many.
     * @param expireAtMillis the absolute expiry time, 0 for none.
     * @param e              a cursor.
     */
    public void recoverExpire(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final long expireAtMillis,
        final EntryCursor e)
    {
        final int tag = IndexLayout.tag(hash);
        final long stamp = acquireWrite(null);
        try
        {
            final int i = findAnyLocked(tag, key, keyOffset, keyLength, e);
            if (i >= 0)
            {
                rewrite(tag, i, e, expireAtMillis != 0, expireAtMillis);
            }
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Logs an expiry time changed in place.
     */
    private void logExpiry(final EntryCursor e, final long expireAt)
    {
        if (changes != null)
        {
            changes.expire(e.buffer, e.keyOffset, e.keyLength, expireAt);
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Whole shard
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Removes up to {@code maxSlots} slots' worth of expired entries, continuing where the last sweep stopped, and
     * takes a step of compaction ({@link Compactor}). A shard with no expiring entry and no compaction under way is
     * not locked at all, so that an idle store fails no optimistic read and blocks no writer for its sweep. That test
     * reads both racily; a stale answer only leaves the work to the next sweep (or the access that comes first).
     *
     * @param maxSlots how many slots to look at.
     * @param e        a cursor to read entries with.
     * @param changes  where the removals are logged, {@code null} for none.
     * @return entries removed.
     */
    public int sweep(final int maxSlots, final EntryCursor e, final ChangeRecorder changes)
    {
        if (expiring == 0 && !compactor.pending())
        {
            return 0;
        }
        final long stamp = acquireWrite(changes);
        try
        {
            return sweepLocked(maxSlots, e);
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * One scan step over home buckets in reverse-binary order (as Redis's {@code dictScan}), which returns every key
     * present for the whole scan at least once even if the table doubles between steps.
     *
     * @param bucketCursor where to continue, 0 to start.
     * @param buckets      how many buckets to visit at most, at least 1.
     * @param liveKeys     after how many live keys (matching the pattern or not) to stop, at the end of a bucket;
     *                     at least 1.
     * @param pattern      glob pattern or null.
     * @param keys         where found keys are added.
     * @param c            the caller's context; its {@code scannedBuckets} and {@code scannedKeys} are set to the
     *                     buckets visited and the live keys seen.
     * @return the next bucket cursor, 0 when this shard is done.
     */
    public long scan(final long bucketCursor, final int buckets, final int liveKeys, final byte[] pattern,
        final List<byte[]> keys, final ThreadContext c)
    {
        final long stamp = lockRead();
        try
        {
            return scanLocked(bucketCursor, buckets, liveKeys, pattern, keys, c);
        }
        finally
        {
            unlockRead(stamp);
        }
    }

    /**
     * The key of the first live entry at or after slot {@code startSlot}, probing at most {@code maxSlots} slots
     * under the read lock (randomKey). Expired entries are skipped, not removed.
     *
     * @param startSlot where to start; reduced to the table's size.
     * @param maxSlots  how many slots to look at, at most the whole table.
     * @return a copy of the key, or {@code null} if none was found.
     */
    public byte[] liveKeyFrom(final int startSlot, final int maxSlots, final EntryCursor e)
    {
        final long stamp = lockRead();
        try
        {
            return liveKeyLocked(startSlot, maxSlots, e);
        }
        finally
        {
            unlockRead(stamp);
        }
    }

    /**
     * Removes every entry and returns the memory; the next write starts small again.
     */
    public void clear()
    {
        final long stamp = acquireWrite(null);
        try
        {
            clearLocked();
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Frees all memory at close; no operation may be in flight.
     */
    public void free()
    {
        final long stamp = acquireWrite(null);
        try
        {
            freeLocked();
        }
        finally
        {
            releaseWrite(stamp);
        }
    }

    /**
     * Checks the shard's structural invariants under the write lock.
     *
     * @throws IllegalStateException naming the first broken invariant.
     */
    public void verifyIntegrity(final EntryCursor e, final ThreadContext scratch)
    {
        final long stamp = acquireWrite(null);
        try
        {
            verifyLocked(e, scratch);
        }
        finally
        {
            releaseWrite(stamp);
        }
    }
}
