package io.agni.api;

/**
 * An optional interface of a store that can keep its data in a directory: what a server needs to serve Redis's
 * {@code SAVE}, {@code BGSAVE}, {@code LASTSAVE} and {@code INFO persistence} on it without knowing the store's
 * class. A server checks for it with {@code instanceof}; a store that does not implement it, or whose
 * {@link #durability()} is {@link Durability#NONE}, keeps nothing on disk.
 *
 * <p>Every method may be called from any thread.
 */
public interface Checkpointing
{
    /**
     * What the store keeps across a restart.
     *
     * @return the preset it was opened with; {@link Durability#NONE} when it keeps nothing on disk.
     */
    Durability durability();

    /**
     * Writes a snapshot of the store now, on the calling thread, and returns once it is published. Writers go on
     * while it is taken.
     *
     * @throws IllegalStateException if the store keeps nothing on disk ({@link Durability#NONE}).
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
     * @throws IllegalStateException if the store keeps nothing on disk ({@link Durability#NONE}).
     * @throws StoreClosedException  if the store is closed.
     */
    boolean checkpointInBackground();

    /**
     * What the store's checkpoints have done so far and whether one is running.
     *
     * @return a snapshot of the status; {@link CheckpointStatus#NONE} when the store keeps nothing on disk.
     */
    CheckpointStatus checkpointStatus();
}
