package io.agni.store;

import io.agni.api.EvictionPolicy;
import io.agni.api.Evicting;
import io.agni.api.ScanResult;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreStats;
import io.agni.store.shard.Shard;
import io.agni.store.shard.ThreadContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The operations over a whole store rather than a key: scan, randomKey, size, clear, stats, the expiry pass and the
 * integrity check, and, as the store's {@link Evicting} capability, its eviction policy and memory budget. Each
 * enters the store's {@link OperationGate} and visits every shard in turn (clear: every shard at once when the
 * store logs).
 */
final class WholeStore implements Evicting
{
    /**
     * randomKey's quick tries: shards sampled, and slots probed in each, before it walks every table.
     */
    static final int RANDOM_KEY_SAMPLES = 8;
    static final int RANDOM_KEY_PROBES = 64;
    private static final Logger LOG = LoggerFactory.getLogger(WholeStore.class);

    private final Shards shards;
    private final Shard[] all;
    private final StoreScan scan;

    WholeStore(final Shards shards)
    {
        this.shards = shards;
        this.all = shards.all;
        this.scan = new StoreScan(shards);
    }

    /**
     * The cursor holds the shard index in its high 32 bits and a position among that shard's home buckets, in
     * reverse-binary order, in its low bits (docs/architecture.md, "Scan"). As Redis's SCAN, one step stops at the
     * end of the bucket in which it has seen {@code count} live keys (matching {@code pattern} or not), or after
     * {@code 10 * count} buckets but at least 4,096, going on into the next shards when one ends first: a default
     * step (count 10) returns about ten keys when the store has that many. A cursor with a bit this store has never
     * returned (a shard it does not have, a bucket bit no cursor of that shard had) is refused, without a stack
     * trace; every cursor it returned is taken back.
     */
    ScanResult scan(final long cursor, final byte[] pattern, final int count)
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("count must be at least 1: count=" + count);
        }
        return scanStep(cursor, pattern, StoreScan.bucketsFor(count), count);
    }

    /**
     * A scan step that stops after {@code buckets} buckets however many keys it sees: for tests of the cursor.
     *
     * @param cursor  0 to start, else a cursor a step returned.
     * @param pattern glob pattern or null.
     * @param buckets the buckets to visit, at least 1.
     * @return the keys found and the next cursor.
     */
    ScanResult scanBuckets(final long cursor, final byte[] pattern, final int buckets)
    {
        return scanStep(cursor, pattern, buckets, Integer.MAX_VALUE);
    }

    private ScanResult scanStep(final long cursor, final byte[] pattern, final int buckets, final int liveKeys)
    {
        final ThreadContext c = shards.gate.enter();
        try
        {
            return scan.step(cursor, pattern, buckets, liveKeys, c);
        }
        finally
        {
            shards.gate.exit(c);
        }
    }

    /**
     * A few probes from a random slot of a random shard; only when they find nothing does it walk every shard's
     * table once from a random shard (docs/architecture.md, "randomKey").
     */
    byte[] randomKey()
    {
        final ThreadContext c = shards.gate.enter();
        try
        {
            final ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int attempt = 0; attempt < RANDOM_KEY_SAMPLES; attempt++)
            {
                final Shard s = all[random.nextInt(all.length)];
                if (s.count() > 0)
                {
                    final byte[] key = s.liveKeyFrom(random.nextInt(), RANDOM_KEY_PROBES, c.entry);
                    if (key != null)
                    {
                        return key;
                    }
                }
            }
            final int first = random.nextInt(all.length);
            for (int j = 0; j < all.length; j++)
            {
                final byte[] key = all[(first + j) & shards.mask].liveKeyFrom(random.nextInt(), Integer.MAX_VALUE,
                    c.entry);
                if (key != null)
                {
                    return key;
                }
            }
            return null;
        }
        finally
        {
            shards.gate.exit(c);
        }
    }

    long size()
    {
        final ThreadContext c = shards.gate.enter();
        try
        {
            long sum = 0;
            for (final Shard s : all)
            {
                sum += s.count();
            }
            return sum;
        }
        finally
        {
            shards.gate.exit(c);
        }
    }

    void clear()
    {
        final ThreadContext c = shards.gate.enter();
        try
        {
            if (c.changes == null)
            {
                for (final Shard s : all)
                {
                    s.clear();
                }
            }
            else
            {
                clearLogged(c);
            }
        }
        finally
        {
            shards.gate.exit(c);
        }
        shards.memory.reclaim();
    }

    StoreStats stats()
    {
        final ThreadContext c = shards.gate.enter();
        try
        {
            shards.memory.reclaim();
            long entries = 0;
            long expiring = 0;
            long expired = 0;
            long evicted = 0;
            long rejected = 0;
            long live = 0;
            for (final Shard s : all)
            {
                entries += s.count();
                expiring += s.expiringCount();
                expired += s.expiredCount();
                evicted += s.evictedCount();
                rejected += s.rejectedCount();
                live += s.liveBytes();
            }
            return StoreStats.builder()
                .entries(entries)
                .entriesWithExpiry(expiring)
                .hits(shards.gate.hits())
                .misses(shards.gate.misses())
                .expired(expired)
                .evicted(evicted)
                .rejectedWrites(rejected)
                .offHeapBytes(shards.budget.reserved())
                .liveEntryBytes(live)
                .budgetBytes(shards.budget.limit())
                .build();
        }
        finally
        {
            shards.gate.exit(c);
        }
    }

    /**
     * What a write does when the budget cannot hold it ({@link OffHeapStoreBuilder#evictionPolicy}).
     *
     * @return the policy.
     */
    @Override
    public EvictionPolicy evictionPolicy()
    {
        return shards.evictionPolicy;
    }

    /**
     * Changes what a write does when the budget cannot hold it, for every write that starts after this returns. Takes
     * each shard's write lock in turn. A policy that evicts adds one byte per index slot for the read marks
     * (docs/eviction.md); if the budget refuses them, eviction in that shard goes on without them until its index
     * next grows.
     *
     * @param policy the policy.
     */
    @Override
    public void evictionPolicy(final EvictionPolicy policy)
    {
        Objects.requireNonNull(policy, "policy");
        final ThreadContext c = shards.gate.enter();
        try
        {
            for (final Shard s : all)
            {
                final long stamp = s.lockWrite(null);
                try
                {
                    s.evictionPolicyLocked(policy);
                }
                finally
                {
                    s.unlockWrite(stamp);
                }
            }
            shards.evictionPolicy = policy;
        }
        finally
        {
            shards.gate.exit(c);
        }
    }

    /**
     * The memory budget ({@link OffHeapStoreBuilder#maxMemory}, or as last changed by {@link #maxMemory(long)}).
     *
     * @return the budget in bytes.
     */
    @Override
    public long maxMemory()
    {
        return shards.budget.limit();
    }

    /**
     * Changes the memory budget while the store runs (docs/architecture.md, "A budget lowered at run time"). Raising
     * it takes effect at once. Lowering it below what the store holds refuses new memory until the store is back
     * within it; each write of a value meanwhile (and each tick of the expiry sweep, and each batch) takes a bounded
     * step towards it in its shard: it releases the spare segment, moves a step of entries out of the segment with
     * the fewest live bytes and, if the policy evicts, evicts by the policy beyond its own need to make room for
     * them, so segments empty and are released. Without eviction, only garbage is reclaimed. The index tables do not
     * shrink, and each shard keeps its head segment: a budget below those is never reached. The key and value limits
     * stay as the store was opened with. Any thread.
     *
     * @param bytes the new budget in bytes: at least {@link OffHeapStoreBuilder#MIN_BUDGET_PER_SHARD} per shard, at
     *              most the JVM's direct-memory limit.
     * @throws IllegalArgumentException if {@code bytes} is out of that range; nothing changed.
     * @throws StoreClosedException     if the store is closed.
     */
    @Override
    public void maxMemory(final long bytes)
    {
        OffHeapStoreBuilder.checkBudget(bytes, all.length);
        final ThreadContext c = shards.gate.enter();
        try
        {
            final long before = shards.budget.limit();
            shards.budget.limit(bytes);
            shards.memory.reclaim();
            LOG.debug("{}: budget changed from {} to {} bytes, {} held", shards.name, before, bytes, shards.budget.reserved());
        }
        finally
        {
            shards.gate.exit(c);
        }
    }

    /**
     * Runs one full pass of the expiry sweep over every shard now, on the calling thread. Any thread.
     *
     * @return the number of expired entries reclaimed.
     * @throws StoreClosedException if the store is closed.
     */
    int sweepExpired()
    {
        final ThreadContext c = shards.gate.enter();
        try
        {
            int removed = 0;
            for (final Shard s : all)
            {
                removed += s.sweep(Integer.MAX_VALUE, c.entry, c.changes);
            }
            return removed;
        }
        finally
        {
            shards.gate.exit(c);
        }
    }

    /**
     * Checks every shard's structural invariants (entry and expiry counts, live and held byte accounting, every key
     * reachable exactly once) and that the budget holds. For agni-store's tests, so package-private: not API. Takes
     * each shard's write lock in turn.
     *
     * @throws IllegalStateException naming the first broken invariant.
     */
    void verifyIntegrity()
    {
        final ThreadContext c = shards.gate.enter();
        try
        {
            long held = 0;
            for (final Shard s : all)
            {
                s.verifyIntegrity(c.entry, c);
                held += s.heldBytes();
            }
            shards.memory.verifyAccounting(held);
        }
        finally
        {
            shards.gate.exit(c);
        }
    }

    /**
     * Clears under every shard's write lock at once, so that no write of another thread falls between the logged
     * clear and the clearing of its shard (replay would keep it, the store would not).
     */
    private void clearLogged(final ThreadContext c)
    {
        final long[] stamps = new long[all.length];
        int locked = 0;
        try
        {
            for (; locked < all.length; locked++)
            {
                stamps[locked] = all[locked].lockWrite(c.changes);
            }
            c.changes.clear();
            for (final Shard s : all)
            {
                s.clearLocked();
            }
        }
        finally
        {
            for (int i = locked - 1; i >= 0; i--)
            {
                all[i].unlockWrite(stamps[i]);
            }
        }
    }
}
