package io.agni.testsupport;

import io.agni.api.AgniStore;
import io.agni.api.EntryTooLargeException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.FloatOverflowException;
import io.agni.api.IntegerOverflowException;
import io.agni.api.NotAFloatException;
import io.agni.api.NotAnIntegerException;
import io.agni.api.RenameResult;
import io.agni.api.ScanResult;
import io.agni.api.SetCondition;
import io.agni.api.StoreClosedException;
import io.agni.api.StoreStats;
import io.agni.api.WriteBatch;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.EpochClock;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The simplest correct {@link AgniStore}: one lock around a {@link HashMap}. It exists to show that the contract
 * suite's expectations can all be met at once, i.e. to test the tests; it is no model of performance.
 */
final class HeapStore implements AgniStore
{
    private static final class Entry
    {
        final byte[] value;
        final long expireAt;

        Entry(final byte[] value, final long expireAt)
        {
            this.value = value;
            this.expireAt = expireAt;
        }
    }

    private final Map<ByteArrayKey, Entry> map = new HashMap<>();
    private final EpochClock clock;
    private final int maxKeyLength;
    private final int maxValueLength;
    private boolean closed;
    private long hits;
    private long misses;
    private long expired;

    HeapStore(final EpochClock clock, final int maxKeyLength, final int maxValueLength)
    {
        this.clock = clock;
        this.maxKeyLength = maxKeyLength;
        this.maxValueLength = maxValueLength;
    }

    private ByteArrayKey key(final byte[] key)
    {
        Objects.requireNonNull(key, "key");
        checkOpen();
        if (key.length > maxKeyLength)
        {
            throw new EntryTooLargeException("key too large: length=" + key.length + ", limit=" + maxKeyLength);
        }
        return new ByteArrayKey(key);
    }

    private void checkValue(final long length)
    {
        if (length > maxValueLength)
        {
            throw new EntryTooLargeException("value too large: length=" + length + ", limit=" + maxValueLength);
        }
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new StoreClosedException("store closed");
        }
    }

    private static byte[] bytes(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    private static int copy(final byte[] value, final MutableDirectBuffer dst, final int offset)
    {
        if (value == null)
        {
            return NOT_FOUND;
        }
        if (!dst.isExpandable() && offset + value.length > dst.capacity())
        {
            throw new IndexOutOfBoundsException("dst too small: capacity=" + dst.capacity());
        }
        dst.putBytes(offset, value);
        return value.length;
    }

    private Entry live(final ByteArrayKey key)
    {
        final Entry entry = map.get(key);
        if (entry != null && entry.expireAt >= 0 && entry.expireAt <= clock.time())
        {
            map.remove(key);
            expired++;
            return null;
        }
        return entry;
    }

    /**
     * The expiry time a write with this mode leaves: -1 for none; a time at or before now (0 at the earliest)
     * removes the entry.
     */
    private long expiryOf(final ExpiryMode mode, final long time, final Entry entry)
    {
        switch (mode)
        {
            case AT:
                return Math.max(0, time);
            case AFTER:
                final long now = clock.time();
                return time > Long.MAX_VALUE - now ? Long.MAX_VALUE : Math.max(0, now + time);
            case KEEP:
                return entry != null ? entry.expireAt : -1;
            default:
                return -1;
        }
    }

    private static void checkExpiry(final ExpiryMode mode, final long time)
    {
        Objects.requireNonNull(mode, "expiryMode").checkTime(time);
    }

    private void put(final ByteArrayKey key, final byte[] value, final long expireAt)
    {
        if (expireAt >= 0 && expireAt <= clock.time())
        {
            map.remove(key);
            return;
        }
        map.put(key, new Entry(value.clone(), expireAt));
    }

    @Override
    public synchronized byte[] get(final byte[] key)
    {
        final Entry entry = read(key(key));
        return entry == null ? null : entry.value.clone();
    }

    /**
     * A live entry, counted as a hit or a miss: for the reads {@link StoreStats} counts.
     */
    private Entry read(final ByteArrayKey key)
    {
        final Entry entry = live(key);
        if (entry == null)
        {
            misses++;
        }
        else
        {
            hits++;
        }
        return entry;
    }

    @Override
    public synchronized int get(
        final DirectBuffer key, final int keyOffset, final int keyLength, final MutableDirectBuffer dst,
        final int dstOffset)
    {
        return copy(get(bytes(key, keyOffset, keyLength)), dst, dstOffset);
    }

    @Override
    public synchronized boolean exists(final byte[] key)
    {
        return live(key(key)) != null;
    }

    @Override
    public synchronized boolean exists(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return exists(bytes(key, keyOffset, keyLength));
    }

    @Override
    public synchronized List<byte[]> getAll(final List<byte[]> keys)
    {
        checkOpen();
        final List<byte[]> values = new ArrayList<>(keys.size());
        for (final byte[] key : keys)
        {
            key(key);
        }
        for (final byte[] key : keys)
        {
            final Entry entry = read(key(key));
            values.add(entry == null ? null : entry.value.clone());
        }
        return values;
    }

    @Override
    public synchronized long ttlMillis(final byte[] key)
    {
        final Entry entry = live(key(key));
        return entry == null ? TTL_KEY_ABSENT : entry.expireAt < 0 ? TTL_NO_EXPIRY : entry.expireAt - clock.time();
    }

    @Override
    public synchronized long ttlMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return ttlMillis(bytes(key, keyOffset, keyLength));
    }

    @Override
    public synchronized long expireTimeMillis(final byte[] key)
    {
        final Entry entry = live(key(key));
        return entry == null ? TTL_KEY_ABSENT : entry.expireAt < 0 ? TTL_NO_EXPIRY : entry.expireAt;
    }

    @Override
    public synchronized long expireTimeMillis(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return expireTimeMillis(bytes(key, keyOffset, keyLength));
    }

    @Override
    public synchronized void set(final byte[] key, final byte[] value)
    {
        set(key, value, SetCondition.ALWAYS, ExpiryMode.CLEAR, 0);
    }

    @Override
    public synchronized void set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        set(bytes(key, keyOffset, keyLength), bytes(value, valueOffset, valueLength));
    }

    @Override
    public synchronized boolean set(
        final byte[] key, final byte[] value, final SetCondition condition, final ExpiryMode expiryMode,
        final long expireAtMillis)
    {
        final ByteArrayKey k = key(key);
        checkValue(value.length);
        checkExpiry(expiryMode, expireAtMillis);
        final Entry entry = live(k);
        if (condition == SetCondition.IF_ABSENT && entry != null || condition == SetCondition.IF_PRESENT && entry == null)
        {
            return false;
        }
        put(k, value, expiryOf(expiryMode, expireAtMillis, entry));
        return true;
    }

    @Override
    public synchronized boolean set(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expireAtMillis)
    {
        return set(bytes(key, keyOffset, keyLength), bytes(value, valueOffset, valueLength), condition, expiryMode,
            expireAtMillis);
    }

    @Override
    public synchronized byte[] getAndSet(
        final byte[] key, final byte[] value, final SetCondition condition, final ExpiryMode expiryMode,
        final long expireAtMillis)
    {
        final ByteArrayKey k = key(key);
        checkValue(value.length);
        checkExpiry(expiryMode, expireAtMillis);
        final Entry entry = live(k);
        set(key, value, condition, expiryMode, expireAtMillis);
        return entry == null ? null : entry.value.clone();
    }

    @Override
    public synchronized int getAndSet(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final SetCondition condition, final ExpiryMode expiryMode, final long expireAtMillis,
        final MutableDirectBuffer previous, final int previousOffset)
    {
        return copy(getAndSet(bytes(key, keyOffset, keyLength), bytes(value, valueOffset, valueLength), condition,
            expiryMode, expireAtMillis), previous, previousOffset);
    }

    @Override
    public synchronized boolean setAll(final List<byte[]> keys, final List<byte[]> values, final SetCondition condition)
    {
        checkOpen();
        if (keys.size() != values.size())
        {
            throw new IllegalArgumentException("keys=" + keys.size() + ", values=" + values.size());
        }
        boolean anyPresent = false;
        boolean allPresent = true;
        for (int i = 0; i < keys.size(); i++)
        {
            final ByteArrayKey k = key(keys.get(i));
            checkValue(values.get(i).length);
            final boolean present = live(k) != null;
            anyPresent |= present;
            allPresent &= present;
        }
        if (condition == SetCondition.IF_ABSENT && anyPresent || condition == SetCondition.IF_PRESENT && !allPresent)
        {
            return false;
        }
        for (int i = 0; i < keys.size(); i++)
        {
            put(key(keys.get(i)), values.get(i), -1);
        }
        return true;
    }

    /**
     * Applies the batch under the store's one lock, after checking every length, with relative times counted from
     * one reading of the clock.
     */
    @Override
    public synchronized void write(final WriteBatch batch)
    {
        checkOpen();
        final DirectBuffer buffer = batch.buffer();
        for (int i = 0; i < batch.size(); i++)
        {
            key(bytes(buffer, batch.keyOffset(i), batch.keyLength(i)));
            checkValue(batch.valueLength(i));
        }
        final long now = clock.time();
        for (int i = 0; i < batch.size(); i++)
        {
            final byte[] key = bytes(buffer, batch.keyOffset(i), batch.keyLength(i));
            final ExpiryMode mode = batch.expiryMode(i);
            final long time = batch.expiryTime(i);
            final long at = mode != ExpiryMode.AFTER ? time : time > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + time;
            switch (batch.operation(i))
            {
                case SET -> set(key, bytes(buffer, batch.valueOffset(i), batch.valueLength(i)), SetCondition.ALWAYS,
                    mode == ExpiryMode.AFTER ? ExpiryMode.AT : mode, at);
                case DELETE -> delete(key);
                case EXPIRE -> expire(key, at, ExpireCondition.ALWAYS);
                default -> persist(key);
            }
        }
    }

    @Override
    public synchronized boolean delete(final byte[] key)
    {
        final ByteArrayKey k = key(key);
        return live(k) != null && map.remove(k) != null;
    }

    @Override
    public synchronized boolean delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return delete(bytes(key, keyOffset, keyLength));
    }

    @Override
    public synchronized byte[] getAndDelete(final byte[] key)
    {
        final ByteArrayKey k = key(key);
        final Entry entry = live(k);
        if (entry == null)
        {
            return null;
        }
        map.remove(k);
        return entry.value.clone();
    }

    @Override
    public synchronized int getAndDelete(
        final DirectBuffer key, final int keyOffset, final int keyLength, final MutableDirectBuffer dst,
        final int dstOffset)
    {
        final byte[] k = bytes(key, keyOffset, keyLength);
        final Entry entry = live(key(k));
        if (entry == null)
        {
            return NOT_FOUND;
        }
        final int length = copy(entry.value, dst, dstOffset);
        map.remove(key(k));
        return length;
    }

    @Override
    public synchronized byte[] getAndExpire(final byte[] key, final ExpiryMode expiryMode, final long expireAtMillis)
    {
        final ByteArrayKey k = key(key);
        checkExpiry(expiryMode, expireAtMillis);
        final Entry entry = read(k);
        if (entry == null)
        {
            return null;
        }
        if (expiryMode != ExpiryMode.KEEP)
        {
            put(k, entry.value, expiryOf(expiryMode, expireAtMillis, entry));
        }
        return entry.value.clone();
    }

    @Override
    public synchronized int getAndExpire(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final ExpiryMode expiryMode, final long expireAtMillis,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        final byte[] k = bytes(key, keyOffset, keyLength);
        checkExpiry(expiryMode, expireAtMillis);
        final Entry entry = live(key(k));
        if (entry == null)
        {
            return NOT_FOUND;
        }
        final int length = copy(entry.value, dst, dstOffset);
        getAndExpire(k, expiryMode, expireAtMillis);
        return length;
    }

    @Override
    public synchronized long incrementBy(final byte[] key, final long delta)
    {
        final ByteArrayKey k = key(key);
        final Entry entry = live(k);
        final long old = entry == null ? 0 : parse(entry.value);
        final long sum = old + delta;
        if (((old ^ sum) & (delta ^ sum)) < 0)
        {
            throw new IntegerOverflowException("increment or decrement would overflow: value=" + old + ", delta=" +
                delta);
        }
        put(k, Long.toString(sum).getBytes(StandardCharsets.US_ASCII), entry == null ? -1 : entry.expireAt);
        return sum;
    }

    private static long parse(final byte[] value)
    {
        final String text = new String(value, StandardCharsets.ISO_8859_1);
        final boolean canonical = text.matches("0|-?[1-9][0-9]{0,18}");
        if (canonical)
        {
            try
            {
                return Long.parseLong(text);
            }
            catch (final NumberFormatException ignore)
            {
                // out of range: falls through
            }
        }
        throw new NotAnIntegerException("value is not an integer or out of range");
    }

    @Override
    public synchronized long incrementBy(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long delta)
    {
        return incrementBy(bytes(key, keyOffset, keyLength), delta);
    }

    @Override
    public synchronized long append(final byte[] key, final byte[] value)
    {
        final ByteArrayKey k = key(key);
        final Entry entry = live(k);
        final byte[] old = entry == null ? new byte[0] : entry.value;
        checkValue((long)old.length + value.length);
        final byte[] joined = new byte[old.length + value.length];
        System.arraycopy(old, 0, joined, 0, old.length);
        System.arraycopy(value, 0, joined, old.length, value.length);
        put(k, joined, entry == null ? -1 : entry.expireAt);
        return joined.length;
    }

    @Override
    public synchronized long append(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return append(bytes(key, keyOffset, keyLength), bytes(value, valueOffset, valueLength));
    }

    @Override
    public synchronized boolean expire(final byte[] key, final long expireAtMillis, final ExpireCondition condition)
    {
        final ByteArrayKey k = key(key);
        final Entry entry = live(k);
        if (entry == null)
        {
            return false;
        }
        final boolean has = entry.expireAt >= 0;
        final boolean ok;
        switch (condition)
        {
            case IF_NO_EXPIRY:
                ok = !has;
                break;
            case IF_HAS_EXPIRY:
                ok = has;
                break;
            case IF_LATER:
                ok = has && expireAtMillis > entry.expireAt;
                break;
            case IF_EARLIER:
                ok = !has || expireAtMillis < entry.expireAt;
                break;
            case IF_HAS_EXPIRY_AND_EARLIER:
                ok = has && expireAtMillis < entry.expireAt;
                break;
            default:
                ok = true;
        }
        if (ok)
        {
            put(k, entry.value, Math.max(0, expireAtMillis));
        }
        return ok;
    }

    @Override
    public synchronized boolean expire(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long expireAtMillis,
        final ExpireCondition condition)
    {
        return expire(bytes(key, keyOffset, keyLength), expireAtMillis, condition);
    }

    @Override
    public synchronized boolean persist(final byte[] key)
    {
        final ByteArrayKey k = key(key);
        final Entry entry = live(k);
        if (entry == null || entry.expireAt < 0)
        {
            return false;
        }
        put(k, entry.value, -1);
        return true;
    }

    @Override
    public synchronized boolean persist(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return persist(bytes(key, keyOffset, keyLength));
    }

    @Override
    public synchronized int valueLength(final byte[] key)
    {
        final Entry entry = read(key(key));
        return entry == null ? NOT_FOUND : entry.value.length;
    }

    @Override
    public synchronized int valueLength(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return valueLength(bytes(key, keyOffset, keyLength));
    }

    @Override
    public synchronized byte[] getRange(final byte[] key, final long start, final long end)
    {
        final Entry entry = read(key(key));
        if (entry == null)
        {
            return new byte[0];
        }
        final long length = entry.value.length;
        if (start < 0 && end < 0 && start > end)
        {
            return new byte[0];
        }
        final long first = Math.max(0, start < 0 ? length + start : start);
        final long last = Math.min(length - 1, Math.max(0, end < 0 ? length + end : end));
        return first > last ? new byte[0] : Arrays.copyOfRange(entry.value, (int)first, (int)last + 1);
    }

    @Override
    public synchronized int getRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long start, final long end,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        return copy(getRange(bytes(key, keyOffset, keyLength), start, end), dst, dstOffset);
    }

    @Override
    public synchronized long setRange(final byte[] key, final long offset, final byte[] value)
    {
        final ByteArrayKey k = key(key);
        if (offset < 0)
        {
            throw new IllegalArgumentException("negative offset: " + offset);
        }
        final Entry entry = live(k);
        if (value.length == 0)
        {
            return entry == null ? 0 : entry.value.length;
        }
        checkValue(offset > Long.MAX_VALUE - value.length ? Long.MAX_VALUE : offset + value.length);
        final byte[] old = entry == null ? new byte[0] : entry.value;
        final byte[] updated = Arrays.copyOf(old, Math.max(old.length, (int)offset + value.length));
        System.arraycopy(value, 0, updated, (int)offset, value.length);
        put(k, updated, entry == null ? -1 : entry.expireAt);
        return updated.length;
    }

    @Override
    public synchronized long setRange(
        final DirectBuffer key, final int keyOffset, final int keyLength, final long offset,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return setRange(bytes(key, keyOffset, keyLength), offset, bytes(value, valueOffset, valueLength));
    }

    @Override
    public synchronized RenameResult rename(final byte[] key, final byte[] newKey, final boolean replace)
    {
        final ByteArrayKey from = key(key);
        final ByteArrayKey to = key(newKey);
        final Entry entry = live(from);
        if (entry == null)
        {
            return RenameResult.NO_SUCH_KEY;
        }
        if (from.equals(to))
        {
            return replace ? RenameResult.RENAMED : RenameResult.TARGET_EXISTS;
        }
        if (!replace && live(to) != null)
        {
            return RenameResult.TARGET_EXISTS;
        }
        map.remove(from);
        map.put(to, entry);
        return RenameResult.RENAMED;
    }

    @Override
    public synchronized byte[] randomKey()
    {
        checkOpen();
        final List<ByteArrayKey> keys = new ArrayList<>();
        for (final ByteArrayKey key : new ArrayList<>(map.keySet()))
        {
            if (live(key) != null)
            {
                keys.add(key);
            }
        }
        return keys.isEmpty() ? null : keys.get(ThreadLocalRandom.current().nextInt(keys.size())).bytes();
    }

    @Override
    public synchronized byte[] incrementByFloat(final byte[] key, final double delta)
    {
        final ByteArrayKey k = key(key);
        final Entry entry = live(k);
        final BigDecimal old = entry == null ? BigDecimal.ZERO : parseFloat(entry.value);
        if (Double.isNaN(delta) || Double.isInfinite(delta))
        {
            throw new FloatOverflowException();
        }
        final BigDecimal sum = old.add(new BigDecimal(Double.toString(delta)))
            .round(new MathContext(17, RoundingMode.HALF_EVEN));
        if (sum.abs().compareTo(new BigDecimal(Double.MAX_VALUE)) > 0)
        {
            throw new FloatOverflowException();
        }
        final String text = sum.signum() == 0 ? "0" : sum.stripTrailingZeros().toPlainString();
        final byte[] value = text.getBytes(StandardCharsets.US_ASCII);
        checkValue(value.length);
        put(k, value, entry == null ? -1 : entry.expireAt);
        return value.clone();
    }

    @Override
    public synchronized int incrementByFloat(
        final DirectBuffer key, final int keyOffset, final int keyLength, final double delta,
        final MutableDirectBuffer dst, final int dstOffset)
    {
        final byte[] k = bytes(key, keyOffset, keyLength);
        final Entry before = live(key(k));
        final byte[] text = incrementByFloat(k, delta);
        if (!dst.isExpandable() && dstOffset + text.length > dst.capacity())
        {
            if (before == null)
            {
                map.remove(key(k));
            }
            else
            {
                map.put(key(k), before);
            }
            throw new IndexOutOfBoundsException("dst too small: capacity=" + dst.capacity());
        }
        return copy(text, dst, dstOffset);
    }

    /**
     * A number as Redis's {@code strtold} reads one, by a grammar written independently of the store's.
     */
    private static BigDecimal parseFloat(final byte[] value)
    {
        final String text = new String(value, StandardCharsets.ISO_8859_1);
        if (text.length() <= 5120 && text.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?"))
        {
            try
            {
                final BigDecimal number = new BigDecimal(text.endsWith(".") ? text + "0" : text);
                if (number.signum() == 0 || number.abs().compareTo(new BigDecimal("1e4933")) < 0 &&
                    number.abs().compareTo(new BigDecimal("1e-4952")) > 0)
                {
                    return number;
                }
            }
            catch (final NumberFormatException ignore)
            {
                // an exponent beyond int: out of range
            }
        }
        if (text.matches("[+-]?0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)([pP][+-]?[0-9]{1,5})?"))
        {
            final double number = Double.parseDouble(text.matches(".*[pP].*") ? text : text + "p0");
            if (Double.isFinite(number))
            {
                return new BigDecimal(number);
            }
        }
        throw new NotAFloatException();
    }

    @Override
    public synchronized ScanResult scan(final long cursor, final byte[] pattern, final int count)
    {
        checkOpen();
        if (count < 1)
        {
            throw new IllegalArgumentException("count must be at least 1: count=" + count);
        }
        final List<byte[]> keys = new ArrayList<>();
        for (final ByteArrayKey key : new ArrayList<>(map.keySet()))
        {
            if (live(key) != null && (pattern == null || Glob.matches(pattern, key.bytes())))
            {
                keys.add(key.bytes());
            }
        }
        return new ScanResult(0, keys);
    }

    @Override
    public synchronized long size()
    {
        checkOpen();
        return map.size();
    }

    @Override
    public synchronized void clear()
    {
        checkOpen();
        map.clear();
    }

    /**
     * Reclaims every expired entry.
     */
    synchronized void sweep()
    {
        for (final Iterator<ByteArrayKey> it = new ArrayList<>(map.keySet()).iterator(); it.hasNext(); )
        {
            live(it.next());
        }
    }

    @Override
    public synchronized StoreStats stats()
    {
        checkOpen();
        long withExpiry = 0;
        long live = 0;
        for (final Map.Entry<ByteArrayKey, Entry> e : map.entrySet())
        {
            withExpiry += e.getValue().expireAt >= 0 ? 1 : 0;
            live += 16 + e.getKey().length() + e.getValue().value.length;
        }
        return StoreStats.builder().entries(map.size()).entriesWithExpiry(withExpiry).hits(hits).misses(misses)
            .expired(expired).offHeapBytes(live * 2).liveEntryBytes(live).budgetBytes(1L << 40).build();
    }

    @Override
    public synchronized long currentTimeMillis()
    {
        return clock.time();
    }

    @Override
    public synchronized void close()
    {
        closed = true;
        map.clear();
    }
}
