package io.agni.api;

/**
 * A snapshot of a store's counters and memory. Counters are read one by one, not under a global lock, so a
 * snapshot taken while other threads write may mix moments; each value on its own is exact.
 *
 * @param entries          entries held, including expired ones not reclaimed yet.
 * @param entriesWithExpiry entries that carry an expiry time.
 * @param hits             reads that found a live entry.
 * @param misses           reads that found none (absent or expired).
 * @param expired          entries removed because their expiry time passed (on access or by the sweep).
 * @param evicted          entries removed to make room under the memory budget.
 * @param rejectedWrites   writes refused because the memory budget was reached.
 * @param offHeapBytes     off-heap bytes the store holds now: index tables and entry segments.
 * @param liveEntryBytes   bytes of the live entries (headers, keys and values) inside {@link #offHeapBytes}.
 * @param budgetBytes      the memory budget in bytes.
 */
public record StoreStats(
    long entries,
    long entriesWithExpiry,
    long hits,
    long misses,
    long expired,
    long evicted,
    long rejectedWrites,
    long offHeapBytes,
    long liveEntryBytes,
    long budgetBytes)
{
    /**
     * Live entry bytes over off-heap bytes held: {@code 1.0} is perfect packing.
     *
     * @return the memory utilisation, {@code 0} for a store that holds nothing.
     */
    public double utilisation()
    {
        return offHeapBytes == 0 ? 0.0 : (double)liveEntryBytes / offHeapBytes;
    }
}
