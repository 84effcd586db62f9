package io.agni.store.shard;

import io.agni.store.arena.EntryCursor;
import io.agni.store.arena.Segment;
import io.agni.store.index.IndexLayout;
import io.agni.store.index.IndexTable;
import io.agni.store.scan.GlobMatcher;

import java.io.IOException;
import java.util.List;

/**
 * Read-only walks over a shard's whole index table: a SCAN step, RANDOMKEY's probe and a snapshot's visit of every
 * live entry. None removes anything: expired entries are skipped, and removing them is the sweep's work
 * ({@link ShardTable}). The caller holds the shard's read or write lock, so the table and segments are stable.
 */
final class TableWalks
{
    private TableWalks()
    {
    }

    /**
     * One scan step over home buckets in reverse-binary order (as Redis's {@code dictScan}), which returns every key
     * present for the whole scan at least once even if the table doubles between steps.
     *
     * @param t            the shard's table.
     * @param segments     the segments its slots point into.
     * @param now          the time entries are judged expired at.
     * @param bucketCursor where to continue, 0 to start.
     * @param buckets      how many buckets to visit at most, at least 1.
     * @param liveKeys     after how many live keys (matching or not) to stop, at the end of a bucket; at least 1.
     * @param pattern      glob pattern or null.
     * @param keys         where found keys are added.
     * @param c            the caller's context; its {@code scannedBuckets} and {@code scannedKeys} are set to the
     *                     buckets visited and the live keys seen.
     * @return the next bucket cursor, 0 when this shard is done.
     */
    static long scan(
        final IndexTable t, final Segment[] segments, final long now,
        final long bucketCursor, final int buckets, final int liveKeys, final byte[] pattern, final List<byte[]> keys,
        final ThreadContext c)
    {
        final EntryCursor e = c.entry;
        final long mask = t.mask;
        long v = bucketCursor;
        int visited = 0;
        int seen = 0;
        do
        {
            final int bucket = (int)(v & mask);
            int i = bucket;
            long slot;
            while ((slot = t.get(i)) != IndexLayout.EMPTY)
            {
                if (t.home(IndexLayout.tagOf(slot)) == bucket)
                {
                    final Segment s = segments[IndexLayout.segmentOf(slot)];
                    if (!e.wrap(s.buffer, s.id, IndexLayout.offsetOf(slot)))
                    {
                        throw ShardTable.corrupt("entry unreadable in scan");
                    }
                    if (!e.isExpired(now))
                    {
                        seen++;
                        if (pattern == null || GlobMatcher.matches(pattern, e.buffer, e.keyOffset, e.keyLength))
                        {
                            final byte[] k = new byte[e.keyLength];
                            e.buffer.getBytes(e.keyOffset, k);
                            keys.add(k);
                        }
                    }
                }
                i = (i + 1) & t.mask;
            }
            v |= ~mask;
            v = Long.reverse(v);
            v++;
            v = Long.reverse(v);
            visited++;
        }
        while (v != 0 && visited < buckets && seen < liveKeys);
        c.scannedBuckets = visited;
        c.scannedKeys = seen;
        return v;
    }

    /**
     * The key of the first live entry at or after slot {@code startSlot}, probing at most {@code maxSlots} slots
     * (RANDOMKEY). Expired entries are skipped, not removed.
     *
     * @param t         the shard's table.
     * @param segments  the segments its slots point into.
     * @param now       the time entries are judged expired at.
     * @param startSlot where to start; reduced to the table's size.
     * @param maxSlots  how many slots to look at, at most the whole table.
     * @param e         a cursor to read entries with.
     * @return a copy of the key, or {@code null} if none was found.
     */
    static byte[] liveKey(
        final IndexTable t, final Segment[] segments, final long now,
        final int startSlot, final int maxSlots, final EntryCursor e)
    {
        final int limit = Math.min(maxSlots, t.capacity());
        int i = startSlot & t.mask;
        for (int examined = 0; examined < limit; examined++)
        {
            final long slot = t.get(i);
            if (slot != IndexLayout.EMPTY)
            {
                final Segment s = segments[IndexLayout.segmentOf(slot)];
                if (!e.wrap(s.buffer, s.id, IndexLayout.offsetOf(slot)))
                {
                    throw ShardTable.corrupt("entry unreadable in randomKey");
                }
                if (!e.isExpired(now))
                {
                    final byte[] key = new byte[e.keyLength];
                    e.buffer.getBytes(e.keyOffset, key);
                    return key;
                }
            }
            i = (i + 1) & t.mask;
        }
        return null;
    }

    /**
     * Visits every entry not expired at {@code now}, in slot order.
     *
     * @param t        the shard's table.
     * @param segments the segments its slots point into.
     * @param now      the time entries are judged expired at.
     * @param e        a cursor to read entries with.
     * @param visitor  receives the entries.
     * @throws IOException when the visitor fails.
     */
    static void forEachLive(
        final IndexTable t, final Segment[] segments, final long now, final EntryCursor e, final EntryVisitor visitor)
        throws IOException
    {
        for (int i = 0; i < t.capacity(); i++)
        {
            final long slot = t.get(i);
            if (slot == IndexLayout.EMPTY)
            {
                continue;
            }
            final Segment s = segments[IndexLayout.segmentOf(slot)];
            if (!e.wrap(s.buffer, s.id, IndexLayout.offsetOf(slot)))
            {
                throw ShardTable.corrupt("entry unreadable in a snapshot");
            }
            if (!e.isExpired(now))
            {
                visitor.visit(e.buffer, e.keyOffset, e.keyLength, e.valueOffset, e.valueLength,
                    e.hasExpiry() ? e.expireAt : 0);
            }
        }
    }
}
