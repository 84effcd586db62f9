package io.agni.store.shard;

import io.agni.api.AgniStore;
import io.agni.api.ExpiryMode;
import io.agni.api.SetCondition;
import io.agni.store.arena.Arena;
import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.EntryLayout;
import io.agni.store.arena.Segment;
import io.agni.store.hash.KeyHash;
import io.agni.store.memory.MemoryBudget;
import io.agni.store.memory.OffHeapMemory;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * One {@link Shard} driven directly by the compaction tests, with keys as {@code int}s and values made from a key, a
 * version and a length, so that a value read back tells which write it came from. Single-threaded; the caller
 * {@link #close()}s it.
 */
final class ShardDriver implements AutoCloseable
{
    static final long SEED = 0x5EED_C0DE_1234_5678L;

    /**
     * The longest value the tests read back (values of regular entries are shorter).
     */
    static final int MAX_VALUE_LENGTH = Arena.LARGE_ENTRY_BYTES;

    final CachedEpochClock clock = new CachedEpochClock();
    final OffHeapMemory memory;
    final Shard shard;
    private final ThreadContext c = new ThreadContext();
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[0]);
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[0]);
    private final byte[] readBytes = new byte[MAX_VALUE_LENGTH];
    private final UnsafeBuffer read = new UnsafeBuffer(readBytes);

    ShardDriver(final long budgetBytes)
    {
        clock.update(1_700_000_000_000L);
        memory = new OffHeapMemory(new MemoryBudget(budgetBytes));
        shard = new Shard(memory, clock, SEED);
    }

    static byte[] key(final int k)
    {
        return ("key:" + k).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] value(final int k, final int version, final int length)
    {
        final byte[] v = new byte[length];
        for (int i = 0; i < length; i++)
        {
            v[i] = (byte)(k * 7 + version * 13 + i);
        }
        return v;
    }

    /**
     * The entry length a value of {@code length} bytes for key {@code k} takes, without an expiry time.
     */
    static int entryLength(final int k, final int length)
    {
        return (int)EntryLayout.length(key(k).length, length, false);
    }

    private long hash(final byte[] k)
    {
        key.wrap(k);
        return KeyHash.hash(key, 0, k.length, SEED);
    }

    /**
     * Sets key {@code k} to {@code v}, with an expiry time if {@code expireAt} is positive.
     */
    void set(final int k, final byte[] v, final long expireAt)
    {
        final byte[] kb = key(k);
        final long h = hash(kb);
        value.wrap(v);
        shard.set(h, key, 0, kb.length, value, 0, v.length, SetCondition.ALWAYS,
            expireAt > 0 ? ExpiryMode.AT : ExpiryMode.CLEAR, expireAt, false, null, 0, c);
    }

    void set(final int k, final byte[] v)
    {
        set(k, v, 0);
    }

    boolean delete(final int k)
    {
        final byte[] kb = key(k);
        return shard.delete(hash(kb), key, 0, kb.length, false, null, 0, c) == 1;
    }

    /**
     * Key {@code k}'s value, or {@code null}.
     */
    byte[] get(final int k)
    {
        final byte[] kb = key(k);
        final long h = hash(kb);
        final int length = shard.get(h, key, 0, kb.length, read, 0, c);
        if (length == AgniStore.NOT_FOUND)
        {
            return null;
        }
        final byte[] v = new byte[length];
        System.arraycopy(readBytes, 0, v, 0, length);
        return v;
    }

    /**
     * Where key {@code k}'s entry is ({@code segmentId << 32 | offset}), or -1 if it is absent.
     */
    long location(final int k)
    {
        final byte[] kb = key(k);
        final long h = hash(kb);
        final EntryCursor e = new EntryCursor();
        final long stamp = shard.lockWrite(null);
        try
        {
            return shard.findLocked(h, key, 0, kb.length, e) < 0 ? -1 : ((long)e.segmentId << 32) | e.offset;
        }
        finally
        {
            shard.unlockWrite(stamp);
        }
    }

    /**
     * Writes the given keys as one batch, as {@code setAll} does: room in the table, every entry written unlinked
     * (pinning its segment), then all linked, then one compaction step. Refused by the budget part-way: every entry
     * written is abandoned, last first, the shard compacts in place for the batch's bytes, and the batch is written
     * once more; refused again: nothing linked.
     *
     * @return whether the batch was written.
     */
    boolean setBatch(final int[] keys, final byte[][] values)
    {
        final long stamp = shard.lockWrite(null);
        try
        {
            int newKeys = 0;
            long written = 0;
            long regular = 0;
            for (int i = 0; i < keys.length; i++)
            {
                final byte[] kb = key(keys[i]);
                newKeys += shard.containsLocked(hash(kb), key, 0, kb.length, c.entry) ? 0 : 1;
                final long length = EntryLayout.length(kb.length, values[i].length, false);
                written += length;
                regular += length <= Arena.LARGE_ENTRY_BYTES ? length : 0;
            }
            shard.ensureRoomLocked(newKeys);
            final long[] locations = new long[keys.length];
            if (!prepareAll(keys, values, locations))
            {
                shard.reclaimForBatchLocked(regular);
                if (!prepareAll(keys, values, locations))
                {
                    return false;
                }
            }
            for (int i = 0; i < keys.length; i++)
            {
                final byte[] kb = key(keys[i]);
                final long h = hash(kb);
                shard.linkLocked(h, key, 0, kb.length, locations[i], false, c.entry);
            }
            shard.maybeCompactLocked(written);
            return true;
        }
        finally
        {
            shard.unlockWrite(stamp);
        }
    }

    private boolean prepareAll(final int[] keys, final byte[][] values, final long[] locations)
    {
        for (int i = 0; i < keys.length; i++)
        {
            final byte[] kb = key(keys[i]);
            key.wrap(kb);
            value.wrap(values[i]);
            locations[i] = shard.prepareLocked(key, 0, kb.length, value, 0, values[i].length);
            if (locations[i] == Arena.NO_SPACE)
            {
                for (int j = i - 1; j >= 0; j--)
                {
                    shard.abandonLocked(locations[j], key(keys[j]).length, values[j].length);
                }
                return false;
            }
        }
        return true;
    }

    /**
     * One tick of the expiry sweep: expired entries, then a step of any compaction under way.
     */
    void tick()
    {
        shard.sweep(256, c.entry, c.changes);
    }

    void clear()
    {
        shard.clear();
    }

    void verify()
    {
        shard.verifyIntegrity(new EntryCursor(), c);
    }

    Arena arena()
    {
        return shard.arena;
    }

    Compactor compactor()
    {
        return shard.compactor;
    }

    /**
     * The segment being evacuated, or {@code null}.
     */
    Segment victim()
    {
        return shard.arena.evacuating();
    }

    long moved()
    {
        return shard.compactor.movedBytes;
    }

    @Override
    public void close()
    {
        shard.free();
    }
}
