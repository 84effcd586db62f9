package io.agni.api;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A key-value store of byte strings with per-entry expiry: the one interface agni's users code against,
 * implemented in-process ({@code io.agni.store.OffHeapStore}) and, later, over the network.
 *
 * <h2>Data</h2>
 * Keys and values are byte strings: any bytes, binary-safe. A value may be empty; a key may be empty too, as in
 * Redis. Lengths are limited by the implementation (by default 512 MiB, as Redis); a longer key or value is refused
 * with {@link EntryTooLargeException} before any memory is reserved.
 *
 * <h2>Arguments</h2>
 * No argument may be {@code null} unless its javadoc says so; a {@code null} gets a {@link NullPointerException}.
 * Every operation on keys has a {@code byte[]} form and a zero-copy form that takes the keys and values as
 * {@code (DirectBuffer, offset, length)} (the multi-key ones: one buffer with arrays of offsets and lengths) and
 * copies a result into a caller's {@link MutableDirectBuffer}.
 * The store never keeps a reference to a caller's array or buffer after a call returns, and the {@code byte[]}
 * results belong to the caller. A destination buffer must have room for the value from its offset on, or be
 * expandable (e.g. {@link org.agrona.ExpandableArrayBuffer}); otherwise an {@link IndexOutOfBoundsException} is
 * thrown and the bytes of the destination past its offset are unspecified. A key, value or destination whose
 * offset and length do not lie inside its buffer (a negative offset, a range past the end) is a mistake in the call:
 * {@link IndexOutOfBoundsException} when the store reads or writes it (agni's in-process store checks a key's range
 * and a destination's offset before it reads anything, so it throws on a miss too). A read into a destination copies
 * first and then checks that no writer intervened, copying again if one did: only the bytes within the length it
 * returns are the result. Bytes of the destination after them (after a miss, from its offset on) may have been
 * overwritten by a copy that raced a writer, within the destination's capacity, and an expandable destination
 * may have grown. On the zero-copy path, reads and writes allocate nothing on the Java heap in steady state.
 *
 * <h2>Time and expiry</h2>
 * Expiry times are absolute, in milliseconds since the epoch, on the store's clock ({@link #currentTimeMillis()}).
 * An entry whose expiry time is at or before the clock's now is invisible to every operation from that instant,
 * whether or not its memory has been reclaimed yet. A caller gives an expiry either as an absolute time
 * ({@link ExpiryMode#AT}, {@link #expire}) or as a duration that the store adds to its own clock when it performs
 * the write ({@link ExpiryMode#AFTER}, {@link #expireAfter}): the relative forms need no clock shared with the
 * caller, and through a remote store they depend on the server's clock alone. Every method that takes an
 * {@link ExpiryMode} also takes a {@code long} time: the absolute time for {@code AT}, the duration for
 * {@code AFTER}, and {@code 0} for {@code CLEAR} and {@code KEEP}, which ignore it; any other time with those two is
 * refused with an {@link IllegalArgumentException} ({@link ExpiryMode#checkTime}) before anything changes.
 *
 * <h2>Threads and atomicity</h2>
 * Every method may be called from any thread. Every operation on a single key is atomic and linearizable: the
 * read-modify-write operations ({@code getAndSet}, {@code incrementBy}, {@code append}, ...) happen as one step,
 * never as a read followed by a write. {@link #setAll} is atomic with respect to readers of its keys,
 * {@link #rename} moves an entry between its two keys as one step, {@link #write(WriteBatch)} applies a batch of
 * writes all or nothing, and {@link #getAll} reads its keys at one instant.
 * {@link #size()}, {@link #randomKey()}, {@link #stats()} and {@link #clear()} are not atomic with respect to
 * concurrent writes.
 *
 * <h2>Lifecycle</h2>
 * {@link #close()} waits for operations in flight, releases all memory, and makes every later call throw
 * {@link StoreClosedException}.
 *
 * <h2>Failures</h2>
 * A failure of the store is an {@link AgniException} (unchecked), of one of four kinds, each caught by one
 * {@code catch} of its type:
 * <pre>
 * AgniException
 * +-- StoreRefusedException      this request refused, nothing changed; the store serves on
 * |   +-- CapacityExceededException, EntryTooLargeException, InvalidCursorException,
 * |       NotAnIntegerException, IntegerOverflowException, NotAFloatException, FloatOverflowException
 * +-- StoreReadOnlyException     every write refused for now, reads served; nothing changed
 * +-- StoreClosedException       the store was closed; every later call fails
 * +-- StoreConnectionException   a remote store could not be reached; a write's outcome is unknown
 * </pre>
 * Each method's {@code @throws} lists the ones it may throw besides {@link StoreClosedException}, which every
 * method may throw, and, for a remote store, {@link StoreConnectionException} and {@link StoreReadOnlyException}
 * (from any write), and {@link StoreRefusedException} itself (a server's refusal that has no counterpart here). A
 * mistake in a call is not an {@code AgniException}: {@link NullPointerException}, {@link IllegalArgumentException},
 * {@link IndexOutOfBoundsException}, as their {@code @throws} say.
 *
 * <h2>Optional operations</h2>
 * An implementation may refuse, with {@link UnsupportedOperationException} and before anything changes, only what
 * a {@code @throws UnsupportedOperationException} below allows: {@link #setAll(List, List, SetCondition) setAll}
 * (both forms) with {@link SetCondition#IF_PRESENT}, which a store over RESP cannot do atomically (Redis has
 * {@code MSET} and {@code MSETNX} but no {@code MSET XX}); and {@link #write(WriteBatch)}, which is atomic only
 * where the implementation applies the batch itself (its default refuses it; a store over RESP sends a batch as a
 * {@code MULTI}/{@code EXEC} transaction, and refuses it for a server without transactions). Every other operation
 * is supported by every implementation.
 *
 * <h2>Implementing it</h2>
 * An implementation must provide the abstract methods: the zero-copy form of each single-key operation, the
 * {@code byte[]} forms of the multi-key operations ({@link #getAll(List)}, {@link #setAll(List, List, SetCondition)},
 * {@link #rename(byte[], byte[], boolean)}), and the whole-store ones. Everything else is a default method over
 * them: the {@code byte[]} forms of the single-key operations wrap their arrays in buffers (and copy a result out
 * of a growable buffer), the zero-copy forms of the multi-key operations copy their keys into arrays, and the
 * relative {@link #expireAfter} adds to {@link #currentTimeMillis()}. Each default keeps the contract (atomicity
 * included) and says what it costs; an implementation that can do better overrides it. The multi-key operations
 * go the other way because one of their forms must be written by hand, and the {@code byte[]} form is the one any
 * implementation can write, while a zero-copy default over it keeps the one-instant and all-or-nothing promises;
 * a {@code byte[]} default over a zero-copy form would have to pack the keys into one buffer first. A store with a
 * clock of its own also overrides {@link #currentTimeMillis()}, whose default is the system clock. New operations
 * will be added as default methods, so an implementation written today keeps compiling.
 *
 * <h2>Capabilities</h2>
 * What only some stores can do is a capability, reached through an accessor that returns it or nothing, as
 * Caffeine's {@code Cache.policy()} does: {@link #checkpointing()} (a store that keeps its data in a directory),
 * {@link #transactional()} (exclusive sections and batches that report what they found), {@link #evicting()} (an
 * eviction policy and a memory budget that change at run time) and {@link #deferredDurability()} (writes that wait
 * for the device, whose wait a thread can defer). A caller checks the {@link Optional}, not the store's class: an
 * accessor is empty exactly when the store cannot do what its capability promises, so a present capability never
 * refuses its calls for the store's configuration. An implementation that has a capability overrides its accessor.
 * The defaults keep a store written before the accessors working: one that implements a capability's interface gets
 * it from the default (for {@code Checkpointing}, unless its durability is {@link Durability#NONE}; for
 * {@code DeferredDurability}, only if its writes wait for the device); any other store gets empty.
 */
public interface AgniStore extends AutoCloseable
{
    /**
     * Returned by the zero-copy reads when the key is absent or expired.
     */
    int NOT_FOUND = -1;

    /**
     * Returned by {@link #ttlMillis} and {@link #expireTimeMillis} when the key is absent or expired (Redis: -2).
     */
    long TTL_KEY_ABSENT = -2;

    /**
     * Returned by {@link #ttlMillis} and {@link #expireTimeMillis} when the key has no expiry time (Redis: -1).
     */
    long TTL_NO_EXPIRY = -1;

    // ------------------------------------------------------------------------------------------------------------
    // Reads
    // ------------------------------------------------------------------------------------------------------------

    /**
     * The value of a key.
     * <p>
     * The default reads once, with {@link #get(DirectBuffer, int, int, MutableDirectBuffer, int)}, into a growable
     * buffer and copies the value out of it; an implementation that can size the array first overrides it.
     *
     * @param key the key.
     * @return a copy of the value, or {@code null} if the key is absent or expired.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default byte[] get(final byte[] key)
    {
        final ExpandableArrayBuffer dst = DefaultForms.growable();
        return DefaultForms.copyOut(dst, get(DefaultForms.wrap(key, "key"), 0, key.length, dst, 0));
    }

    /**
     * Copies the value of a key into a caller's buffer, allocating nothing. Only the returned number of bytes from
     * {@code dstOffset} on are the value; bytes after them may have been overwritten by an attempt that raced a
     * writer, and a miss may have overwritten bytes too (see "Arguments" above).
     *
     * @param key         the buffer holding the key.
     * @param keyOffset   where the key starts in {@code key}.
     * @param keyLength   the key's length in bytes.
     * @param dst         the buffer the value is copied into, from {@code dstOffset} on.
     * @param dstOffset   where the value goes in {@code dst}.
     * @return the value's length in bytes, or {@link #NOT_FOUND} if the key is absent or expired.
     * @throws EntryTooLargeException    if the key is longer than the limit.
     * @throws IndexOutOfBoundsException if {@code dst} cannot hold the value and cannot grow.
     * @throws StoreClosedException      if the store is closed.
     */
    int get(DirectBuffer key, int keyOffset, int keyLength, MutableDirectBuffer dst, int dstOffset);

    /**
     * Whether a key is present and not expired. The default wraps the array and calls
     * {@link #exists(DirectBuffer, int, int)}.
     *
     * @param key the key.
     * @return {@code true} if present.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default boolean exists(final byte[] key)
    {
        return exists(DefaultForms.wrap(key, "key"), 0, key.length);
    }

    /**
     * Whether a key is present and not expired.
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @return {@code true} if present.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    boolean exists(DirectBuffer key, int keyOffset, int keyLength);

    /**
     * The values of several keys, read at one instant (Redis's {@code MGET}).
     *
     * @param keys the keys; duplicates allowed.
     * @return a new list with one element per key, in order: a copy of the value or {@code null}.
     * @throws EntryTooLargeException if a key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    List<byte[]> getAll(List<byte[]> keys);

    /**
     * {@link #getAll(List)} for keys that lie in one buffer, as a server's parsed command does, with the values
     * copied into a caller's buffer: key {@code i} is the {@code keyLengths[i]} bytes at {@code keyOffsets[i]}. The
     * keys are read at one instant, as {@link #getAll(List)} reads them. The values of the keys found are copied one
     * after another, in key order, from {@code dstOffset} on, with nothing between them; {@code valueLengths[i]}
     * receives the length of key {@code i}'s value, or {@link #NOT_FOUND} if it is absent or expired (it then takes
     * no room in {@code dst}), so value {@code i} starts at {@code dstOffset} plus the lengths of the values found
     * before it. Nothing of the buffers or arrays is kept after the call.
     *
     * <p>The default copies every key into an array, calls {@link #getAll(List)} (so it keeps the one-instant
     * promise) and copies the values into {@code dst}; a store that can read the buffer directly (agni's off-heap
     * store) overrides it and allocates nothing for a few keys.
     *
     * @param keys         the buffer holding every key.
     * @param keyOffsets   where each key starts, at least {@code count} entries.
     * @param keyLengths   the length of each key, at least {@code count} entries.
     * @param count        how many keys; duplicates allowed.
     * @param dst          the buffer the values are copied into; expandable, or with room for them all.
     * @param dstOffset    where the first value goes.
     * @param valueLengths receives each key's value length or {@link #NOT_FOUND}, at least {@code count} entries.
     * @return the number of bytes copied into {@code dst}: the sum of the lengths of the values found.
     * @throws IllegalArgumentException  if {@code count} or a key length is negative, or an array is shorter than
     *                                   {@code count}.
     * @throws EntryTooLargeException    if a key is longer than the limit.
     * @throws IndexOutOfBoundsException if {@code dst} cannot hold the values and cannot grow, or they sum to more
     *                                   than {@link Integer#MAX_VALUE} bytes past {@code dstOffset}; the bytes of
     *                                   {@code dst} past {@code dstOffset} and the entries of {@code valueLengths}
     *                                   are then unspecified.
     * @throws StoreClosedException      if the store is closed.
     */
    default int getAll(
        final DirectBuffer keys, final int[] keyOffsets, final int[] keyLengths, final int count,
        final MutableDirectBuffer dst, final int dstOffset, final int[] valueLengths)
    {
        DefaultForms.checkBatch(count, 1, keyOffsets, keyLengths);
        Objects.requireNonNull(dst, "dst");
        if (valueLengths.length < count)
        {
            throw new IllegalArgumentException(
                "valueLengths shorter than count: valueLengths=" + valueLengths.length + ", count=" + count);
        }
        final List<byte[]> values = getAll(DefaultForms.arrays(keys, keyOffsets, keyLengths, 0, 1, count));
        long position = dstOffset;
        for (int i = 0; i < count; i++)
        {
            final byte[] value = values.get(i);
            if (value == null)
            {
                valueLengths[i] = NOT_FOUND;
                continue;
            }
            DefaultForms.checkRoom(dst, position, value.length);
            dst.putBytes((int)position, value);
            valueLengths[i] = value.length;
            position += value.length;
        }
        return (int)(position - dstOffset);
    }

    /**
     * The remaining time to live of a key in milliseconds. The default wraps the array and calls
     * {@link #ttlMillis(DirectBuffer, int, int)}.
     *
     * @param key the key.
     * @return milliseconds left (at least {@code 0}), {@link #TTL_NO_EXPIRY} or {@link #TTL_KEY_ABSENT}.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default long ttlMillis(final byte[] key)
    {
        return ttlMillis(DefaultForms.wrap(key, "key"), 0, key.length);
    }

    /**
     * The remaining time to live of a key in milliseconds.
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @return milliseconds left (at least {@code 0}), {@link #TTL_NO_EXPIRY} or {@link #TTL_KEY_ABSENT}.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    long ttlMillis(DirectBuffer key, int keyOffset, int keyLength);

    /**
     * The absolute expiry time of a key (Redis's {@code PEXPIRETIME}). The default wraps the array and calls
     * {@link #expireTimeMillis(DirectBuffer, int, int)}.
     *
     * @param key the key.
     * @return milliseconds since the epoch, {@link #TTL_NO_EXPIRY} or {@link #TTL_KEY_ABSENT}.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default long expireTimeMillis(final byte[] key)
    {
        return expireTimeMillis(DefaultForms.wrap(key, "key"), 0, key.length);
    }

    /**
     * The absolute expiry time of a key (Redis's {@code PEXPIRETIME}).
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @return milliseconds since the epoch, {@link #TTL_NO_EXPIRY} or {@link #TTL_KEY_ABSENT}.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    long expireTimeMillis(DirectBuffer key, int keyOffset, int keyLength);

    /**
     * The length of a key's value (Redis's {@code STRLEN}), without copying it. The default wraps the array and
     * calls {@link #valueLength(DirectBuffer, int, int)}.
     *
     * @param key the key.
     * @return the value's length in bytes, or {@link #NOT_FOUND} if the key is absent or expired.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default int valueLength(final byte[] key)
    {
        return valueLength(DefaultForms.wrap(key, "key"), 0, key.length);
    }

    /**
     * The length of a key's value (Redis's {@code STRLEN}), allocating nothing.
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @return the value's length in bytes, or {@link #NOT_FOUND} if the key is absent or expired.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    int valueLength(DirectBuffer key, int keyOffset, int keyLength);

    /**
     * A range of a key's value (Redis's {@code GETRANGE}); only the range is copied. Both ends are inclusive byte
     * indexes; a negative index counts from the end ({@code -1} is the last byte). After that, a start below
     * {@code 0} becomes {@code 0} and an end past the last byte becomes the last byte; a start after the end, or an
     * empty value, gives an empty range.
     * <p>
     * The default reads once, with the zero-copy form, into a growable buffer and copies the range out of it.
     *
     * @param key   the key.
     * @param start the first byte's index, possibly negative.
     * @param end   the last byte's index, inclusive, possibly negative.
     * @return a new array with a copy of the range, never {@code null}: empty if the key is absent or expired.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default byte[] getRange(final byte[] key, final long start, final long end)
    {
        final ExpandableArrayBuffer dst = DefaultForms.growable();
        return DefaultForms.copyOut(dst, getRange(DefaultForms.wrap(key, "key"), 0, key.length, start, end, dst, 0));
    }

    /**
     * The zero-copy form of {@link #getRange(byte[], long, long)}: copies only the range into a caller's buffer.
     * Only the returned number of bytes from {@code dstOffset} on are the range; bytes after them may have been
     * overwritten by an attempt that raced a writer (see "Arguments" above).
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @param start     the first byte's index, possibly negative.
     * @param end       the last byte's index, inclusive, possibly negative.
     * @param dst       the buffer the range is copied into.
     * @param dstOffset where the range goes.
     * @return the number of bytes copied: {@code 0} for an empty range or an absent or expired key.
     * @throws EntryTooLargeException    if the key is longer than the limit.
     * @throws IndexOutOfBoundsException if {@code dst} cannot hold the range and cannot grow.
     * @throws StoreClosedException      if the store is closed.
     */
    int getRange(
        DirectBuffer key, int keyOffset, int keyLength, long start, long end, MutableDirectBuffer dst, int dstOffset);

    // ------------------------------------------------------------------------------------------------------------
    // Writes
    // ------------------------------------------------------------------------------------------------------------

    /**
     * Sets a key to a value with no expiry time (Redis's plain {@code SET}). The default wraps the arrays and
     * calls {@link #set(DirectBuffer, int, int, DirectBuffer, int, int)}.
     *
     * @param key   the key.
     * @param value the value, possibly empty.
     * @throws EntryTooLargeException     if the key or value is longer than its limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default void set(final byte[] key, final byte[] value)
    {
        set(DefaultForms.wrap(key, "key"), 0, key.length, DefaultForms.wrap(value, "value"), 0, value.length);
    }

    /**
     * Sets a key to a value with no expiry time, allocating nothing. The default is
     * {@link #set(DirectBuffer, int, int, DirectBuffer, int, int, SetCondition, ExpiryMode, long)} with
     * {@link SetCondition#ALWAYS} and {@link ExpiryMode#CLEAR}.
     *
     * @param key         the buffer holding the key.
     * @param keyOffset   where the key starts.
     * @param keyLength   the key's length in bytes.
     * @param value       the buffer holding the value.
     * @param valueOffset where the value starts.
     * @param valueLength the value's length in bytes, possibly {@code 0}.
     * @throws EntryTooLargeException     if the key or value is longer than its limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default void set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        set(key, keyOffset, keyLength, value, valueOffset, valueLength, SetCondition.ALWAYS, ExpiryMode.CLEAR, 0);
    }

    /**
     * Sets a key to a value if a condition holds, and sets, keeps or clears its expiry time, as one step
     * (Redis's {@code SET} with {@code NX}/{@code XX} and {@code EX}/{@code PX}/{@code EXAT}/{@code PXAT}/{@code KEEPTTL}).
     * The default wraps the arrays and calls the zero-copy form.
     *
     * @param key            the key.
     * @param value          the value.
     * @param condition      when to write.
     * @param expiryMode     what happens to the expiry time.
     * @param expiryMillis   with {@link ExpiryMode#AT} the absolute expiry time, with {@link ExpiryMode#AFTER} the
     *                       time to live, in milliseconds; {@code 0} with the other modes.
     * @return {@code true} if the value was written, {@code false} if the condition did not hold.
     * @throws IllegalArgumentException   if {@code expiryMode} ignores the time and it is not {@code 0}; nothing
     *                                    changed.
     * @throws EntryTooLargeException     if the key or value is longer than its limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default boolean set(
        final byte[] key, final byte[] value,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        return set(DefaultForms.wrap(key, "key"), 0, key.length, DefaultForms.wrap(value, "value"), 0, value.length,
            condition, expiryMode, expiryMillis);
    }

    /**
     * The zero-copy form of {@link #set(byte[], byte[], SetCondition, ExpiryMode, long)}.
     *
     * @param key            the buffer holding the key.
     * @param keyOffset      where the key starts.
     * @param keyLength      the key's length in bytes.
     * @param value          the buffer holding the value.
     * @param valueOffset    where the value starts.
     * @param valueLength    the value's length in bytes.
     * @param condition      when to write.
     * @param expiryMode     what happens to the expiry time.
     * @param expiryMillis   with {@link ExpiryMode#AT} the absolute expiry time, with {@link ExpiryMode#AFTER} the
     *                       time to live, in milliseconds; {@code 0} with the other modes.
     * @return {@code true} if the value was written, {@code false} if the condition did not hold.
     * @throws IllegalArgumentException   if {@code expiryMode} ignores the time and it is not {@code 0}; nothing
     *                                    changed.
     * @throws EntryTooLargeException     if the key or value is longer than its limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    boolean set(
        DirectBuffer key, int keyOffset, int keyLength,
        DirectBuffer value, int valueOffset, int valueLength,
        SetCondition condition, ExpiryMode expiryMode, long expiryMillis);

    /**
     * A conditional set that also returns the value it replaced, as one step (Redis's {@code SET ... GET} and
     * {@code GETSET}). Whether it wrote follows from the result: {@link SetCondition#ALWAYS} always writes,
     * {@link SetCondition#IF_ABSENT} wrote if the result is {@code null}, {@link SetCondition#IF_PRESENT} wrote if
     * it is not.
     * <p>
     * The default calls the zero-copy form with a growable buffer for the previous value and copies it out.
     *
     * @param key            the key.
     * @param value          the new value.
     * @param condition      when to write.
     * @param expiryMode     what happens to the expiry time.
     * @param expiryMillis   with {@link ExpiryMode#AT} the absolute expiry time, with {@link ExpiryMode#AFTER} the
     *                       time to live, in milliseconds; {@code 0} with the other modes.
     * @return a copy of the previous value, or {@code null} if the key was absent or expired.
     * @throws IllegalArgumentException   if {@code expiryMode} ignores the time and it is not {@code 0}; nothing
     *                                    changed.
     * @throws EntryTooLargeException     if the key or value is longer than its limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default byte[] getAndSet(
        final byte[] key, final byte[] value,
        final SetCondition condition, final ExpiryMode expiryMode, final long expiryMillis)
    {
        final ExpandableArrayBuffer previous = DefaultForms.growable();
        return DefaultForms.copyOut(previous, getAndSet(DefaultForms.wrap(key, "key"), 0, key.length,
            DefaultForms.wrap(value, "value"), 0, value.length, condition, expiryMode, expiryMillis, previous, 0));
    }

    /**
     * The zero-copy form of {@link #getAndSet(byte[], byte[], SetCondition, ExpiryMode, long)}.
     *
     * @param key            the buffer holding the key.
     * @param keyOffset      where the key starts.
     * @param keyLength      the key's length in bytes.
     * @param value          the buffer holding the new value.
     * @param valueOffset    where the value starts.
     * @param valueLength    the value's length in bytes.
     * @param condition      when to write.
     * @param expiryMode     what happens to the expiry time.
     * @param expiryMillis   with {@link ExpiryMode#AT} the absolute expiry time, with {@link ExpiryMode#AFTER} the
     *                       time to live, in milliseconds; {@code 0} with the other modes.
     * @param previous       the buffer the previous value is copied into.
     * @param previousOffset where the previous value goes.
     * @return the previous value's length, or {@link #NOT_FOUND} if the key was absent or expired.
     * @throws IllegalArgumentException   if {@code expiryMode} ignores the time and it is not {@code 0}; nothing
     *                                    changed.
     * @throws EntryTooLargeException     if the key or value is longer than its limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws IndexOutOfBoundsException  if {@code previous} cannot hold the previous value and cannot grow.
     * @throws StoreClosedException       if the store is closed.
     */
    int getAndSet(
        DirectBuffer key, int keyOffset, int keyLength,
        DirectBuffer value, int valueOffset, int valueLength,
        SetCondition condition, ExpiryMode expiryMode, long expiryMillis,
        MutableDirectBuffer previous, int previousOffset);

    /**
     * Sets several keys as one step (Redis's {@code MSET} and, with {@link SetCondition#IF_ABSENT}, {@code MSETNX}).
     * A reader of any of the keys sees either none or all of the new values. The entries have no expiry time.
     * With a repeated key the last value wins.
     *
     * @param keys      the keys.
     * @param values    the values, one per key.
     * @param condition {@link SetCondition#ALWAYS}; {@link SetCondition#IF_ABSENT} to write only if no key is
     *                  present; {@link SetCondition#IF_PRESENT} to write only if every key is present.
     * @return {@code true} if the values were written.
     * @throws IllegalArgumentException      if the lists differ in size.
     * @throws EntryTooLargeException        if a key or value is longer than its limit; nothing changed.
     * @throws CapacityExceededException     if the entries do not fit in the memory budget; nothing changed.
     * @throws UnsupportedOperationException if {@code condition} is {@link SetCondition#IF_PRESENT} and the
     *                                       implementation cannot do it atomically (an optional operation: see
     *                                       "Optional operations" above); nothing changed.
     * @throws StoreClosedException          if the store is closed.
     */
    boolean setAll(List<byte[]> keys, List<byte[]> values, SetCondition condition);

    /**
     * {@link #setAll(List, List, SetCondition)} for pairs that lie in one buffer, as a server's parsed command
     * does: pair {@code i}'s key is the {@code lengths[2i]} bytes at {@code offsets[2i]}, its value the
     * {@code lengths[2i + 1]} bytes at {@code offsets[2i + 1]}. Nothing of the buffer is kept after the call.
     *
     * <p>The default copies every key and value into arrays and calls {@link #setAll(List, List, SetCondition)};
     * a store that can read the buffer directly (agni's off-heap store) overrides it and allocates nothing for a
     * batch of a few pairs.
     *
     * @param buffer    the buffer holding every key and value.
     * @param offsets   where each key and value starts, in pair order, at least {@code 2 * pairs} entries.
     * @param lengths   the length of each key and value, in the same order.
     * @param pairs     how many pairs.
     * @param condition as for {@link #setAll(List, List, SetCondition)}.
     * @return {@code true} if the values were written.
     * @throws IllegalArgumentException   if {@code pairs} or a length is negative, or the arrays are shorter than
     *                                    {@code 2 * pairs}.
     * @throws EntryTooLargeException     if a key or value is longer than its limit; nothing changed.
     * @throws CapacityExceededException  if the entries do not fit in the memory budget; nothing changed.
     * @throws UnsupportedOperationException if {@code condition} is {@link SetCondition#IF_PRESENT} and the
     *                                    implementation cannot do it atomically, as for
     *                                    {@link #setAll(List, List, SetCondition)}; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default boolean setAll(
        final DirectBuffer buffer, final int[] offsets, final int[] lengths, final int pairs,
        final SetCondition condition)
    {
        DefaultForms.checkBatch(pairs, 2, offsets, lengths);
        return setAll(DefaultForms.arrays(buffer, offsets, lengths, 0, 2, pairs),
            DefaultForms.arrays(buffer, offsets, lengths, 1, 2, pairs), condition);
    }

    /**
     * Applies a batch of writes as one step, as RocksDB's {@code db.write(batch)}: every operation of the batch, in
     * the order it was added, with no other operation in between. What is guaranteed:
     * <ul>
     * <li><b>In order.</b> An operation sees what the earlier operations of the batch did to its key: a set and then
     * an expire of one key leave it with the value and the expiry time; a delete and then a set leave the value; a
     * set with {@link ExpiryMode#KEEP} keeps the expiry time the key has at that point of the batch; an expire or a
     * persist of a key that is absent at that point does nothing, as a delete of an absent key does. Each operation
     * does what the single-key operation of the same name does (a set with no condition, an expire with
     * {@link ExpireCondition#ALWAYS}).</li>
     * <li><b>At one instant.</b> The whole batch happens at one reading of the store's clock: every relative time
     * ({@link ExpiryMode#AFTER}, {@link WriteBatch#expireAfter}) is added to it, and an expiry time at or before it
     * removes the key.</li>
     * <li><b>All or nothing for readers.</b> No reader sees some of the batch's effects without the others: a read
     * of several keys at one instant ({@link #getAll(List)}) sees all of them or none, and a reader that saw one
     * effect of the batch sees all of them in every later read.</li>
     * <li><b>All or nothing on refusal.</b> Every key and value is checked against the limits before anything
     * changes, and a batch whose entries do not fit in the memory budget is refused whole: the exception comes with
     * nothing changed.</li>
     * <li><b>All or nothing after a crash.</b> A store that keeps its data on disk recovers a batch whole or not at
     * all (agni's in-process store logs it as one record). Whether an acknowledged batch survives a crash is the
     * store's durability promise, the same as for a single write.</li>
     * </ul>
     * The store only reads the batch, while the call runs, and keeps nothing of it: the caller may clear and refill
     * it once the call returns. An empty batch changes nothing.
     * <p>
     * An optional operation (see "Optional operations" above): a batch cannot be atomic over the other methods, so
     * the default refuses it with {@link UnsupportedOperationException}, before anything changes. agni's in-process
     * store implements it.
     *
     * @param batch the writes; not changed.
     * @throws EntryTooLargeException        if a key or value is longer than its limit; nothing changed.
     * @throws CapacityExceededException     if the batch's entries do not fit in the memory budget; nothing changed.
     * @throws UnsupportedOperationException if the implementation cannot apply a batch atomically (the default);
     *                                       nothing changed.
     * @throws StoreClosedException          if the store is closed.
     */
    default void write(final WriteBatch batch)
    {
        Objects.requireNonNull(batch, "batch");
        throw new UnsupportedOperationException(getClass().getName() + " does not implement write(WriteBatch): a " +
            "batch cannot be applied atomically through the other operations");
    }

    /**
     * Removes a key. The default wraps the array and calls {@link #delete(DirectBuffer, int, int)}.
     *
     * @param key the key.
     * @return {@code true} if a live entry was removed.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default boolean delete(final byte[] key)
    {
        return delete(DefaultForms.wrap(key, "key"), 0, key.length);
    }

    /**
     * Removes a key.
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @return {@code true} if a live entry was removed.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    boolean delete(DirectBuffer key, int keyOffset, int keyLength);

    /**
     * Removes a key and returns its value, as one step (Redis's {@code GETDEL}). The default calls the zero-copy
     * form with a growable buffer and copies the value out.
     *
     * @param key the key.
     * @return a copy of the removed value, or {@code null} if the key was absent or expired.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default byte[] getAndDelete(final byte[] key)
    {
        final ExpandableArrayBuffer dst = DefaultForms.growable();
        return DefaultForms.copyOut(dst, getAndDelete(DefaultForms.wrap(key, "key"), 0, key.length, dst, 0));
    }

    /**
     * The zero-copy form of {@link #getAndDelete(byte[])}.
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @param dst       the buffer the removed value is copied into.
     * @param dstOffset where the value goes.
     * @return the removed value's length, or {@link #NOT_FOUND}.
     * @throws EntryTooLargeException    if the key is longer than the limit.
     * @throws IndexOutOfBoundsException if {@code dst} cannot hold the value and cannot grow; the key is then kept.
     * @throws StoreClosedException      if the store is closed.
     */
    int getAndDelete(DirectBuffer key, int keyOffset, int keyLength, MutableDirectBuffer dst, int dstOffset);

    /**
     * Returns a key's value and changes its expiry time, as one step (Redis's {@code GETEX}). The default calls the
     * zero-copy form with a growable buffer and copies the value out.
     *
     * @param key            the key.
     * @param expiryMode     {@link ExpiryMode#KEEP} to leave the expiry time alone, {@link ExpiryMode#CLEAR} to
     *                       remove it ({@code PERSIST}), {@link ExpiryMode#AT} or {@link ExpiryMode#AFTER} to set it.
     * @param expiryMillis   with {@link ExpiryMode#AT} the absolute expiry time, with {@link ExpiryMode#AFTER} the
     *                       time to live, in milliseconds; {@code 0} with the other modes.
     * @return a copy of the value, or {@code null} if the key is absent or expired.
     * @throws IllegalArgumentException if {@code expiryMode} ignores the time and it is not {@code 0}; nothing
     *                                  changed.
     * @throws EntryTooLargeException   if the key is longer than the limit.
     * @throws StoreClosedException     if the store is closed.
     */
    default byte[] getAndExpire(final byte[] key, final ExpiryMode expiryMode, final long expiryMillis)
    {
        final ExpandableArrayBuffer dst = DefaultForms.growable();
        return DefaultForms.copyOut(
            dst, getAndExpire(DefaultForms.wrap(key, "key"), 0, key.length, expiryMode, expiryMillis, dst, 0));
    }

    /**
     * The zero-copy form of {@link #getAndExpire(byte[], ExpiryMode, long)}. Only the returned number of bytes from
     * {@code dstOffset} on are the value; with {@link ExpiryMode#KEEP} it reads as {@link #get(DirectBuffer, int,
     * int, MutableDirectBuffer, int)} does, and bytes after them may have been overwritten (see "Arguments" above).
     *
     * @param key            the buffer holding the key.
     * @param keyOffset      where the key starts.
     * @param keyLength      the key's length in bytes.
     * @param expiryMode     what happens to the expiry time.
     * @param expiryMillis   with {@link ExpiryMode#AT} the absolute expiry time, with {@link ExpiryMode#AFTER} the
     *                       time to live, in milliseconds; {@code 0} with the other modes.
     * @param dst            the buffer the value is copied into.
     * @param dstOffset      where the value goes.
     * @return the value's length, or {@link #NOT_FOUND}.
     * @throws IllegalArgumentException  if {@code expiryMode} ignores the time and it is not {@code 0}; nothing
     *                                   changed.
     * @throws EntryTooLargeException    if the key is longer than the limit.
     * @throws IndexOutOfBoundsException if {@code dst} cannot hold the value and cannot grow.
     * @throws StoreClosedException      if the store is closed.
     */
    int getAndExpire(
        DirectBuffer key, int keyOffset, int keyLength,
        ExpiryMode expiryMode, long expiryMillis,
        MutableDirectBuffer dst, int dstOffset);

    /**
     * Adds a signed delta to a value holding a decimal 64-bit integer, as one step (Redis's {@code INCRBY}). An
     * absent key counts as {@code 0}. The expiry time is kept. The default wraps the array and calls
     * {@link #incrementBy(DirectBuffer, int, int, long)}.
     *
     * @param key   the key.
     * @param delta the amount to add, possibly negative.
     * @return the new value.
     * @throws NotAnIntegerException      if the value is not a canonical decimal 64-bit integer; nothing changed.
     * @throws IntegerOverflowException   if the sum leaves the 64-bit range; nothing changed.
     * @throws EntryTooLargeException     if the key is longer than the limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default long incrementBy(final byte[] key, final long delta)
    {
        return incrementBy(DefaultForms.wrap(key, "key"), 0, key.length, delta);
    }

    /**
     * The zero-copy form of {@link #incrementBy(byte[], long)}.
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @param delta     the amount to add, possibly negative.
     * @return the new value.
     * @throws NotAnIntegerException      if the value is not a canonical decimal 64-bit integer; nothing changed.
     * @throws IntegerOverflowException   if the sum leaves the 64-bit range; nothing changed.
     * @throws EntryTooLargeException     if the key is longer than the limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    long incrementBy(DirectBuffer key, int keyOffset, int keyLength, long delta);

    /**
     * Appends bytes to a value, as one step (Redis's {@code APPEND}); an absent key starts empty. The expiry time is
     * kept. The default wraps the arrays and calls the zero-copy form.
     *
     * @param key   the key.
     * @param value the bytes to append.
     * @return the value's length after the append.
     * @throws EntryTooLargeException     if the key, or the value after the append, is longer than its limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default long append(final byte[] key, final byte[] value)
    {
        return append(DefaultForms.wrap(key, "key"), 0, key.length, DefaultForms.wrap(value, "value"), 0, value.length);
    }

    /**
     * The zero-copy form of {@link #append(byte[], byte[])}.
     *
     * @param key         the buffer holding the key.
     * @param keyOffset   where the key starts.
     * @param keyLength   the key's length in bytes.
     * @param value       the buffer holding the bytes to append.
     * @param valueOffset where they start.
     * @param valueLength how many.
     * @return the value's length after the append.
     * @throws EntryTooLargeException     if the key, or the value after the append, is longer than its limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    long append(DirectBuffer key, int keyOffset, int keyLength, DirectBuffer value, int valueOffset, int valueLength);

    /**
     * Overwrites part of a value from a byte offset on, as one step (Redis's {@code SETRANGE}). A value shorter than
     * {@code offset} (or an absent key, which counts as empty) is first padded with zero bytes up to it. The expiry
     * time is kept. An empty {@code value} writes nothing: an absent key stays absent and {@code 0} is returned; a
     * present key is unchanged and its length returned. The default wraps the arrays and calls the zero-copy form.
     *
     * @param key    the key.
     * @param offset where the bytes go, at least {@code 0}.
     * @param value  the bytes to write, possibly empty.
     * @return the value's length after the write, {@code 0} if the key is absent and {@code value} empty.
     * @throws IllegalArgumentException   if {@code offset} is negative.
     * @throws EntryTooLargeException     if the key is longer than its limit, or {@code value} is not empty and
     *                                    {@code offset + value.length} exceeds the value limit (checked before
     *                                    anything is read or reserved; an empty value writes nothing, so its offset
     *                                    is not checked, as in Redis); nothing changed.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default long setRange(final byte[] key, final long offset, final byte[] value)
    {
        return setRange(DefaultForms.wrap(key, "key"), 0, key.length, offset, DefaultForms.wrap(value, "value"), 0,
            value.length);
    }

    /**
     * The zero-copy form of {@link #setRange(byte[], long, byte[])}.
     *
     * @param key         the buffer holding the key.
     * @param keyOffset   where the key starts.
     * @param keyLength   the key's length in bytes.
     * @param offset      where the bytes go in the value, at least {@code 0}.
     * @param value       the buffer holding the bytes to write.
     * @param valueOffset where they start.
     * @param valueLength how many, possibly {@code 0}.
     * @return the value's length after the write, {@code 0} if the key is absent and {@code valueLength} is 0.
     * @throws IllegalArgumentException   if {@code offset} or {@code valueLength} is negative.
     * @throws EntryTooLargeException     if the key is longer than its limit, or {@code valueLength} is not 0 and
     *                                    {@code offset + valueLength} exceeds the value limit; nothing changed.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    long setRange(
        DirectBuffer key, int keyOffset, int keyLength, long offset, DirectBuffer value, int valueOffset, int valueLength);

    /**
     * Moves a key's value and its expiry time to another key, as one step (Redis's {@code RENAME}, and with
     * {@code replace} false {@code RENAMENX}). A reader sees the value under exactly one of the two keys, never both
     * or neither. An entry under {@code newKey} is replaced (its own expiry time discarded) only if {@code replace}
     * is true. When the keys are equal, nothing changes: the result is {@link RenameResult#RENAMED} if the key exists
     * and {@code replace} is true, {@link RenameResult#TARGET_EXISTS} if it exists and {@code replace} is false.
     *
     * @param key     the key to rename.
     * @param newKey  the key it gets.
     * @param replace whether an existing {@code newKey} is replaced.
     * @return {@link RenameResult#RENAMED}; {@link RenameResult#NO_SUCH_KEY} if {@code key} is absent or expired;
     * {@link RenameResult#TARGET_EXISTS} if {@code newKey} exists and {@code replace} is false. Only
     * {@code RENAMED} changes anything.
     * @throws EntryTooLargeException     if either key is longer than the limit; nothing changed.
     * @throws CapacityExceededException  if the entry under its new key does not fit in the memory budget; nothing
     *                                    changed.
     * @throws StoreClosedException       if the store is closed.
     */
    RenameResult rename(byte[] key, byte[] newKey, boolean replace);

    /**
     * The zero-copy form of {@link #rename(byte[], byte[], boolean)}: the two keys lie in caller buffers (possibly
     * the same buffer). Nothing of the buffers is kept after the call.
     * <p>
     * The default copies the keys into arrays and calls {@link #rename(byte[], byte[], boolean)}; agni's off-heap
     * store overrides it and reads the buffers in place.
     *
     * @param key          the buffer holding the key to rename.
     * @param keyOffset    where it starts.
     * @param keyLength    its length in bytes.
     * @param newKey       the buffer holding the key it gets.
     * @param newKeyOffset where that starts.
     * @param newKeyLength its length in bytes.
     * @param replace      whether an existing {@code newKey} is replaced.
     * @return as {@link #rename(byte[], byte[], boolean)}.
     * @throws IllegalArgumentException   if a length is negative.
     * @throws EntryTooLargeException     if either key is longer than the limit; nothing changed.
     * @throws CapacityExceededException  if the entry under its new key does not fit in the memory budget; nothing
     *                                    changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default RenameResult rename(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer newKey, final int newKeyOffset, final int newKeyLength, final boolean replace)
    {
        return rename(DefaultForms.array(key, keyOffset, keyLength), DefaultForms.array(newKey, newKeyOffset,
            newKeyLength), replace);
    }

    /**
     * Adds a delta to a value holding a decimal number, as one step (Redis's {@code INCRBYFLOAT}), and stores the
     * result as text. An absent key counts as {@code 0}. The value must be a finite number as Redis's
     * {@code strtold} reads one: the whole value, ASCII, at most 5120 bytes, no spaces, an optional sign, then decimal
     * digits with an optional {@code .} and fraction and an optional exponent ({@code 10}, {@code -1.5}, {@code .5},
     * {@code 1.}, {@code 5.0e3}), or {@code 0x} and hexadecimal digits with an optional fraction and binary exponent
     * ({@code 0x1.8p1}); at least one digit; within an x87 {@code long double}'s range (about {@code 1.19e4932});
     * never {@code inf} or {@code nan}. The delta is taken as the shortest decimal that reads back as the same {@code double}
     * ({@link java.math.BigDecimal#valueOf(double)}: {@code 0.1} is exactly one tenth), the sum is exact and then
     * rounded to 17 significant digits (half to even), and the text is written plain, without an exponent, trailing
     * fraction zeros or a trailing {@code .}: {@code 10.50} plus {@code 0.1} is {@code 10.6}, {@code 5.0e3} plus
     * {@code 200} is {@code 5200}. The expiry time is kept.
     * <p>
     * The default calls the zero-copy form with a growable buffer and copies the text out.
     *
     * @param key   the key.
     * @param delta the amount to add, possibly negative; must be finite.
     * @return the new value's text (ASCII).
     * @throws NotAFloatException         if the value is not a number; nothing changed.
     * @throws FloatOverflowException     if {@code delta} is not finite, or the result's magnitude exceeds
     *                                    {@link Double#MAX_VALUE}; nothing changed.
     * @throws EntryTooLargeException     if the key is longer than the limit, or the text longer than the value
     *                                    limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    default byte[] incrementByFloat(final byte[] key, final double delta)
    {
        final ExpandableArrayBuffer dst = DefaultForms.growable();
        return DefaultForms.copyOut(dst, incrementByFloat(DefaultForms.wrap(key, "key"), 0, key.length, delta, dst, 0));
    }

    /**
     * The zero-copy form of {@link #incrementByFloat(byte[], double)}: writes the new value's text into a caller's
     * buffer. Allocates on the heap (the arithmetic is decimal).
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @param delta     the amount to add, possibly negative; must be finite.
     * @param dst       the buffer the new value's text is copied into.
     * @param dstOffset where it goes.
     * @return the text's length in bytes.
     * @throws NotAFloatException         if the value is not a number; nothing changed.
     * @throws FloatOverflowException     if {@code delta} is not finite, or the result's magnitude exceeds
     *                                    {@link Double#MAX_VALUE}; nothing changed.
     * @throws EntryTooLargeException     if the key is longer than the limit, or the text longer than the value
     *                                    limit.
     * @throws CapacityExceededException  if the entry does not fit in the memory budget; nothing changed.
     * @throws IndexOutOfBoundsException  if {@code dst} cannot hold the text and cannot grow; nothing changed.
     * @throws StoreClosedException       if the store is closed.
     */
    int incrementByFloat(
        DirectBuffer key, int keyOffset, int keyLength, double delta, MutableDirectBuffer dst, int dstOffset);

    /**
     * Sets a key's absolute expiry time if a condition holds (Redis's {@code PEXPIREAT} with its options). A time
     * at or before now removes the key, as in Redis. The default wraps the array and calls
     * {@link #expire(DirectBuffer, int, int, long, ExpireCondition)}.
     *
     * @param key            the key.
     * @param expireAtMillis the absolute expiry time in milliseconds since the epoch.
     * @param condition      when to change it.
     * @return {@code true} if the key exists and its expiry time was set (or the key removed for a past time).
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default boolean expire(final byte[] key, final long expireAtMillis, final ExpireCondition condition)
    {
        return expire(DefaultForms.wrap(key, "key"), 0, key.length, expireAtMillis, condition);
    }

    /**
     * The zero-copy form of {@link #expire(byte[], long, ExpireCondition)}.
     *
     * @param key            the buffer holding the key.
     * @param keyOffset      where the key starts.
     * @param keyLength      the key's length in bytes.
     * @param expireAtMillis the absolute expiry time in milliseconds since the epoch.
     * @param condition      when to change it.
     * @return {@code true} if the key exists and its expiry time was set (or the key removed for a past time).
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    boolean expire(DirectBuffer key, int keyOffset, int keyLength, long expireAtMillis, ExpireCondition condition);

    /**
     * Sets a key's expiry time to a duration from now on the store's clock, if a condition holds (Redis's
     * {@code PEXPIRE} with its options): the relative form of {@link #expire(byte[], long, ExpireCondition)}, which
     * needs no clock shared with the caller. The expiry time is the store's now, read when the store performs the
     * call, plus {@code durationMillis}, saturated to {@link Long#MAX_VALUE} (or {@link Long#MIN_VALUE}); a duration
     * of {@code 0} or less removes the key, as a past time does. The condition compares that expiry time with the
     * key's. The default wraps the array and calls the zero-copy form.
     *
     * @param key            the key.
     * @param durationMillis the time to live from now, in milliseconds, possibly {@code 0} or negative.
     * @param condition      when to change it.
     * @return {@code true} if the key exists and its expiry time was set (or the key removed for a duration of
     * {@code 0} or less).
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default boolean expireAfter(final byte[] key, final long durationMillis, final ExpireCondition condition)
    {
        return expireAfter(DefaultForms.wrap(key, "key"), 0, key.length, durationMillis, condition);
    }

    /**
     * The zero-copy form of {@link #expireAfter(byte[], long, ExpireCondition)}.
     * <p>
     * The default reads {@link #currentTimeMillis()} and calls
     * {@link #expire(DirectBuffer, int, int, long, ExpireCondition)} with the sum: right for a store whose clock
     * that method reads, as the contract requires. A store that can apply a relative time itself (one on a remote
     * server: {@code PEXPIRE}) overrides it.
     *
     * @param key            the buffer holding the key.
     * @param keyOffset      where the key starts.
     * @param keyLength      the key's length in bytes.
     * @param durationMillis the time to live from now, in milliseconds, possibly {@code 0} or negative.
     * @param condition      when to change it.
     * @return {@code true} if the key exists and its expiry time was set (or the key removed for a duration of
     * {@code 0} or less).
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default boolean expireAfter(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long durationMillis,
        final ExpireCondition condition)
    {
        Objects.requireNonNull(condition, "condition");
        return expire(key, keyOffset, keyLength, DefaultForms.saturatedAdd(currentTimeMillis(), durationMillis),
            condition);
    }

    /**
     * Removes a key's expiry time (Redis's {@code PERSIST}). The default wraps the array and calls
     * {@link #persist(DirectBuffer, int, int)}.
     *
     * @param key the key.
     * @return {@code true} if the key exists and had an expiry time.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    default boolean persist(final byte[] key)
    {
        return persist(DefaultForms.wrap(key, "key"), 0, key.length);
    }

    /**
     * Removes a key's expiry time (Redis's {@code PERSIST}).
     *
     * @param key       the buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length in bytes.
     * @return {@code true} if the key exists and had an expiry time.
     * @throws EntryTooLargeException if the key is longer than the limit.
     * @throws StoreClosedException   if the store is closed.
     */
    boolean persist(DirectBuffer key, int keyOffset, int keyLength);

    // ------------------------------------------------------------------------------------------------------------
    // Whole store
    // ------------------------------------------------------------------------------------------------------------

    /**
     * One step of a cursor scan over all keys (Redis's {@code SCAN}). Start with cursor {@code 0} and call again with
     * the returned cursor until it is {@code 0}. Every key present for the whole scan is returned at least once,
     * even while the store grows; a key may be returned more than once; keys added or removed during the scan may
     * or may not be returned.
     *
     * @param cursor  {@code 0} to start, else the cursor a previous step returned.
     * @param pattern a glob pattern in Redis's syntax ({@code * ? [abc] [^a] [a-z] \x}) the keys must match, or
     *                {@code null} for all keys.
     * @param count   how much work to do in this step, roughly the number of keys to look at; at least 1.
     * @return the keys found and the next cursor.
     * @throws IllegalArgumentException if {@code count} is less than 1.
     * @throws InvalidCursorException   if {@code cursor} is not {@code 0} and not one this store could have
     *                                  returned (an implementation may accept any cursor, as Redis does).
     * @throws StoreClosedException     if the store is closed.
     */
    ScanResult scan(long cursor, byte[] pattern, int count);

    /**
     * Some live key, chosen at random (Redis's {@code RANDOMKEY}). Expected to cost a few probes, not a scan of the
     * store; not uniform: keys in sparser shards or after longer runs of empty slots are more likely. Expired
     * entries are never returned. Not atomic with respect to concurrent writes: while keys are being added it may
     * return {@code null}.
     *
     * @return a copy of a key that is present and not expired at the instant it is read, or {@code null} if none
     * was found (with no concurrent writes: if there is none).
     * @throws StoreClosedException if the store is closed.
     */
    byte[] randomKey();

    /**
     * The number of entries held, including expired entries not reclaimed yet (as Redis's {@code DBSIZE}).
     *
     * @return the number of entries.
     * @throws StoreClosedException if the store is closed.
     */
    long size();

    /**
     * Removes every entry (Redis's {@code FLUSHALL}). Not atomic: a concurrent write may survive it.
     *
     * @throws StoreClosedException if the store is closed.
     */
    void clear();

    /**
     * A snapshot of the store's counters and memory; {@link StoreStats} says which calls count as hits and misses.
     *
     * @return the statistics.
     * @throws StoreClosedException if the store is closed.
     */
    StoreStats stats();

    /**
     * Now on the store's clock, in milliseconds since the epoch: the clock its expiry times are compared with and
     * its relative times ({@link ExpiryMode#AFTER}, {@link #expireAfter}) are added to. A server in front of the
     * store answers Redis's {@code TIME} from it.
     * <p>
     * The default is {@link System#currentTimeMillis()}, right for a store that compares expiry times with the
     * system clock; a store with a clock of its own (agni's in-process store can be given one) overrides it, and
     * one on a remote server asks the server.
     *
     * @return milliseconds since the epoch.
     * @throws StoreClosedException if the store is closed and must be open to read its clock (a remote store); a
     *                              store whose clock is local may answer after {@link #close()}.
     */
    default long currentTimeMillis()
    {
        return System.currentTimeMillis();
    }

    /**
     * The store's checkpoints: present when it keeps its data in a directory (any {@link Durability} but
     * {@link Durability#NONE}), empty when it keeps nothing on disk. The default is this store if it implements
     * {@link Checkpointing} with a durability other than {@code NONE}, else empty.
     *
     * @return the capability, or empty.
     */
    default Optional<Checkpointing> checkpointing()
    {
        return this instanceof Checkpointing checkpoints && checkpoints.durability() != Durability.NONE ?
            Optional.of(checkpoints) : Optional.empty();
    }

    /**
     * The store's exclusive sections and reporting batches: present when it can run several operations of one
     * thread with no operation of another in between. The default is this store if it implements
     * {@link Transactional}, else empty.
     *
     * @return the capability, or empty.
     */
    default Optional<Transactional> transactional()
    {
        return this instanceof Transactional transactions ? Optional.of(transactions) : Optional.empty();
    }

    /**
     * The store's eviction policy and memory budget, readable and changeable while it runs: present when the
     * store has a budget of its own to evict at. The default is this store if it implements {@link Evicting}, else
     * empty.
     *
     * @return the capability, or empty.
     */
    default Optional<Evicting> evicting()
    {
        return this instanceof Evicting eviction ? Optional.of(eviction) : Optional.empty();
    }

    /**
     * Deferral of the wait for the device: present when the store's writes wait for their log records to be
     * durable before they return ({@link Durability#PARANOID}), empty otherwise (there is nothing to defer). The
     * default is this store if it implements {@link DeferredDurability} and its writes wait, else empty.
     *
     * @return the capability, or empty.
     */
    default Optional<DeferredDurability> deferredDurability()
    {
        return this instanceof DeferredDurability deferral && deferral.writesAwaitDurable() ?
            Optional.of(deferral) : Optional.empty();
    }

    /**
     * Closes the store: waits for operations in flight, frees all its memory, and makes every later call throw
     * {@link StoreClosedException}. Idempotent; safe to call from any thread, also while other threads use the store.
     */
    @Override
    void close();
}
