package io.agni.api;

/**
 * An optional interface of a store that can keep its data in a directory: what a server needs to serve Redis's
 * {@code SAVE}, {@code BGSAVE}, {@code LASTSAVE} and {@code INFO persistence} on it without knowing the store's
 * class. A caller finds it with {@link AgniStore#checkpointing()}, which is empty for a store that keeps nothing on
 * disk, so the {@link #durability()} of one it returns is never {@link Durability#NONE}.
 *
 * <p>Every method may be called from any thread.
 */
public interface Checkpointing
{
    /**
     * What the store keeps across a restart.
     *
     * @return the preset it was opened with: {@link Durability#FAST}, {@link Durability#DURABLE} or
     * {@link Durability#PARANOID}.
     */
    Durability durability();

    /**
     * Writes a snapshot of the store now, on the calling thread, and returns once it is published. Writers go on
     * while it is taken.
     *
     * @throws IllegalStateException if called inside the store's exclusive section ({@link Transactional}).
     * @throws AgniException         if the snapshot cannot be written; the previous one stays.
     * @throws java.io.UncheckedIOException if the snapshot cannot be written for an I/O failure; the previous one
     *                                      stays.
     */
    void checkpoint();

    /**
     * Starts a checkpoint on a thread of the store's own and returns at once, unless one is running already
     * (started this way or by the store itself). Its outcome shows in {@link #checkpointStatus()}.
     *
     * @return {@code true} if a checkpoint was started, {@code false} if one was already running.
     * @throws StoreClosedException if the store is closed.
     */
    boolean checkpointInBackground();

    /**
     * What the store's checkpoints have done so far and whether one is running.
     *
     * @return a snapshot of the status.
     */
    CheckpointStatus checkpointStatus();
}
