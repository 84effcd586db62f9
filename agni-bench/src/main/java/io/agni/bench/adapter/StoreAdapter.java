package io.agni.bench.adapter;

import org.agrona.MutableDirectBuffer;

/**
 * The one seam between the benchmarks and a store: read a key's value into a reused buffer, write a value, say how
 * much off-heap memory is held, close. Each implementation uses its store the way a careful user of that store
 * would, on one access path (zero-copy or {@code byte[]}), and keeps the store's semantics comparable: a written
 * value is copied, never kept by reference, and a read copies the value out.
 *
 * <p>Implementations are called by any number of threads at once, as the store they wrap allows.
 */
public interface StoreAdapter extends AutoCloseable
{
    /**
     * Returned by {@link #get} when the key is absent.
     */
    int NOT_FOUND = -1;

    /**
     * Copies a value a store returned as an array into the caller's buffer, as every {@code byte[]} adapter does.
     *
     * @param value the value, or {@code null} for a miss.
     * @param dst   the caller's buffer.
     * @return the value's length, or {@link #NOT_FOUND}.
     */
    static int copyOut(final byte[] value, final MutableDirectBuffer dst)
    {
        if (value == null)
        {
            return NOT_FOUND;
        }
        dst.putBytes(0, value);
        return value.length;
    }

    /**
     * Copies the value of one key into {@code dst} from offset {@code 0}.
     *
     * @param keys  the key set.
     * @param index which key of the set.
     * @param dst   the caller's reused buffer; it can grow.
     * @return the value's length, or {@link #NOT_FOUND}.
     */
    int get(KeySet keys, int index, MutableDirectBuffer dst);

    /**
     * Sets one key to a value, inserting or overwriting.
     *
     * @param keys  the key set.
     * @param index which key of the set.
     * @param value the value; the store keeps a copy of its bytes.
     * @throws IllegalStateException if the store refused the write (its capacity is too small).
     */
    void put(KeySet keys, int index, Value value);

    /**
     * The off-heap memory the store holds now, by the best method available for it.
     *
     * @return bytes held and how they were measured.
     */
    OffHeapUsage offHeapUsage();

    /**
     * Closes the store and frees its memory.
     */
    @Override
    void close();

    /**
     * Off-heap bytes held by a store and the method that found them.
     *
     * @param bytes  the bytes.
     * @param method how they were measured, for the report.
     */
    record OffHeapUsage(long bytes, String method)
    {
    }
}
