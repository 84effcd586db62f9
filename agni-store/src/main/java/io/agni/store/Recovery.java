package io.agni.store;

import io.agni.store.arena.EntryCursor;
import io.agni.store.persist.RecoveryTarget;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import io.agni.store.snapshot.SnapshotEntryHandler;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a store's shards from its snapshot and log while it opens (docs/durability.md, "Opening: recovery"), before the
 * log is attached to the gate, so nothing replayed is logged again, and before any other thread sees the store.
 * Each record goes to the shard its key routes to; a record whose time has passed is applied as it says, since a
 * later record may have extended it, and an entry left expired is reclaimed like any other.
 */
final class Recovery implements RecoveryTarget
{
    /**
     * The most threads that load a snapshot: past a few, they wait for the one that reads the file.
     */
    static final int MAX_LOAD_THREADS = 4;

    private final Shards shards;
    private final EntryCursor cursor = new EntryCursor();

    Recovery(final Shards shards)
    {
        this.shards = shards;
    }

    @Override
    public void recoverSet(final DirectBuffer buffer, final int keyOffset, final int keyLength,
        final int valueOffset, final int valueLength, final long expireAtMillis)
    {
        final long hash = shards.hash(buffer, keyOffset, keyLength);
        shards.shard(hash).recoverSet(hash, buffer, keyOffset, keyLength, buffer, valueOffset, valueLength,
            expireAtMillis, cursor);
    }

    /**
     * One handler per processor (at most {@link #MAX_LOAD_THREADS}, and no more than shards), each with a cursor of
     * its own: a snapshot's entries are distinct keys, and each shard is written under its lock.
     */
    @Override
    public List<SnapshotEntryHandler> snapshotHandlers()
    {
        final int threads = Math.min(Math.min(Runtime.getRuntime().availableProcessors(), MAX_LOAD_THREADS),
            shards.count());
        final List<SnapshotEntryHandler> handlers = new ArrayList<>(threads);
        for (int i = 0; i < Math.max(1, threads); i++)
        {
            final EntryCursor own = new EntryCursor();
            handlers.add((buffer, keyOffset, keyLength, valueOffset, valueLength, expireAt) ->
            {
                final long hash = shards.hash(buffer, keyOffset, keyLength);
                shards.shard(hash).recoverSet(hash, buffer, keyOffset, keyLength, buffer, valueOffset, valueLength,
                    expireAt, own);
            });
        }
        return handlers;
    }

    @Override
    public void recoverDelete(final DirectBuffer buffer, final int keyOffset, final int keyLength)
    {
        final long hash = shards.hash(buffer, keyOffset, keyLength);
        final ThreadContext c = shards.gate.enter();
        try
        {
            shards.shard(hash).delete(hash, buffer, keyOffset, keyLength, false, null, 0, c);
        }
        finally
        {
            shards.gate.exit(c);
        }
    }

    @Override
    public void recoverExpire(final DirectBuffer buffer, final int keyOffset, final int keyLength,
        final long expireAtMillis)
    {
        final long hash = shards.hash(buffer, keyOffset, keyLength);
        shards.shard(hash).recoverExpire(hash, buffer, keyOffset, keyLength, expireAtMillis, cursor);
    }

    @Override
    public long recoveryEvictions()
    {
        long evicted = 0;
        for (final Shard s : shards.all)
        {
            evicted += s.evictedCount();
        }
        return evicted;
    }

    @Override
    public void recoverClear()
    {
        for (final Shard s : shards.all)
        {
            s.clear();
        }
        shards.memory.reclaim();
    }
}
