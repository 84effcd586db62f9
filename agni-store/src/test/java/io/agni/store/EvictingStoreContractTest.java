package io.agni.store;

import io.agni.api.EvictionPolicy;
import org.agrona.concurrent.CachedEpochClock;

/**
 * The contract over a store that evicts ({@link EvictionPolicy#ALL_KEYS}), with a budget roomy enough that no
 * contract test fills it: eviction on must change nothing a store below its budget does, reads set their marks,
 * and the index keeps them through growth and removals.
 */
class EvictingStoreContractTest extends OffHeapStoreContract
{
    @Override
    OffHeapStoreBuilder configure(final CachedEpochClock clock)
    {
        return TestStores.builder(4, clock).maxKeyLength(4096).maxValueLength(256 * 1024)
            .evictionPolicy(EvictionPolicy.ALL_KEYS);
    }
}
