package io.agni.bench.durability;

/**
 * One store under the durable fill, opened on a fresh directory with one durability setting.
 */
interface DurableTarget extends AutoCloseable
{
    /**
     * Writes one key; returns when the store acknowledges it under its setting.
     *
     * @param key   the key.
     * @param value the value.
     * @throws Exception when the store fails.
     */
    void put(byte[] key, byte[] value) throws Exception;

    /**
     * Writes {@code count} keys from {@code from} as one atomic batch.
     *
     * @param keys   the keys.
     * @param values the values, one per key.
     * @param from   the first index.
     * @param count  how many.
     * @throws Exception when the store fails.
     */
    void putBatch(byte[][] keys, byte[][] values, int from, int count) throws Exception;

    /**
     * Returns once everything acknowledged is on the device.
     *
     * @throws Exception when the store fails.
     */
    void settle() throws Exception;

    /**
     * Reads one key.
     *
     * @param key the key.
     * @return its value, or null if the store does not have it.
     * @throws Exception when the store fails.
     */
    byte[] get(byte[] key) throws Exception;

    /**
     * Makes everything acknowledged safe on the device and closes the store, the way a job that has finished its
     * writes ends: by default {@link #settle()}, then {@link #close()}.
     *
     * @throws Exception when the store fails.
     */
    default void settleAndClose() throws Exception
    {
        settle();
        close();
    }

    /**
     * Whether several threads may call {@link #put} at once.
     *
     * @return whether the target is thread-safe for writes.
     */
    default boolean concurrent()
    {
        return true;
    }
}
