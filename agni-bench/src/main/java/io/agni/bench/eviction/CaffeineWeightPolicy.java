package io.agni.bench.eviction;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Caffeine bounded by bytes: {@code maximumWeight} with a weigher that counts each entry's key and value bytes, as a
 * user caching byte arrays would configure it. It counts no overhead (Caffeine's nodes, the boxed key, the array
 * headers, all on the Java heap), so at a byte budget it holds more entries than a store that counts its index and
 * layout. Maintenance runs on the calling thread, as in {@link CaffeinePolicy}, and it is not deterministic for the
 * same reason.
 */
public final class CaffeineWeightPolicy implements Policy {
    private final Cache<Long, Boolean> cache;

    /**
     * Creates an empty cache.
     *
     * @param maximumBytes its budget
     * @param entryBytes   the bytes each entry weighs (all entries of a replay weigh the same)
     */
    public CaffeineWeightPolicy(long maximumBytes, int entryBytes) {
        cache = Caffeine.newBuilder().maximumWeight(maximumBytes).<Long, Boolean>weigher((k, v) -> entryBytes)
                .executor(Runnable::run).build();
    }

    @Override
    public boolean access(long key) {
        Long boxed = key;
        if (cache.getIfPresent(boxed) != null) {
            return true;
        }
        cache.put(boxed, Boolean.TRUE);
        return false;
    }

    @Override
    public int size() {
        cache.cleanUp();
        return (int) cache.estimatedSize();
    }
}
