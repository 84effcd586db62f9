package io.agni.api;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.util.Arrays;
import java.util.Objects;

/**
 * Writes gathered to be applied as one step by {@link AgniStore#write(WriteBatch)}, as RocksDB's
 * {@code WriteBatch}: sets (with an optional expiry), deletes, expiry changes and persists, in the order they were
 * added. What each operation does, and what the store guarantees for the whole batch, is said at
 * {@link AgniStore#write(WriteBatch)}.
 *
 * <h2>Adding</h2>
 * Every operation has a {@code byte[]} form and a zero-copy form that takes keys and values as
 * {@code (DirectBuffer, offset, length)}. Each one <b>copies</b> its key and value into the batch's own buffer, so
 * the caller may change or reuse its arrays and buffers as soon as the call returns. Each returns the batch, so calls
 * can be chained. A call that throws adds nothing: a {@code null} key, value or mode gets a
 * {@link NullPointerException}, a negative length an {@link IllegalArgumentException}, a range outside the
 * caller's buffer an {@link IndexOutOfBoundsException} (checked by the batch, also when Agrona's bounds checks are
 * off), and a time given with an
 * {@link ExpiryMode} that ignores it an {@link IllegalArgumentException} ({@link ExpiryMode#checkTime}). The lengths
 * of keys and values are checked against a store's limits when the batch is written, not here.
 *
 * <h2>Memory</h2>
 * The batch's buffer and its per-operation arrays grow as needed and are kept by {@link #clear()}: a batch cleared
 * and filled again with as many operations and bytes allocates nothing. A batch holds at most {@link #MAX_BYTES}
 * bytes of keys and values.
 *
 * <h2>Reading (for implementations of {@link AgniStore})</h2>
 * {@link #size()} operations, numbered from {@code 0} in the order they were added; operation {@code i} is
 * {@link #operation(int) operation(i)}, its key the {@link #keyLength(int) keyLength(i)} bytes at
 * {@link #keyOffset(int) keyOffset(i)} in {@link #buffer()}, its value the {@link #valueLength(int) valueLength(i)}
 * bytes at {@link #valueOffset(int) valueOffset(i)}, and its expiry {@link #expiryMode(int) expiryMode(i)} with
 * {@link #expiryTime(int) expiryTime(i)}. Nothing is copied or allocated to read them; the buffer's content is valid
 * until the batch is next changed.
 *
 * <h2>Threads</h2>
 * Not thread-safe: one thread fills a batch, and it must not be changed while a store writes it. A store only reads
 * it, during {@link AgniStore#write(WriteBatch)}, and keeps nothing of it.
 */
public final class WriteBatch
{
    /**
     * The most bytes of keys and values one batch holds (1 GiB).
     */
    public static final int MAX_BYTES = 1 << 30;

    private static final int INITIAL_OPERATIONS = 16;
    private static final int INITIAL_BYTES = 256;

    /**
     * What one operation of a batch does.
     */
    public enum Operation
    {
        /**
         * Sets the key to the value, with an expiry mode as {@link AgniStore}'s conditional set takes one
         * ({@link #set(byte[], byte[], ExpiryMode, long)}).
         */
        SET,

        /**
         * Removes the key ({@link #delete(byte[])}).
         */
        DELETE,

        /**
         * Sets the expiry time of the key if it is present, at an absolute time ({@link ExpiryMode#AT},
         * {@link #expire(byte[], long)}) or after a duration ({@link ExpiryMode#AFTER},
         * {@link #expireAfter(byte[], long)}).
         */
        EXPIRE,

        /**
         * Removes the expiry time of the key if it is present ({@link #persist(byte[])}).
         */
        PERSIST
    }

    private final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(INITIAL_BYTES);
    private int byteLength;
    private int size;
    private Operation[] operations = new Operation[INITIAL_OPERATIONS];
    private ExpiryMode[] modes = new ExpiryMode[INITIAL_OPERATIONS];
    private long[] times = new long[INITIAL_OPERATIONS];
    private int[] keyOffsets = new int[INITIAL_OPERATIONS];
    private int[] keyLengths = new int[INITIAL_OPERATIONS];
    private int[] valueLengths = new int[INITIAL_OPERATIONS];

    /**
     * An empty batch.
     */
    public WriteBatch()
    {
    }

    // ------------------------------------------------------------------------------------------------------------
    // Adding
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Adds a set of a key to a value with no expiry time (as {@link AgniStore#set(byte[], byte[])}).
     *
     * @param key   the key; copied.
     * @param value the value, possibly empty; copied.
     * @return this batch.
     * @throws IllegalArgumentException if the batch would hold more than {@link #MAX_BYTES} bytes.
     */
    public WriteBatch set(final byte[] key, final byte[] value)
    {
        return set(key, value, ExpiryMode.CLEAR, 0);
    }

    /**
     * Adds a set of a key to a value with an expiry mode, as {@link AgniStore}'s conditional set writes one
     * (without a condition): {@link ExpiryMode#CLEAR} no expiry time, {@link ExpiryMode#KEEP} the one the key has
     * at this point of the batch, {@link ExpiryMode#AT} the absolute time {@code expiryMillis},
     * {@link ExpiryMode#AFTER} the duration {@code expiryMillis} from the batch's instant. A time at or before that
     * instant removes the key.
     *
     * @param key          the key; copied.
     * @param value        the value, possibly empty; copied.
     * @param expiryMode   what happens to the expiry time.
     * @param expiryMillis with {@link ExpiryMode#AT} the absolute expiry time, with {@link ExpiryMode#AFTER} the
     *                     time to live, in milliseconds; {@code 0} with the other modes.
     * @return this batch.
     * @throws IllegalArgumentException if {@code expiryMode} ignores the time and it is not {@code 0}, or the batch
     *                                  would hold more than {@link #MAX_BYTES} bytes.
     */
    public WriteBatch set(final byte[] key, final byte[] value, final ExpiryMode expiryMode, final long expiryMillis)
    {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(expiryMode, "expiryMode").checkTime(expiryMillis);
        final int at = reserve(key.length, value.length);
        bytes.putBytes(at, key);
        bytes.putBytes(at + key.length, value);
        return add(Operation.SET, at, key.length, value.length, expiryMode, expiryMillis);
    }

    /**
     * The zero-copy form of {@link #set(byte[], byte[])}: the key and value are copied from the caller's buffers.
     *
     * @param key         the buffer holding the key.
     * @param keyOffset   where the key starts.
     * @param keyLength   the key's length in bytes.
     * @param value       the buffer holding the value.
     * @param valueOffset where the value starts.
     * @param valueLength the value's length in bytes, possibly {@code 0}.
     * @return this batch.
     * @throws IllegalArgumentException  if a length is negative, or the batch would hold more than
     *                                   {@link #MAX_BYTES} bytes.
     * @throws IndexOutOfBoundsException if a range lies outside its buffer.
     */
    public WriteBatch set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return set(key, keyOffset, keyLength, value, valueOffset, valueLength, ExpiryMode.CLEAR, 0);
    }

    /**
     * The zero-copy form of {@link #set(byte[], byte[], ExpiryMode, long)}: the key and value are copied from the
     * caller's buffers.
     *
     * @param key          the buffer holding the key.
     * @param keyOffset    where the key starts.
     * @param keyLength    the key's length in bytes.
     * @param value        the buffer holding the value.
     * @param valueOffset  where the value starts.
     * @param valueLength  the value's length in bytes, possibly {@code 0}.
     * @param expiryMode   what happens to the expiry time.
     * @param expiryMillis with {@link ExpiryMode#AT} the absolute expiry time, with {@link ExpiryMode#AFTER} the
     *                     time to live, in milliseconds; {@code 0} with the other modes.
     * @return this batch.
     * @throws IllegalArgumentException  if a length is negative, {@code expiryMode} ignores the time and it is not
     *                                   {@code 0}, or the batch would hold more than {@link #MAX_BYTES} bytes.
     * @throws IndexOutOfBoundsException if a range lies outside its buffer.
     */
    public WriteBatch set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final ExpiryMode expiryMode, final long expiryMillis)
    {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(expiryMode, "expiryMode").checkTime(expiryMillis);
        checkRange(key, keyOffset, keyLength, "key");
        checkRange(value, valueOffset, valueLength, "value");
        final int at = reserve(keyLength, valueLength);
        bytes.putBytes(at, key, keyOffset, keyLength);
        bytes.putBytes(at + keyLength, value, valueOffset, valueLength);
        return add(Operation.SET, at, keyLength, valueLength, expiryMode, expiryMillis);
    }

    /**
     * Adds a removal of a key (as {@link AgniStore#delete(byte[])}); an absent key stays absent.
     *
     * @param key the key; copied.
     * @return this batch.
     * @throws IllegalArgumentException if the batch would hold more than {@link #MAX_BYTES} bytes.
     */
    public WriteBatch delete(final byte[] key)
    {
        return addKey(Operation.DELETE, key, ExpiryMode.CLEAR, 0);
    }

    /**
     * The zero-copy form of {@link #delete(byte[])}.
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @return this batch.
     * @throws IllegalArgumentException  if the length is negative, or the batch would hold more than
     *                                   {@link #MAX_BYTES} bytes.
     * @throws IndexOutOfBoundsException if the range lies outside the buffer.
     */
    public WriteBatch delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return addKey(Operation.DELETE, key, keyOffset, keyLength, ExpiryMode.CLEAR, 0);
    }

    /**
     * Adds a change of a key's expiry time to an absolute time, if the key is present at this point of the batch
     * (as {@link AgniStore#expire(byte[], long, ExpireCondition)} with {@link ExpireCondition#ALWAYS}). A time at
     * or before the batch's instant removes the key.
     *
     * @param key            the key; copied.
     * @param expireAtMillis the absolute expiry time in milliseconds since the epoch, on the store's clock.
     * @return this batch.
     * @throws IllegalArgumentException if the batch would hold more than {@link #MAX_BYTES} bytes.
     */
    public WriteBatch expire(final byte[] key, final long expireAtMillis)
    {
        return addKey(Operation.EXPIRE, key, ExpiryMode.AT, expireAtMillis);
    }

    /**
     * The zero-copy form of {@link #expire(byte[], long)}.
     *
     * @param key            the buffer holding the key.
     * @param keyOffset      where the key starts.
     * @param keyLength      the key's length in bytes.
     * @param expireAtMillis the absolute expiry time in milliseconds since the epoch, on the store's clock.
     * @return this batch.
     * @throws IllegalArgumentException  if the length is negative, or the batch would hold more than
     *                                   {@link #MAX_BYTES} bytes.
     * @throws IndexOutOfBoundsException if the range lies outside the buffer.
     */
    public WriteBatch expire(final DirectBuffer key, final int keyOffset, final int keyLength, final long expireAtMillis)
    {
        return addKey(Operation.EXPIRE, key, keyOffset, keyLength, ExpiryMode.AT, expireAtMillis);
    }

    /**
     * Adds a change of a key's expiry time to a duration from the batch's instant on the store's clock, if the key
     * is present at this point of the batch (as {@link AgniStore#expireAfter(byte[], long, ExpireCondition)} with
     * {@link ExpireCondition#ALWAYS}). A duration of {@code 0} or less removes the key.
     *
     * @param key            the key; copied.
     * @param durationMillis the time to live in milliseconds, possibly {@code 0} or negative.
     * @return this batch.
     * @throws IllegalArgumentException if the batch would hold more than {@link #MAX_BYTES} bytes.
     */
    public WriteBatch expireAfter(final byte[] key, final long durationMillis)
    {
        return addKey(Operation.EXPIRE, key, ExpiryMode.AFTER, durationMillis);
    }

    /**
     * The zero-copy form of {@link #expireAfter(byte[], long)}.
     *
     * @param key            the buffer holding the key.
     * @param keyOffset      where the key starts.
     * @param keyLength      the key's length in bytes.
     * @param durationMillis the time to live in milliseconds, possibly {@code 0} or negative.
     * @return this batch.
     * @throws IllegalArgumentException  if the length is negative, or the batch would hold more than
     *                                   {@link #MAX_BYTES} bytes.
     * @throws IndexOutOfBoundsException if the range lies outside the buffer.
     */
    public WriteBatch expireAfter(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long durationMillis)
    {
        return addKey(Operation.EXPIRE, key, keyOffset, keyLength, ExpiryMode.AFTER, durationMillis);
    }

    /**
     * Adds a removal of a key's expiry time, if the key is present at this point of the batch (as
     * {@link AgniStore#persist(byte[])}).
     *
     * @param key the key; copied.
     * @return this batch.
     * @throws IllegalArgumentException if the batch would hold more than {@link #MAX_BYTES} bytes.
     */
    public WriteBatch persist(final byte[] key)
    {
        return addKey(Operation.PERSIST, key, ExpiryMode.CLEAR, 0);
    }

    /**
     * The zero-copy form of {@link #persist(byte[])}.
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @return this batch.
     * @throws IllegalArgumentException  if the length is negative, or the batch would hold more than
     *                                   {@link #MAX_BYTES} bytes.
     * @throws IndexOutOfBoundsException if the range lies outside the buffer.
     */
    public WriteBatch persist(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return addKey(Operation.PERSIST, key, keyOffset, keyLength, ExpiryMode.CLEAR, 0);
    }

    /**
     * Removes every operation, keeping the memory the batch has grown to, so that it can be filled again without
     * allocating.
     *
     * @return this batch.
     */
    public WriteBatch clear()
    {
        Arrays.fill(operations, 0, size, null);
        Arrays.fill(modes, 0, size, null);
        size = 0;
        byteLength = 0;
        return this;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Reading
    // ------------------------------------------------------------------------------------------------------------

    /**
     * The number of operations.
     *
     * @return how many operations were added since the batch was made or cleared.
     */
    public int size()
    {
        return size;
    }

    /**
     * Whether the batch has no operation.
     *
     * @return {@code true} if {@link #size()} is {@code 0}.
     */
    public boolean isEmpty()
    {
        return size == 0;
    }

    /**
     * The number of bytes of keys and values the batch holds.
     *
     * @return bytes, at most {@link #MAX_BYTES}.
     */
    public int byteLength()
    {
        return byteLength;
    }

    /**
     * The buffer that holds every operation's key and value, at the offsets the accessors give. A view, not a copy:
     * valid until the batch is next changed; it must not be written to.
     *
     * @return the batch's buffer.
     */
    public DirectBuffer buffer()
    {
        return bytes;
    }

    /**
     * What operation {@code index} does.
     *
     * @param index the operation's number, from {@code 0}, in the order operations were added.
     * @return its kind.
     * @throws IndexOutOfBoundsException if {@code index} is not below {@link #size()}.
     */
    public Operation operation(final int index)
    {
        return operations[Objects.checkIndex(index, size)];
    }

    /**
     * Where operation {@code index}'s key starts in {@link #buffer()}.
     *
     * @param index the operation's number.
     * @return the offset.
     * @throws IndexOutOfBoundsException if {@code index} is not below {@link #size()}.
     */
    public int keyOffset(final int index)
    {
        return keyOffsets[Objects.checkIndex(index, size)];
    }

    /**
     * The length of operation {@code index}'s key.
     *
     * @param index the operation's number.
     * @return bytes.
     * @throws IndexOutOfBoundsException if {@code index} is not below {@link #size()}.
     */
    public int keyLength(final int index)
    {
        return keyLengths[Objects.checkIndex(index, size)];
    }

    /**
     * Where operation {@code index}'s value starts in {@link #buffer()}: right after its key.
     *
     * @param index the operation's number.
     * @return the offset.
     * @throws IndexOutOfBoundsException if {@code index} is not below {@link #size()}.
     */
    public int valueOffset(final int index)
    {
        return keyOffsets[Objects.checkIndex(index, size)] + keyLengths[index];
    }

    /**
     * The length of operation {@code index}'s value: {@code 0} for every operation but {@link Operation#SET}.
     *
     * @param index the operation's number.
     * @return bytes.
     * @throws IndexOutOfBoundsException if {@code index} is not below {@link #size()}.
     */
    public int valueLength(final int index)
    {
        return valueLengths[Objects.checkIndex(index, size)];
    }

    /**
     * What operation {@code index} does to the key's expiry time: for {@link Operation#SET}, the mode it was
     * added with; for {@link Operation#EXPIRE}, {@link ExpiryMode#AT} ({@code expire}) or {@link ExpiryMode#AFTER}
     * ({@code expireAfter}); for {@link Operation#PERSIST} and {@link Operation#DELETE}, {@link ExpiryMode#CLEAR}.
     *
     * @param index the operation's number.
     * @return the mode.
     * @throws IndexOutOfBoundsException if {@code index} is not below {@link #size()}.
     */
    public ExpiryMode expiryMode(final int index)
    {
        return modes[Objects.checkIndex(index, size)];
    }

    /**
     * The time given with {@link #expiryMode(int)}: an absolute time for {@link ExpiryMode#AT}, a duration for
     * {@link ExpiryMode#AFTER}, {@code 0} otherwise.
     *
     * @param index the operation's number.
     * @return milliseconds.
     * @throws IndexOutOfBoundsException if {@code index} is not below {@link #size()}.
     */
    public long expiryTime(final int index)
    {
        return times[Objects.checkIndex(index, size)];
    }

    @Override
    public String toString()
    {
        return "WriteBatch{size=" + size + ", bytes=" + byteLength + "}";
    }

    // ------------------------------------------------------------------------------------------------------------
    // Internals
    // ------------------------------------------------------------------------------------------------------------

    private WriteBatch addKey(final Operation operation, final byte[] key, final ExpiryMode mode, final long time)
    {
        Objects.requireNonNull(key, "key");
        final int at = reserve(key.length, 0);
        bytes.putBytes(at, key);
        return add(operation, at, key.length, 0, mode, time);
    }

    private WriteBatch addKey(
        final Operation operation, final DirectBuffer key, final int keyOffset, final int keyLength,
        final ExpiryMode mode, final long time)
    {
        Objects.requireNonNull(key, "key");
        checkRange(key, keyOffset, keyLength, "key");
        final int at = reserve(keyLength, 0);
        bytes.putBytes(at, key, keyOffset, keyLength);
        return add(operation, at, keyLength, 0, mode, time);
    }

    /**
     * Where the next operation's bytes go, after checking they fit; the buffer grows as they are copied. Nothing
     * counts them until {@link #add} does, so a copy that throws leaves the batch as it was.
     */
    private int reserve(final int keyLength, final int valueLength)
    {
        final long end = (long)byteLength + keyLength + valueLength;
        if (end > MAX_BYTES)
        {
            throw new IllegalArgumentException("batch too large: bytes=" + end + ", limit=" + MAX_BYTES);
        }
        return byteLength;
    }

    private WriteBatch add(
        final Operation operation, final int keyOffset, final int keyLength, final int valueLength,
        final ExpiryMode mode, final long time)
    {
        if (size == operations.length)
        {
            grow();
        }
        operations[size] = operation;
        modes[size] = mode;
        times[size] = time;
        keyOffsets[size] = keyOffset;
        keyLengths[size] = keyLength;
        valueLengths[size] = valueLength;
        size++;
        byteLength = keyOffset + keyLength + valueLength;
        return this;
    }

    private void grow()
    {
        final int capacity = operations.length * 2;
        operations = Arrays.copyOf(operations, capacity);
        modes = Arrays.copyOf(modes, capacity);
        times = Arrays.copyOf(times, capacity);
        keyOffsets = Arrays.copyOf(keyOffsets, capacity);
        keyLengths = Arrays.copyOf(keyLengths, capacity);
        valueLengths = Arrays.copyOf(valueLengths, capacity);
    }

    /**
     * Checks a caller's range before anything is copied, whether or not Agrona's bounds checks are on.
     */
    private static void checkRange(final DirectBuffer buffer, final int offset, final int length, final String what)
    {
        if (length < 0)
        {
            throw new IllegalArgumentException("negative " + what + " length: " + length);
        }
        if (offset < 0 || offset > buffer.capacity() - length)
        {
            throw new IndexOutOfBoundsException(what + " outside its buffer: offset=" + offset + ", length=" + length +
                ", capacity=" + buffer.capacity());
        }
    }
}
