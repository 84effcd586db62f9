package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.RenameResult;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.log.ChangeRecorder;
import io.agni.store.log.LogLayout;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * One atomic rename ({@code rename}), possibly across two shards (docs/architecture.md, "Rename"): lock both shards
 * in ascending index order (once if they are the same, as {@link MultiSet} does), check the source and the target,
 * reserve the target's index room and write the copy of the entry under the new key into fresh space in the
 * target's arena, and only then link the copy and remove the source. A refusal by the budget comes before anything
 * visible changes; a reader of either key sees the entry under exactly one of them.
 */
final class Rename
{
    private Rename()
    {
    }

    static RenameResult run(
        final OffHeapStore store, final byte[] key, final byte[] newKey, final boolean replace, final ThreadContext c)
    {
        final UnsafeBuffer from = c.keyWrapper;
        final UnsafeBuffer to = c.valueWrapper;
        from.wrap(key);
        to.wrap(newKey);
        final long fromHash = store.hash(from, 0, key.length);
        final Shard fromShard = store.shard(fromHash);
        if (Arrays.equals(key, newKey))
        {
            if (fromShard.expireTime(fromHash, from, 0, key.length, c) == AgniStore.TTL_KEY_ABSENT)
            {
                return RenameResult.NO_SUCH_KEY;
            }
            return replace ? RenameResult.RENAMED : RenameResult.TARGET_EXISTS;
        }
        final long toHash = store.hash(to, 0, newKey.length);
        final Shard toShard = store.shard(toHash);
        final int fromIndex = store.shardIndex(fromHash);
        final int toIndex = store.shardIndex(toHash);
        final Shard first = fromIndex <= toIndex ? fromShard : toShard;
        final Shard second = fromIndex <= toIndex ? toShard : fromShard;
        final ChangeRecorder log = c.changes;
        final long firstStamp = first.lockWrite(log);
        final long secondStamp = second != first ? second.lockWrite(log) : 0;
        boolean logged = false;
        try
        {
            if (log != null)
            {
                // The new key and the removal of the old are one record: recovered together or not at all.
                log.beginBatch();
            }
            final RenameResult result = moveLocked(store, fromShard, fromHash, from, key.length, toShard, toHash,
                to, newKey.length, replace, c);
            if (log != null)
            {
                logged = true;
                log.endBatch();
            }
            return result;
        }
        finally
        {
            if (log != null && !logged)
            {
                log.abandonBatch();
            }
            if (second != first)
            {
                second.unlockWrite(secondStamp);
            }
            first.unlockWrite(firstStamp);
        }
    }

    private static RenameResult moveLocked(
        final OffHeapStore store,
        final Shard fromShard, final long fromHash, final UnsafeBuffer from, final int fromLength,
        final Shard toShard, final long toHash, final UnsafeBuffer to, final int toLength,
        final boolean replace, final ThreadContext c)
    {
        final EntryCursor source = c.entry;
        final EntryCursor target = c.fresh;
        final boolean targetPresent = toShard.findLocked(toHash, to, 0, toLength, target) >= 0;
        if (fromShard.findLocked(fromHash, from, 0, fromLength, source) < 0)
        {
            return RenameResult.NO_SUCH_KEY;
        }
        if (targetPresent && !replace)
        {
            return RenameResult.TARGET_EXISTS;
        }
        if (!targetPresent)
        {
            // growing the table moves slots, not entries: the source cursor stays valid
            toShard.ensureRoomLocked(1);
        }
        final long location = toShard.copyInLocked(to, 0, toLength, source,
            toShard == fromShard ? source.segmentId : 0, store.maxValueLength());
        if (location == Arena.NO_SPACE)
        {
            toShard.countRejectedLocked();
            throw OffHeapStore.budgetExceeded(
                EntryLayout.length(toLength, source.valueLength, source.hasExpiry()), store.budget());
        }
        try
        {
            toShard.linkLocked(toHash, to, 0, toLength, location, source.hasExpiry(), target);
        }
        catch (final Throwable ex)
        {
            // Not linked: drop the copy, so that its segment is not left pinned against compaction for good.
            toShard.abandonLocked(location, toLength, source.valueLength, source.hasExpiry());
            throw ex;
        }
        if (c.changes != null)
        {
            c.changes.set(to, 0, toLength, source.buffer, source.valueOffset, source.valueLength,
                source.hasExpiry() ? source.expireAt : LogLayout.NO_EXPIRY);
        }
        fromShard.removeLocked(fromHash, from, 0, fromLength, source);
        toShard.maybeCompactLocked(EntryLayout.length(toLength, source.valueLength, source.hasExpiry()));
        if (fromShard != toShard)
        {
            fromShard.maybeCompactLocked(0);
        }
        return RenameResult.RENAMED;
    }
}
