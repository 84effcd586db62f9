package io.agni.store.persist;

import org.agrona.DirectBuffer;

/**
 * What a store gives its persistence to rebuild its state while it opens, from a snapshot and the log: before any
 * other thread sees the store, and without logging. Its entries for a snapshot come from a {@link SnapshotSource}.
 */
public interface RecoveryTarget
{
    /**
     * Sets a key to a value, replacing what it had; an expiry time at or before now leaves the key absent.
     *
     * @param buffer         holds the key and the value.
     * @param keyOffset      where the key starts.
     * @param keyLength      its length.
     * @param valueOffset    where the value starts.
     * @param valueLength    its length.
     * @param expireAtMillis the absolute expiry time, 0 for none.
     */
    void recoverSet(DirectBuffer buffer, int keyOffset, int keyLength, int valueOffset, int valueLength,
        long expireAtMillis);

    /**
     * Removes a key if present.
     *
     * @param buffer    holds the key.
     * @param keyOffset where it starts.
     * @param keyLength its length.
     */
    void recoverDelete(DirectBuffer buffer, int keyOffset, int keyLength);

    /**
     * Sets a present key's expiry time (0 removes it); an absent key stays absent.
     *
     * @param buffer         holds the key.
     * @param keyOffset      where it starts.
     * @param keyLength      its length.
     * @param expireAtMillis the absolute expiry time, 0 for none.
     */
    void recoverExpire(DirectBuffer buffer, int keyOffset, int keyLength, long expireAtMillis);

    /**
     * Removes every entry.
     */
    void recoverClear();

    /**
     * How many entries recovery evicted to stay inside the budget (a store that evicts lays the replayed entries
     * out anew, and they may not fit as they did). Recovery does not log them, so a store that evicted any is
     * checkpointed at once: otherwise the next recovery would bring them back.
     *
     * @return the entries evicted since the state was created.
     */
    long recoveryEvictions();

    /**
     * The handlers that load a snapshot's entries, each on a thread of its own ({@link ParallelSnapshotLoad}): they
     * are called at once, each entry once, in no particular order. One handler (the default: {@link #recoverSet})
     * loads on the opening thread.
     *
     * @return one or more handlers.
     */
    default java.util.List<io.agni.store.snapshot.SnapshotEntryHandler> snapshotHandlers()
    {
        return java.util.List.of(this::recoverSet);
    }
}
