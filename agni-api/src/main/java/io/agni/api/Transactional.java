package io.agni.api;

/**
 * An optional interface of a store that can run a transaction: several of its operations, called by one thread, with
 * no operation of any other thread in between, recovered after a crash all or nothing. A server serves Redis's
 * {@code MULTI}/{@code EXEC} with it on any store that has it, found with {@link AgniStore#transactional()}.
 *
 * <p>Every method may be called from any thread; the work happens on the calling thread.
 */
public interface Transactional
{
    /**
     * A flag {@link #write(WriteBatch, byte[])} reports: the operation's key was present just before it.
     */
    byte KEY_PRESENT = 1;

    /**
     * A flag {@link #write(WriteBatch, byte[])} reports: the operation's key was present just before it, with an
     * expiry time.
     */
    byte KEY_EXPIRING = 2;

    /**
     * Runs {@code body} on the calling thread while no operation of another thread on this store runs: the others
     * wait (readers too) until it returns, and those in flight when it is called finish first.
     * <ul>
     * <li><b>Its own operations.</b> The operations {@code body} calls on this store, on the calling thread, run as
     * they always do, each atomic on its own, each refused on its own (by the memory budget, a limit, a read-only
     * store) with nothing of it changed. Nothing is rolled back: if one throws, or {@code body} throws, what the
     * operations before it changed stays, and the exception comes out of this call once the other threads may go
     * on.</li>
     * <li><b>Durability.</b> A store that keeps its data on disk logs everything {@code body} changed as one
     * record, written when {@code body} returns (or throws), so a crash recovers all of it or none; a store whose
     * writes wait for the device waits once, after the others may go on.</li>
     * <li><b>What {@code body} must not do.</b> Wait for another thread that uses this store (it would wait
     * forever), close the store, or take a checkpoint on the calling thread (both refused with
     * {@link IllegalStateException}). A nested call runs its body within the outer one.</li>
     * </ul>
     *
     * @param body what to run; called once.
     * @throws StoreClosedException if the store is closed; {@code body} is not called.
     */
    void runExclusive(Runnable body);

    /**
     * Applies a batch as {@link AgniStore#write(WriteBatch)} does, all or nothing, and reports what each operation
     * found: entry {@code i} of {@code found} becomes {@link #KEY_PRESENT} if the key of operation {@code i} was
     * present just before it (at the batch's instant, after the batch's earlier operations), with
     * {@link #KEY_EXPIRING} added if it also had an expiry time, and {@code 0} if it was absent. So a delete's entry
     * says whether it removed a key, an expire's whether the key was there to expire, a persist's whether it removed
     * an expiry time. What {@code found} holds after the call threw is unspecified.
     *
     * @param batch the writes; not changed.
     * @param found at least {@code batch.size()} entries.
     * @throws IllegalArgumentException  if {@code found} is shorter than the batch.
     * @throws EntryTooLargeException    if a key or value is longer than its limit; nothing changed.
     * @throws CapacityExceededException if the batch's entries do not fit in the memory budget; nothing changed.
     * @throws StoreClosedException      if the store is closed.
     */
    void write(WriteBatch batch, byte[] found);
}
