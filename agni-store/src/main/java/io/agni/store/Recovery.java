package io.agni.store;

import io.agni.store.arena.EntryCursor;
import io.agni.store.persist.RecoveryTarget;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.agrona.DirectBuffer;

/**
 * Rebuilds a store's shards from its snapshot and log while it opens (docs/durability.md, "Opening: recovery"), before the
 * log is attached to the gate, so nothing replayed is logged again, and before any other thread sees the store.
 * Each record goes to the shard its key routes to; a record whose time has passed is applied as it says, since a
 * later record may have extended it, and an entry left expired is reclaimed like any other.
 */
final class Recovery implements RecoveryTarget
{
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
