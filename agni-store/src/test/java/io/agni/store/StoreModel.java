package io.agni.store;

import io.agni.api.AgniStore;
import io.agni.api.EntryTooLargeException;
import io.agni.api.ExpireCondition;
import io.agni.api.ExpiryMode;
import io.agni.api.FloatOverflowException;
import io.agni.api.IntegerOverflowException;
import io.agni.api.NotAnIntegerException;
import io.agni.api.RenameResult;
import io.agni.api.SetCondition;
import io.agni.api.internal.Decimal;
import io.agni.testsupport.ByteArrayKey;
import org.agrona.concurrent.UnsafeBuffer;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * The sequential model of an {@link AgniStore}: a {@code HashMap} from key to value and absolute expiry time, with
 * the semantics of the AgniStore javadoc, for the model-based test.
 * <p>
 * An expired entry stays in the map until the model is swept or the key is written, because the store may keep it
 * that long too: so the map's size bounds the store's {@code size()} from above and the live entries bound it from
 * below.
 */
final class StoreModel
{
    /**
     * An entry of the model: a value and its expiry time, {@code -1} for none.
     */
    static final class Entry
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
    private final LongSupplier now;
    private final int maxValueLength;

    StoreModel(final LongSupplier now, final int maxValueLength)
    {
        this.now = now;
        this.maxValueLength = maxValueLength;
    }

    private Entry live(final ByteArrayKey key)
    {
        final Entry entry = map.get(key);
        return entry == null || entry.expireAt >= 0 && entry.expireAt <= now.getAsLong() ? null : entry;
    }

    byte[] get(final ByteArrayKey key)
    {
        final Entry entry = live(key);
        return entry == null ? null : entry.value;
    }

    long ttlMillis(final ByteArrayKey key)
    {
        final Entry entry = live(key);
        return entry == null ? AgniStore.TTL_KEY_ABSENT :
            entry.expireAt < 0 ? AgniStore.TTL_NO_EXPIRY : entry.expireAt - now.getAsLong();
    }

    long expireTimeMillis(final ByteArrayKey key)
    {
        final Entry entry = live(key);
        return entry == null ? AgniStore.TTL_KEY_ABSENT :
            entry.expireAt < 0 ? AgniStore.TTL_NO_EXPIRY : entry.expireAt;
    }

    boolean set(
        final ByteArrayKey key, final byte[] value, final SetCondition condition, final ExpiryMode mode,
        final long expireAt)
    {
        checkValue(value.length);
        final Entry entry = live(key);
        if (condition == SetCondition.IF_ABSENT && entry != null || condition == SetCondition.IF_PRESENT && entry == null)
        {
            return false;
        }
        final long newExpiry = mode == ExpiryMode.AT ? expireAt :
            mode == ExpiryMode.KEEP && entry != null ? entry.expireAt : -1;
        map.put(key, new Entry(value.clone(), newExpiry));
        return true;
    }

    byte[] getAndSet(
        final ByteArrayKey key, final byte[] value, final SetCondition condition, final ExpiryMode mode,
        final long expireAt)
    {
        final byte[] previous = get(key);
        set(key, value, condition, mode, expireAt);
        return previous;
    }

    boolean setAll(final List<ByteArrayKey> keys, final List<byte[]> values, final SetCondition condition)
    {
        boolean any = false;
        boolean all = true;
        for (int i = 0; i < keys.size(); i++)
        {
            checkValue(values.get(i).length);
            final boolean present = live(keys.get(i)) != null;
            any |= present;
            all &= present;
        }
        if (condition == SetCondition.IF_ABSENT && any || condition == SetCondition.IF_PRESENT && !all)
        {
            return false;
        }
        for (int i = 0; i < keys.size(); i++)
        {
            map.put(keys.get(i), new Entry(values.get(i).clone(), -1));
        }
        return true;
    }

    List<byte[]> getAll(final List<ByteArrayKey> keys)
    {
        final List<byte[]> values = new ArrayList<>();
        for (final ByteArrayKey key : keys)
        {
            values.add(get(key));
        }
        return values;
    }

    boolean delete(final ByteArrayKey key)
    {
        return live(key) != null && map.remove(key) != null;
    }

    byte[] getAndDelete(final ByteArrayKey key)
    {
        final byte[] value = get(key);
        if (value != null)
        {
            map.remove(key);
        }
        return value;
    }

    byte[] getAndExpire(final ByteArrayKey key, final ExpiryMode mode, final long expireAt)
    {
        final Entry entry = live(key);
        if (entry == null)
        {
            return null;
        }
        if (mode != ExpiryMode.KEEP)
        {
            map.put(key, new Entry(entry.value, mode == ExpiryMode.AT ? expireAt : -1));
        }
        return entry.value;
    }

    long incrementBy(final ByteArrayKey key, final long delta)
    {
        final Entry entry = live(key);
        final long old = entry == null ? 0 : parse(entry.value);
        final long sum = old + delta;
        if (((old ^ sum) & (delta ^ sum)) < 0)
        {
            throw new IntegerOverflowException("model: overflow");
        }
        map.put(key, new Entry(Long.toString(sum).getBytes(StandardCharsets.US_ASCII), entry == null ? -1 : entry.expireAt));
        return sum;
    }

    long append(final ByteArrayKey key, final byte[] value)
    {
        final Entry entry = live(key);
        final byte[] old = entry == null ? new byte[0] : entry.value;
        checkValue((long)old.length + value.length);
        final byte[] joined = new byte[old.length + value.length];
        System.arraycopy(old, 0, joined, 0, old.length);
        System.arraycopy(value, 0, joined, old.length, value.length);
        map.put(key, new Entry(joined, entry == null ? -1 : entry.expireAt));
        return joined.length;
    }

    boolean expire(final ByteArrayKey key, final long expireAt, final ExpireCondition condition)
    {
        final Entry entry = live(key);
        if (entry == null)
        {
            return false;
        }
        final boolean has = entry.expireAt >= 0;
        final boolean applies;
        switch (condition)
        {
            case IF_NO_EXPIRY:
                applies = !has;
                break;
            case IF_HAS_EXPIRY:
                applies = has;
                break;
            case IF_LATER:
                applies = has && expireAt > entry.expireAt;
                break;
            case IF_EARLIER:
                applies = !has || expireAt < entry.expireAt;
                break;
            case IF_HAS_EXPIRY_AND_EARLIER:
                applies = has && expireAt < entry.expireAt;
                break;
            default:
                applies = true;
        }
        if (applies)
        {
            // A past time removes the key; the store may do it at once or leave an expired entry to reclaim later,
            // so the model keeps it as expired, within the bounds either way.
            map.put(key, new Entry(entry.value, expireAt));
        }
        return applies;
    }

    boolean persist(final ByteArrayKey key)
    {
        final Entry entry = live(key);
        if (entry == null || entry.expireAt < 0)
        {
            return false;
        }
        map.put(key, new Entry(entry.value, -1));
        return true;
    }

    int valueLength(final ByteArrayKey key)
    {
        final Entry entry = live(key);
        return entry == null ? AgniStore.NOT_FOUND : entry.value.length;
    }

    byte[] getRange(final ByteArrayKey key, final long start, final long end)
    {
        final Entry entry = live(key);
        final long length = entry == null ? 0 : entry.value.length;
        if (length == 0 || start < 0 && end < 0 && start > end)
        {
            return new byte[0];
        }
        final long first = Math.max(0, start < 0 ? length + start : start);
        final long last = Math.min(length - 1, Math.max(0, end < 0 ? length + end : end));
        return first > last ? new byte[0] : Arrays.copyOfRange(entry.value, (int)first, (int)last + 1);
    }

    long setRange(final ByteArrayKey key, final long offset, final byte[] value)
    {
        final Entry entry = live(key);
        if (value.length == 0)
        {
            return entry == null ? 0 : entry.value.length;
        }
        checkValue(offset > Long.MAX_VALUE - value.length ? Long.MAX_VALUE : offset + value.length);
        final byte[] old = entry == null ? new byte[0] : entry.value;
        final byte[] updated = Arrays.copyOf(old, Math.max(old.length, (int)offset + value.length));
        System.arraycopy(value, 0, updated, (int)offset, value.length);
        map.put(key, new Entry(updated, entry == null ? -1 : entry.expireAt));
        return updated.length;
    }

    RenameResult rename(final ByteArrayKey key, final ByteArrayKey newKey, final boolean replace)
    {
        final Entry entry = live(key);
        if (entry == null)
        {
            return RenameResult.NO_SUCH_KEY;
        }
        if (key.equals(newKey))
        {
            return replace ? RenameResult.RENAMED : RenameResult.TARGET_EXISTS;
        }
        if (!replace && live(newKey) != null)
        {
            return RenameResult.TARGET_EXISTS;
        }
        map.remove(key);
        map.put(newKey, entry);
        return RenameResult.RENAMED;
    }

    /**
     * INCRBYFLOAT on the model: the number read by the API's grammar, the arithmetic and the text written here.
     */
    byte[] incrementByFloat(final ByteArrayKey key, final double delta)
    {
        final Entry entry = live(key);
        final BigDecimal old = entry == null ? BigDecimal.ZERO :
            Decimal.parse(new UnsafeBuffer(entry.value), 0, entry.value.length);
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
        final byte[] text = (sum.signum() == 0 ? "0" : sum.stripTrailingZeros().toPlainString())
            .getBytes(StandardCharsets.US_ASCII);
        map.put(key, new Entry(text, entry == null ? -1 : entry.expireAt));
        return text;
    }

    void clear()
    {
        map.clear();
    }

    /**
     * Drops every expired entry, as a full sweep of the store does.
     *
     * @return how many were dropped.
     */
    int sweep()
    {
        final int before = map.size();
        map.keySet().removeIf(key -> live(key) == null);
        return before - map.size();
    }

    Set<ByteArrayKey> liveKeys()
    {
        final Set<ByteArrayKey> keys = new TreeSet<>();
        for (final ByteArrayKey key : map.keySet())
        {
            if (live(key) != null)
            {
                keys.add(key);
            }
        }
        return keys;
    }

    long liveCount()
    {
        return liveKeys().size();
    }

    long liveWithExpiryCount()
    {
        return map.keySet().stream().filter(k -> live(k) != null && map.get(k).expireAt >= 0).count();
    }

    /**
     * Entries held, expired ones included: the most the store may hold.
     *
     * @return the count.
     */
    long heldCount()
    {
        return map.size();
    }

    long heldWithExpiryCount()
    {
        return map.values().stream().filter(e -> e.expireAt >= 0).count();
    }

    /**
     * A copy of the entries (which are immutable), to {@link #restore} when the store refused a write the model made.
     *
     * @return the copy.
     */
    Map<ByteArrayKey, Entry> snapshot()
    {
        return new HashMap<>(map);
    }

    /**
     * Puts back the entries of a {@link #snapshot}.
     *
     * @param snapshot the copy.
     */
    void restore(final Map<ByteArrayKey, Entry> snapshot)
    {
        map.clear();
        map.putAll(snapshot);
    }

    /**
     * Drops a key the store evicted: from now on it is absent, as in the store.
     *
     * @param key the key.
     */
    void forget(final ByteArrayKey key)
    {
        map.remove(key);
    }

    private void checkValue(final long length)
    {
        if (length > maxValueLength)
        {
            throw new EntryTooLargeException("value too large: length=" + length + ", limit=" + maxValueLength);
        }
    }

    private static long parse(final byte[] value)
    {
        final String text = new String(value, StandardCharsets.ISO_8859_1);
        if (text.matches("0|-?[1-9][0-9]{0,18}"))
        {
            try
            {
                return Long.parseLong(text);
            }
            catch (final NumberFormatException ignore)
            {
                // beyond 64 bits: not an integer
            }
        }
        throw new NotAnIntegerException("model: not an integer");
    }
}
