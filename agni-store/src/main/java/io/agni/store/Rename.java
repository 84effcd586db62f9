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
import org.agrona.DirectBuffer;

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

    /**
     * Renames; the caller has checked the keys' lengths and entered the gate.
     */
    static RenameResult run(
        final Shards store,
        final DirectBuffer from, final int fromOffset, final int fromLength,
        final DirectBuffer to, final int toOffset, final int toLength,
        final boolean replace, final ThreadContext c)
    {
        final long fromHash = store.hash(from, fromOffset, fromLength);
        final Shard fromShard = store.shard(fromHash);
        if (sameBytes(from, fromOffset, fromLength, to, toOffset, toLength))
        {
            if (fromShard.expireTime(fromHash, from, fromOffset, fromLength, c) == AgniStore.TTL_KEY_ABSENT)
            {
                return RenameResult.NO_SUCH_KEY;
            }
            return replace ? RenameResult.RENAMED : RenameResult.TARGET_EXISTS;
        }
        final long toHash = store.hash(to, toOffset, toLength);
        final Shard toShard = store.shard(toHash);
        final int fromIndex = store.index(fromHash);
        final int toIndex = store.index(toHash);
        final Shard first = fromIndex <= toIndex ? fromShard : toShard;
        final Shard second = fromIndex <= toIndex ? toShard : fromShard;
        final ChangeRecorder log = c.changes;
        final long firstStamp = first.lockWrite(log);
        long secondStamp = Shard.OWNED;
        try
        {
            if (second != first)
            {
                secondStamp = second.lockWrite(log);
            }
            if (log != null)
            {
                // The new key and the removal of the old are one record: recovered together or not at all.
                log.beginBatch();
            }
            return moveLocked(store, fromShard, fromHash, from, fromOffset, fromLength, toShard, toHash, to,
                toOffset, toLength, replace, c);
        }
        finally
        {
            try
            {
                if (log != null)
                {
                    // Also when refused or failed before the move: the batch then holds the expired entries removed
                    // on the way.
                    log.endBatch();
                }
            }
            finally
            {
                // OWNED (nothing to unlock) when the second lock was refused, or is the first's.
                second.unlockWrite(secondStamp);
                first.unlockWrite(firstStamp);
            }
        }
    }

    private static boolean sameBytes(
        final DirectBuffer a, final int aOffset, final int aLength,
        final DirectBuffer b, final int bOffset, final int bLength)
    {
        return aLength == bLength && Bytes.equal(a, aOffset, b, bOffset, aLength);
    }

    private static RenameResult moveLocked(
        final Shards store,
        final Shard fromShard, final long fromHash, final DirectBuffer from, final int fromOffset, final int fromLength,
        final Shard toShard, final long toHash, final DirectBuffer to, final int toOffset, final int toLength,
        final boolean replace, final ThreadContext c)
    {
        final EntryCursor source = c.entry;
        final EntryCursor target = c.fresh;
        final boolean targetPresent = toShard.findLocked(toHash, to, toOffset, toLength, target) >= 0;
        if (fromShard.findLocked(fromHash, from, fromOffset, fromLength, source) < 0)
        {
            return RenameResult.NO_SUCH_KEY;
        }
        if (targetPresent && !replace)
        {
            return RenameResult.TARGET_EXISTS;
        }
        if (!targetPresent)
        {
            // growing the table moves slots, not entries, and eviction leaves the source's segment alone: the
            // source cursor stays valid
            toShard.ensureRoomLocked(1, toShard == fromShard ? source.segmentId : 0);
        }
        final long location = toShard.copyInLocked(to, toOffset, toLength, source,
            toShard == fromShard ? source.segmentId : 0, store.maxValueLength);
        if (location == Arena.NO_SPACE)
        {
            toShard.countRejectedLocked();
            throw store.budgetExceeded(EntryLayout.length(toLength, source.valueLength, source.hasExpiry()));
        }
        final ChangeRecorder log = c.changes;
        if (log != null)
        {
            // The record before either key changes: one the log refuses leaves both as they were.
            try
            {
                log.set(to, toOffset, toLength, source.buffer, source.valueOffset, source.valueLength,
                    source.hasExpiry() ? source.expireAt : LogLayout.NO_EXPIRY);
                log.delete(from, fromOffset, fromLength);
                log.endBatch();
            }
            catch (final Throwable ex)
            {
                toShard.abandonLocked(location, toLength, source.valueLength, source.hasExpiry());
                throw ex;
            }
            log.mute();
        }
        try
        {
            try
            {
                toShard.linkLocked(toHash, to, toOffset, toLength, location, source.hasExpiry(), target);
            }
            catch (final Throwable ex)
            {
                // Not linked: drop the copy, so that its segment is not left pinned against compaction for good.
                toShard.abandonLocked(location, toLength, source.valueLength, source.hasExpiry());
                throw ex;
            }
            fromShard.removeLocked(fromHash, from, fromOffset, fromLength, source);
        }
        finally
        {
            if (log != null)
            {
                log.unmute();
            }
        }
        toShard.maybeCompactLocked(EntryLayout.length(toLength, source.valueLength, source.hasExpiry()));
        if (fromShard != toShard)
        {
            fromShard.maybeCompactLocked(0);
        }
        return RenameResult.RENAMED;
    }
}
