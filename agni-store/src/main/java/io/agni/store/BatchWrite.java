package io.agni.store;

import io.agni.api.ExpiryMode;
import io.agni.api.Transactional;
import io.agni.api.WriteBatch;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.log.ChangeRecorder;
import io.agni.store.log.LogLayout;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * One atomic batch ({@code write(WriteBatch)}), docs/architecture.md "Batch write": the operations are grouped by
 * key and run, in order, over what each key holds at the batch's instant, giving each key one net effect (nothing, a
 * removal, a new value, a new expiry time); every entry those effects need is written unlinked first, as
 * {@link MultiSet} does, so a refusal by the budget changes nothing; only then are the effects applied, under the
 * write lock of every shard involved, and logged as one record.
 *
 * <h2>Why net effects</h2>
 * Applying the operations one by one would allocate between changes, so a refusal part-way would leave the first
 * ones done; undoing them would need memory too. A key's net effect needs at most one new entry, written before
 * anything changes, and the effects that need none (a removal, an overwrite of the same length and expiry shape, a
 * new expiry time over an old one) cannot be refused. The log gets each key's state after the batch as a whole value
 * or a delete, never a relative change, so replaying it is idempotent whatever the clock reads at recovery.
 *
 * <h2>Memory</h2>
 * One instance per thread, reused: its arrays and key states grow to the largest batch and are dropped after a batch
 * of more than {@link #KEEP_OPERATIONS} operations, so a batch of a few operations allocates nothing in steady state.
 * The batch is forgotten after each run.
 *
 * <h2>Concurrency</h2>
 * Confined to its thread; {@link #check} before the store's gate, {@link #run} within one operation of it.
 */
final class BatchWrite
{
    /**
     * The most operations whose arrays are kept for the next batch.
     */
    static final int KEEP_OPERATIONS = 1024;

    private static final int INITIAL_OPERATIONS = 16;

    /**
     * What the batch does to one key, decided under the locks before anything changes.
     */
    private enum Effect
    {
        /**
         * The key ends as it was (absent, or present with its value and expiry time).
         */
        NOTHING,
        /**
         * The key's entry is removed.
         */
        REMOVE,
        /**
         * The entry is overwritten in place: a value of the same length (or none, for an expiry time alone) with the
         * same expiry shape.
         */
        OVERWRITE,
        /**
         * A new entry, written unlinked, takes the key's place: a value of the batch, or the entry's own value with
         * an expiry field added or dropped.
         */
        REPLACE
    }

    /**
     * One distinct key of the batch: what it held, what the batch leaves, and how that is done.
     */
    private static final class Key
    {
        int op;
        long hash;
        int shard;
        boolean found;
        boolean foundExpiry;
        long foundExpireAt;
        int foundValueLength;
        boolean present;
        int valueOp;
        boolean hasExpiry;
        long expireAt;
        Effect effect;
        long location;
        /**
         * The segment of the entry found, pinned while the batch allocates when its shard evicts; 0 when none is.
         */
        int pinnedSegment;
    }

    private int[] keyOf;
    private long[] times;
    private Key[] keys;
    private int[] order;
    private final ShardOrder shardOrder = new ShardOrder();
    private long[] stamps;
    private long[] perShard;
    private int[] seen;
    private WriteBatch batch;
    private DirectBuffer bytes;
    private byte[] found;
    private int keyCount;

    BatchWrite()
    {
        allocate(INITIAL_OPERATIONS);
    }

    /**
     * Checks every key and value against the store's limits, and the array for what each operation found, before
     * anything changes.
     */
    static void check(final Shards store, final WriteBatch batch, final byte[] found)
    {
        if (found != null && found.length < batch.size())
        {
            throw new IllegalArgumentException(
                "found is shorter than the batch: length=" + found.length + ", operations=" + batch.size());
        }
        for (int i = 0; i < batch.size(); i++)
        {
            store.checkEntry(batch.keyLength(i), batch.valueLength(i));
        }
    }

    /**
     * Applies a checked, non-empty batch, then forgets it (also when it throws).
     *
     * @param now   the batch's instant on the store's clock, read before any lock.
     * @param found where what each operation found is reported ({@code Transactional.write}), {@code null} for
     *              nowhere.
     */
    void run(final Shards store, final WriteBatch batch, final long now, final ThreadContext c,
        final byte[] found)
    {
        try
        {
            load(store, batch, now);
            this.found = found;
            write(store, now, c);
        }
        finally
        {
            forget();
        }
    }

    /**
     * Hashes every key, turns relative times into absolute ones at {@code now}, and groups the operations by key.
     */
    private void load(final Shards store, final WriteBatch batch, final long now)
    {
        this.batch = batch;
        this.bytes = batch.buffer();
        final int n = batch.size();
        if (n > keyOf.length)
        {
            allocate(Math.max(n, 2 * keyOf.length));
        }
        final int mask = tableSize(n) - 1;
        Arrays.fill(seen, 0, mask + 1, -1);
        keyCount = 0;
        for (int i = 0; i < n; i++)
        {
            final long hash = store.hash(bytes, batch.keyOffset(i), batch.keyLength(i));
            times[i] = batch.expiryMode(i) == ExpiryMode.AFTER ?
                Expiry.saturatedAdd(now, batch.expiryTime(i)) : batch.expiryTime(i);
            int slot = (int)hash & mask;
            while (true)
            {
                final int k = seen[slot];
                if (k < 0)
                {
                    final Key key = keys[keyCount];
                    key.op = i;
                    key.hash = hash;
                    key.shard = store.index(hash);
                    seen[slot] = keyCount;
                    keyOf[i] = keyCount++;
                    break;
                }
                if (keys[k].hash == hash && sameKey(keys[k].op, i))
                {
                    keyOf[i] = k;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    private void write(final Shards store, final long now, final ThreadContext c)
    {
        final int shards = sortedShards(store);
        final ChangeRecorder log = c.changes;
        int locked = 0;
        try
        {
            for (; locked < shards; locked++)
            {
                stamps[locked] = store.at(order[locked]).lockWrite(log);
            }
            if (log != null)
            {
                // One record for the whole batch, so that it is recovered all or nothing.
                log.beginBatch();
            }
            findAll(store, c.entry);
            decide(now);
            if (log != null)
            {
                checkLogRoom();
            }
            pinFound(store, c.entry);
            makeRoom(store, shards);
            prepare(store, shards, c.fresh);
            unpinFound(store);
            if (log != null)
            {
                // The record first, with every key's state afterwards: a record the log refuses changes no key.
                recordEffects(store, log, c.entry);
                log.mute();
            }
            try
            {
                apply(store, c.entry);
            }
            finally
            {
                if (log != null)
                {
                    log.unmute();
                }
            }
            bytesPerShard(shards, false);
            for (int j = 0; j < shards; j++)
            {
                store.at(order[j]).maybeCompactLocked(perShard[j]);
            }
        }
        finally
        {
            unpinFound(store);
            endBatchAndUnlock(store, log, order, stamps, locked);
        }
    }

    /**
     * In a shard that evicts, pins the segment of every entry found that the batch will change, so that making room
     * for the batch's new entries evicts none of them (apply finds them again and counts on them being there); they
     * are unpinned before apply, which allocates nothing, since removing an entry may recycle its segment.
     */
    private void pinFound(final Shards store, final EntryCursor e)
    {
        for (int k = 0; k < keyCount; k++)
        {
            final Key key = keys[k];
            final Shard shard = store.at(key.shard);
            if (key.found && key.effect != Effect.NOTHING && shard.evictsLocked())
            {
                final int op = key.op;
                shard.findAnyLocked(key.hash, bytes, batch.keyOffset(op), batch.keyLength(op), e);
                key.pinnedSegment = e.segmentId;
                shard.pinLocked(e.segmentId);
            }
        }
    }

    private void unpinFound(final Shards store)
    {
        for (int k = 0; k < keyCount; k++)
        {
            final Key key = keys[k];
            if (key.pinnedSegment != 0)
            {
                store.at(key.shard).unpinLocked(key.pinnedSegment);
                key.pinnedSegment = 0;
            }
        }
    }

    /**
     * Ends a multi-key write: appends its log record, then releases the shard locks it took, in reverse, also when
     * the append fails. The record is written also when the write was refused before anything was applied, since the
     * batch then holds the expired entries the lookups removed on the way (replay keeps an entry's expiry as written,
     * so the log must know they are gone).
     *
     * @param store  the store.
     * @param log    the thread's recorder, {@code null} without a log.
     * @param order  the shards locked, in the order they were.
     * @param stamps their stamps.
     * @param locked how many were locked.
     */
    static void endBatchAndUnlock(
        final Shards store, final ChangeRecorder log, final int[] order, final long[] stamps, final int locked)
    {
        try
        {
            if (log != null)
            {
                log.endBatch();
            }
        }
        finally
        {
            for (int j = locked - 1; j >= 0; j--)
            {
                store.at(order[j]).unlockWrite(stamps[j]);
            }
        }
    }

    /**
     * Looks every key up once (an expired entry is removed, as every write does) and notes what it holds.
     */
    private void findAll(final Shards store, final EntryCursor e)
    {
        for (int k = 0; k < keyCount; k++)
        {
            final Key key = keys[k];
            final int op = key.op;
            key.found = store.at(key.shard).findLocked(
                key.hash, bytes, batch.keyOffset(op), batch.keyLength(op), e) >= 0;
            if (key.found)
            {
                key.foundExpiry = e.hasExpiry();
                key.foundExpireAt = e.hasExpiry() ? e.expireAt : 0;
                key.foundValueLength = e.valueLength;
            }
            key.present = key.found;
            key.valueOp = -1;
            key.hasExpiry = key.found && key.foundExpiry;
            key.expireAt = key.foundExpireAt;
        }
    }

    /**
     * Runs the operations in order over each key's state, then decides each key's effect.
     */
    private void decide(final long now)
    {
        for (int i = 0; i < batch.size(); i++)
        {
            final Key key = keys[keyOf[i]];
            final long time = times[i];
            if (found != null)
            {
                found[i] = !key.present ? 0 : key.hasExpiry ?
                    Transactional.KEY_PRESENT | Transactional.KEY_EXPIRING : Transactional.KEY_PRESENT;
            }
            switch (batch.operation(i))
            {
                case SET:
                    set(key, i, batch.expiryMode(i), time, now);
                    break;
                case DELETE:
                    key.present = false;
                    break;
                case EXPIRE:
                    if (key.present)
                    {
                        key.present = time > now;
                        key.hasExpiry = true;
                        key.expireAt = time;
                    }
                    break;
                default:
                    // persist; of an absent key it changes nothing (its expiry no longer matters)
                    key.hasExpiry = false;
                    break;
            }
        }
        for (int k = 0; k < keyCount; k++)
        {
            final Key key = keys[k];
            key.effect = effect(key);
            key.location = Arena.NO_SPACE;
        }
    }

    private static void set(final Key key, final int op, final ExpiryMode mode, final long time, final long now)
    {
        switch (mode)
        {
            case CLEAR:
                key.hasExpiry = false;
                break;
            case KEEP:
                key.hasExpiry = key.present && key.hasExpiry;
                break;
            default:
                key.hasExpiry = true;
                key.expireAt = time;
                break;
        }
        key.present = !key.hasExpiry || key.expireAt > now;
        key.valueOp = op;
    }

    private Effect effect(final Key key)
    {
        if (!key.present)
        {
            return key.found ? Effect.REMOVE : Effect.NOTHING;
        }
        final boolean sameShape = key.found && key.hasExpiry == key.foundExpiry;
        if (key.valueOp >= 0)
        {
            return sameShape && batch.valueLength(key.valueOp) == key.foundValueLength ? Effect.OVERWRITE :
                Effect.REPLACE;
        }
        if (!sameShape)
        {
            return Effect.REPLACE;
        }
        return key.hasExpiry && key.expireAt != key.foundExpireAt ? Effect.OVERWRITE : Effect.NOTHING;
    }

    /**
     * Refuses, before anything changes, a batch whose log record could not be written: each key logs at most the
     * removal of an expired entry and its state afterwards.
     */
    private void checkLogRoom()
    {
        long total = LogLayout.BATCH_FIXED_LENGTH;
        for (int k = 0; k < keyCount; k++)
        {
            final Key key = keys[k];
            final int keyLength = batch.keyLength(key.op);
            total += 1 + LogLayout.DELETE_FIXED_LENGTH + keyLength;
            if (key.effect == Effect.REPLACE || key.effect == Effect.OVERWRITE)
            {
                total += 1 + LogLayout.SET_FIXED_LENGTH + keyLength + valueLength(key);
            }
        }
        if (total > ChangeRecorder.MAX_BATCH_BYTES)
        {
            throw new IllegalArgumentException("batch too large for one log record: bytes=" + total + ", limit=" +
                ChangeRecorder.MAX_BATCH_BYTES);
        }
    }

    /**
     * Grows each shard's table for the keys the batch adds.
     */
    private void makeRoom(final Shards store, final int shards)
    {
        Arrays.fill(perShard, 0, shards, 0);
        for (int k = 0; k < keyCount; k++)
        {
            final Key key = keys[k];
            if (key.effect == Effect.REPLACE && !key.found)
            {
                perShard[position(key.shard, shards)]++;
            }
        }
        for (int j = 0; j < shards; j++)
        {
            if (perShard[j] > 0)
            {
                store.at(order[j]).ensureRoomLocked((int)perShard[j]);
            }
        }
    }

    /**
     * Writes every new entry unlinked. When the budget refuses one, the entries written are abandoned, each shard
     * compacts in place for its part, and all are written once more; a second refusal throws with nothing visible
     * changed.
     */
    private void prepare(final Shards store, final int shards, final EntryCursor e)
    {
        int refused = prepareAll(store, e);
        if (refused >= 0)
        {
            bytesPerShard(shards, true);
            for (int j = 0; j < shards; j++)
            {
                if (perShard[j] > 0)
                {
                    store.at(order[j]).reclaimForBatchLocked(perShard[j]);
                }
            }
            refused = prepareAll(store, e);
            if (refused >= 0)
            {
                final Key key = keys[refused];
                store.at(key.shard).countRejectedLocked();
                throw store.budgetExceeded(entryLength(key));
            }
        }
    }

    /**
     * Sums, per shard, the bytes of the new entries the batch writes there, into {@link #perShard}; only of those
     * short enough for a regular segment when {@code regularOnly} (compaction in place cannot place the others).
     */
    private void bytesPerShard(final int shards, final boolean regularOnly)
    {
        Arrays.fill(perShard, 0, shards, 0);
        for (int k = 0; k < keyCount; k++)
        {
            final Key key = keys[k];
            final long length = entryLength(key);
            if (key.effect == Effect.REPLACE && (!regularOnly || length <= Arena.LARGE_ENTRY_BYTES))
            {
                perShard[position(key.shard, shards)] += length;
            }
        }
    }

    /**
     * Where shard {@code shard} is in {@link #order}.
     */
    private int position(final int shard, final int shards)
    {
        return Arrays.binarySearch(order, 0, shards, shard);
    }

    /**
     * Writes every new entry into fresh arena space, unlinked.
     *
     * @return -1 if every entry was written, else the key whose entry the budget refused; the entries written before
     * it are abandoned.
     */
    private int prepareAll(final Shards store, final EntryCursor e)
    {
        int k = 0;
        try
        {
            for (; k < keyCount; k++)
            {
                final Key key = keys[k];
                if (key.effect != Effect.REPLACE)
                {
                    continue;
                }
                final int op = key.op;
                final Shard shard = store.at(key.shard);
                final long location;
                if (key.valueOp >= 0)
                {
                    location = shard.prepareLocked(bytes, batch.keyOffset(op), batch.keyLength(op), bytes,
                        batch.valueOffset(key.valueOp), batch.valueLength(key.valueOp), key.hasExpiry, key.expireAt);
                }
                else
                {
                    // The key's own value with an expiry field added or dropped: found again, since compaction for
                    // the entries written before may have moved it, and its segment left alone while it is copied.
                    shard.findAnyLocked(key.hash, bytes, batch.keyOffset(op), batch.keyLength(op), e);
                    location = shard.copyInLocked(bytes, batch.keyOffset(op), batch.keyLength(op), e, key.hasExpiry,
                        key.expireAt, e.segmentId, store.maxValueLength);
                }
                if (location == Arena.NO_SPACE)
                {
                    break;
                }
                key.location = location;
            }
        }
        catch (final Throwable ex)
        {
            abandon(store, k);
            throw ex;
        }
        if (k == keyCount)
        {
            return -1;
        }
        abandon(store, k);
        return k;
    }

    /**
     * Drops the entries written and not linked of the keys before {@code end}, last first, so that each gives its
     * space back.
     */
    private void abandon(final Shards store, final int end)
    {
        for (int k = end - 1; k >= 0; k--)
        {
            final Key key = keys[k];
            if (key.location != Arena.NO_SPACE)
            {
                store.at(key.shard).abandonLocked(
                    key.location, batch.keyLength(key.op), valueLength(key), key.hasExpiry);
                key.location = Arena.NO_SPACE;
            }
        }
    }

    /**
     * Applies every key's effect; nothing here is refused. Each shard logs what it changes into the open batch.
     */
    private void apply(final Shards store, final EntryCursor e)
    {
        int k = 0;
        try
        {
            for (; k < keyCount; k++)
            {
                final Key key = keys[k];
                final int op = key.op;
                final Shard shard = store.at(key.shard);
                switch (key.effect)
                {
                    case REMOVE:
                        shard.removeAnyLocked(key.hash, bytes, batch.keyOffset(op), batch.keyLength(op), e);
                        break;
                    case OVERWRITE:
                        shard.overwriteLocked(key.hash, bytes, batch.keyOffset(op), batch.keyLength(op),
                            key.valueOp >= 0 ? bytes : null, key.valueOp >= 0 ? batch.valueOffset(key.valueOp) : 0,
                            valueLength(key), key.hasExpiry, key.expireAt, e);
                        break;
                    case REPLACE:
                        shard.replaceLocked(key.hash, bytes, batch.keyOffset(op), batch.keyLength(op), key.location,
                            key.hasExpiry, e);
                        key.location = Arena.NO_SPACE;
                        break;
                    default:
                        break;
                }
            }
        }
        catch (final Throwable ex)
        {
            // Not expected (nothing here allocates): drop what is still unlinked, so no segment stays pinned.
            abandonFrom(store, k);
            throw ex;
        }
    }

    /**
     * Appends the batch's record (what the lookups removed and eviction made room for, then each key's state
     * afterwards) before {@link #apply} changes any key; if the log refuses it, the prepared entries are dropped and
     * no key changes. Inside an exclusive section the record is the section's, appended when it ends.
     */
    private void recordEffects(final Shards store, final ChangeRecorder log, final EntryCursor e)
    {
        try
        {
            for (int k = 0; k < keyCount; k++)
            {
                final Key key = keys[k];
                final int op = key.op;
                final long at = key.hasExpiry ? key.expireAt : LogLayout.NO_EXPIRY;
                switch (key.effect)
                {
                    case REMOVE:
                        log.delete(bytes, batch.keyOffset(op), batch.keyLength(op));
                        break;
                    case OVERWRITE:
                        if (key.valueOp >= 0)
                        {
                            log.set(bytes, batch.keyOffset(op), batch.keyLength(op), bytes,
                                batch.valueOffset(key.valueOp), batch.valueLength(key.valueOp), at);
                        }
                        else
                        {
                            store.at(key.shard).recordExpiryLocked(key.hash, bytes, batch.keyOffset(op),
                                batch.keyLength(op), at, e);
                        }
                        break;
                    case REPLACE:
                        store.at(key.shard).recordPreparedLocked(key.location, e);
                        break;
                    default:
                        break;
                }
            }
            log.endBatch();
        }
        catch (final Throwable ex)
        {
            abandonFrom(store, 0);
            throw ex;
        }
    }

    private void abandonFrom(final Shards store, final int from)
    {
        for (int k = keyCount - 1; k >= from; k--)
        {
            final Key key = keys[k];
            if (key.location != Arena.NO_SPACE)
            {
                store.at(key.shard).abandonLocked(
                    key.location, batch.keyLength(key.op), valueLength(key), key.hasExpiry);
                key.location = Arena.NO_SPACE;
            }
        }
    }

    /**
     * The length of the value a key ends with.
     */
    private int valueLength(final Key key)
    {
        return key.valueOp >= 0 ? batch.valueLength(key.valueOp) : key.foundValueLength;
    }

    private long entryLength(final Key key)
    {
        return EntryLayout.length(batch.keyLength(key.op), valueLength(key), key.hasExpiry);
    }

    private boolean sameKey(final int a, final int b)
    {
        final int length = batch.keyLength(a);
        if (length != batch.keyLength(b))
        {
            return false;
        }
        return Bytes.equal(bytes, batch.keyOffset(a), bytes, batch.keyOffset(b), length);
    }

    /**
     * Sorts the distinct shard indexes of the batch's keys into {@link #order}, ascending: the order locks are taken
     * in.
     *
     * @return how many shards.
     */
    private int sortedShards(final Shards store)
    {
        for (int k = 0; k < keyCount; k++)
        {
            order[k] = keys[k].shard;
        }
        return shardOrder.sort(order, keyCount, store.count(), order);
    }

    private void forget()
    {
        batch = null;
        bytes = null;
        found = null;
        keyCount = 0;
        if (keyOf.length > KEEP_OPERATIONS)
        {
            allocate(INITIAL_OPERATIONS);
        }
    }

    private static int tableSize(final int operations)
    {
        return Integer.highestOneBit(Math.max(2, operations - 1)) << 2;
    }

    private void allocate(final int operations)
    {
        keyOf = new int[operations];
        times = new long[operations];
        order = new int[operations];
        stamps = new long[operations];
        perShard = new long[operations];
        seen = new int[tableSize(operations)];
        keys = new Key[operations];
        for (int i = 0; i < operations; i++)
        {
            keys[i] = new Key();
        }
    }
}
