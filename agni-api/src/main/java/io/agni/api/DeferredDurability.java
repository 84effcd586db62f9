package io.agni.api;

/**
 * An optional interface of a store whose writes wait for the device before they return
 * ({@link Durability#PARANOID}): a thread that serves many clients, such as a server's event loop, can let its
 * writes return at once and wait for all of them together, once, before it answers any of the clients (group
 * commit, as Redis's {@code appendfsync always} syncs once per event-loop iteration).
 *
 * <p>The deferral belongs to the calling thread: other threads' writes still wait for their own sync. A thread that
 * defers must call {@link #awaitDurable()} before it tells anyone that a write it made since the last call is done.
 * Readers, in this thread and in others, can see a deferred write before it is durable.
 *
 * <p>Found with {@link AgniStore#deferredDurability()}, which is empty for a store whose writes do not wait.
 */
public interface DeferredDurability
{
    /**
     * Whether a write, unless deferred, waits for its log record to be on the device before it returns. Only then
     * do {@link #deferDurability} and {@link #awaitDurable} change anything. Any thread.
     *
     * @return {@code true} for a store opened with {@link Durability#PARANOID}.
     */
    boolean writesAwaitDurable();

    /**
     * Makes the calling thread's writes return before their records are durable ({@code true}), or wait for them
     * again ({@code false}). Only the calling thread is affected, from its next write on. Switching back does not
     * wait for the writes already deferred: call {@link #awaitDurable()} for those.
     *
     * @param defer whether the calling thread's writes return at once.
     */
    void deferDurability(boolean defer);

    /**
     * Returns once every write the calling thread made on this store is durable, sharing one sync with every other
     * thread that waits at the same time; at once when there is nothing to wait for. The calling thread only.
     *
     * @throws StoreReadOnlyException if the sync failed: the writes since the last successful call may be lost after
     *                                a crash, and the store refuses writes until it is reopened.
     * @throws StoreClosedException   if the store is closed.
     */
    void awaitDurable();
}
