package io.agni.bench.adapter;

import org.agrona.MutableDirectBuffer;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The on-heap alternative: a {@link ConcurrentHashMap} from {@link BytesKey} to {@code byte[]}. A write copies the
 * key and the value, as agni does (a caller's arrays may be reused). How a read finds and returns its value is the
 * {@link Lookup}: by default it wraps the key (hashing it) and copies the value out, as a caller holding
 * {@code byte[]} keys does; the other two reproduce a harness that favours the map
 * (docs/experiments/map-method.md).
 */
public final class ConcurrentHashMapAdapter implements StoreAdapter
{
    /**
     * How a GET finds and returns its value.
     */
    public enum Lookup
    {
        /**
         * A key wrapper made and hashed per GET; the value copied into the caller's buffer.
         */
        WRAP_PER_GET,

        /**
         * Lookup keys wrapped before measuring, their hash cached, so a GET neither hashes nor allocates; the value
         * copied into the caller's buffer, as agni's zero-copy GET does.
         */
        PREKEYED_COPY,

        /**
         * As {@link #PREKEYED_COPY}, and the stored array is only returned (its length is the result), its bytes
         * never read.
         */
        PREKEYED_REFERENCE
    }

    private final ConcurrentHashMap<BytesKey, byte[]> map;
    private final Lookup lookup;
    private Wrapped first;
    private Wrapped second;

    /**
     * Makes an empty map sized for the entries expected, read with {@link Lookup#WRAP_PER_GET}.
     *
     * @param expectedEntries how many entries it will hold.
     */
    public ConcurrentHashMapAdapter(final int expectedEntries)
    {
        this(expectedEntries, Lookup.WRAP_PER_GET);
    }

    /**
     * Makes an empty map sized for the entries expected.
     *
     * @param expectedEntries how many entries it will hold.
     * @param lookup          how a GET finds and returns its value.
     */
    public ConcurrentHashMapAdapter(final int expectedEntries, final Lookup lookup)
    {
        this.map = new ConcurrentHashMap<>(expectedEntries);
        this.lookup = lookup;
    }

    @Override
    public int get(final KeySet keys, final int index, final MutableDirectBuffer dst)
    {
        if (lookup == Lookup.WRAP_PER_GET)
        {
            return StoreAdapter.copyOut(map.get(new BytesKey(keys.array(index))), dst);
        }
        final byte[] value = map.get(lookupKeys(keys)[index]);
        if (lookup == Lookup.PREKEYED_COPY)
        {
            return StoreAdapter.copyOut(value, dst);
        }
        return value == null ? NOT_FOUND : value.length;
    }

    @Override
    public void put(final KeySet keys, final int index, final Value value)
    {
        map.put(new BytesKey(keys.array(index).clone()), value.array().clone());
    }

    @Override
    public OffHeapUsage offHeapUsage()
    {
        return new OffHeapUsage(0, "none: entries live on the Java heap");
    }

    @Override
    public void close()
    {
        map.clear();
    }

    private BytesKey[] lookupKeys(final KeySet keys)
    {
        // Two key sets at most (present and absent keys), wrapped on first use: the fill and setup's checks, outside
        // measurement. A holder is immutable (final fields), so a thread that sees it sees its keys.
        final Wrapped a = first;
        if (a != null && a.set == keys)
        {
            return a.keys;
        }
        final Wrapped b = second;
        if (b != null && b.set == keys)
        {
            return b.keys;
        }
        final Wrapped made = new Wrapped(keys);
        if (a == null)
        {
            first = made;
        }
        else
        {
            second = made;
        }
        return made.keys;
    }

    private static final class Wrapped
    {
        final KeySet set;
        final BytesKey[] keys;

        Wrapped(final KeySet set)
        {
            this.set = set;
            this.keys = new BytesKey[set.count()];
            for (int i = 0; i < keys.length; i++)
            {
                keys[i] = new BytesKey(set.array(i));
            }
        }
    }
}
