package io.agni.bench.adapter;

import io.agni.api.Durability;
import io.agni.api.EvictionPolicy;
import io.agni.store.OffHeapStore;
import io.agni.store.OffHeapStoreBuilder;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The stores the benchmarks compare, by the name used on the command line ({@code -p store=...}).
 */
public enum StoreKind
{
    /**
     * OffHeapStore with the default shard count, zero-copy path.
     */
    AGNI_ZC("agni-zc", "OffHeapStore, default shards, zero-copy path"),

    /**
     * OffHeapStore with one shard (one lock), zero-copy path.
     */
    AGNI_1SHARD_ZC("agni-1shard-zc", "OffHeapStore, 1 shard, zero-copy path"),

    /**
     * OffHeapStore with the default shard count, {@code byte[]} path.
     */
    AGNI_BYTES("agni-bytes", "OffHeapStore, default shards, byte[] path"),

    /**
     * OffHeapStore with one shard, {@code byte[]} path.
     */
    AGNI_1SHARD_BYTES("agni-1shard-bytes", "OffHeapStore, 1 shard, byte[] path"),

    /**
     * OffHeapStore with the default shard count and a write-ahead log ({@code Durability.DURABLE}) in a fresh
     * directory under {@code java.io.tmpdir}, zero-copy path.
     */
    AGNI_DURABLE_ZC("agni-durable-zc", "OffHeapStore, default shards, Durability.DURABLE, zero-copy path"),

    /**
     * OffHeapStore with the default shard count and {@code EvictionPolicy.ALL_KEYS} (reads set eviction marks), in a
     * budget that holds the benchmark's keys, zero-copy path.
     */
    AGNI_EVICTING_ZC("agni-evicting-zc", "OffHeapStore, default shards, EvictionPolicy.ALL_KEYS, zero-copy path"),

    /**
     * {@link java.util.concurrent.ConcurrentHashMap} keyed by a byte-array wrapper.
     */
    CHM("chm", "ConcurrentHashMap<BytesKey, byte[]>"),

    /**
     * The map with every lookup key wrapped before measuring (no hashing, no allocation per GET), value copied out.
     */
    CHM_PREKEYED("chm-prekeyed", "ConcurrentHashMap<BytesKey, byte[]>, lookup keys made before measuring"),

    /**
     * As {@link #CHM_PREKEYED}, and a GET returns the stored array without reading its bytes.
     */
    CHM_PREKEYED_REF("chm-prekeyed-ref",
        "ConcurrentHashMap<BytesKey, byte[]>, lookup keys made before measuring, stored array returned, not copied"),

    /**
     * {@link java.util.HashMap} behind one lock.
     */
    HASHMAP_LOCKED("hashmap-locked", "HashMap<BytesKey, byte[]> behind one ReentrantLock"),

    /**
     * Chronicle Map in memory.
     */
    CHRONICLE("chronicle", "Chronicle Map, in memory, byte[] keys and values"),

    /**
     * OHC, linked implementation, no eviction.
     */
    OHC("ohc", "OHC linked, byte[] serializers, no eviction");

    /**
     * The memory budget of the agni stores and the capacity of OHC: room for a million small entries several times
     * over, and the same for every run whatever the heap size (agni's default budget follows {@code -Xmx}).
     */
    public static final long BUDGET_BYTES = 1L << 30;

    private final String id;
    private final String description;

    StoreKind(final String id, final String description)
    {
        this.id = id;
        this.description = description;
    }

    /**
     * The name used on the command line.
     *
     * @return the name.
     */
    public String id()
    {
        return id;
    }

    /**
     * What is measured, for reports.
     *
     * @return a one-line description.
     */
    public String description()
    {
        return description;
    }

    /**
     * Whether this is an agni store.
     *
     * @return {@code true} for the OffHeapStore kinds.
     */
    public boolean isAgni()
    {
        return this == AGNI_ZC || this == AGNI_1SHARD_ZC || this == AGNI_BYTES || this == AGNI_1SHARD_BYTES ||
            this == AGNI_DURABLE_ZC || this == AGNI_EVICTING_ZC;
    }

    /**
     * Whether this store keeps its entries on the Java heap.
     *
     * @return {@code true} for the map kinds.
     */
    public boolean isOnHeap()
    {
        return this == CHM || this == CHM_PREKEYED || this == CHM_PREKEYED_REF || this == HASHMAP_LOCKED;
    }

    /**
     * Opens an empty store of this kind.
     *
     * @param expectedEntries how many entries it will hold (peers that size up front use it).
     * @param keyLength       the key length (average, for Chronicle Map).
     * @param valueLength     the value length (average, for Chronicle Map).
     * @return the adapter; the caller closes it.
     */
    public StoreAdapter open(final int expectedEntries, final int keyLength, final int valueLength)
    {
        return switch (this)
        {
            case AGNI_ZC -> new AgniZeroCopyAdapter(agni(OffHeapStoreBuilder.defaultShards()));
            case AGNI_1SHARD_ZC -> new AgniZeroCopyAdapter(agni(1));
            case AGNI_BYTES -> new AgniBytesAdapter(agni(OffHeapStoreBuilder.defaultShards()));
            case AGNI_1SHARD_BYTES -> new AgniBytesAdapter(agni(1));
            case AGNI_DURABLE_ZC -> DurableDirectory.open(directory ->
                OffHeapStore.builder().shards(OffHeapStoreBuilder.defaultShards()).maxMemory(BUDGET_BYTES)
                    .directory(directory).durability(Durability.DURABLE).build());
            case AGNI_EVICTING_ZC -> new AgniZeroCopyAdapter(OffHeapStore.builder()
                .shards(OffHeapStoreBuilder.defaultShards()).maxMemory(BUDGET_BYTES)
                .evictionPolicy(EvictionPolicy.ALL_KEYS).build());
            case CHM -> new ConcurrentHashMapAdapter(expectedEntries);
            case CHM_PREKEYED ->
                new ConcurrentHashMapAdapter(expectedEntries, ConcurrentHashMapAdapter.Lookup.PREKEYED_COPY);
            case CHM_PREKEYED_REF ->
                new ConcurrentHashMapAdapter(expectedEntries, ConcurrentHashMapAdapter.Lookup.PREKEYED_REFERENCE);
            case HASHMAP_LOCKED -> new LockedHashMapAdapter(expectedEntries);
            case CHRONICLE -> new ChronicleMapAdapter(expectedEntries, keyLength, valueLength);
            case OHC -> new OhcAdapter(BUDGET_BYTES);
        };
    }

    /**
     * The kind with a command-line name.
     *
     * @param id the name.
     * @return the kind.
     * @throws IllegalArgumentException if no kind has that name; the message lists the names.
     */
    public static StoreKind byId(final String id)
    {
        for (final StoreKind kind : values())
        {
            if (kind.id.equals(id))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown store: " + id + ", known: " +
            Arrays.stream(values()).map(StoreKind::id).collect(Collectors.joining(", ")));
    }

    private static OffHeapStore agni(final int shards)
    {
        return OffHeapStore.builder().shards(shards).maxMemory(BUDGET_BYTES).build();
    }
}
