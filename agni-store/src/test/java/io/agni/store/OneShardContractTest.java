package io.agni.store;

import org.agrona.concurrent.CachedEpochClock;

/**
 * The contract over a store with one shard, a roomy budget, keys up to 4 KiB and values up to 256 KiB.
 */
class OneShardContractTest extends OffHeapStoreContract
{
    @Override
    OffHeapStoreBuilder configure(final CachedEpochClock clock)
    {
        return TestStores.builder(1, clock).maxKeyLength(4096).maxValueLength(256 * 1024);
    }
}
