package io.agni.store;

import org.agrona.concurrent.CachedEpochClock;

/**
 * The contract over a store with 64 shards, a roomy budget, keys up to 4 KiB and values up to 256 KiB.
 */
class SixtyFourShardContractTest extends OffHeapStoreContract
{
    @Override
    OffHeapStoreBuilder configure(final CachedEpochClock clock)
    {
        return TestStores.builder(64, clock).maxKeyLength(4096).maxValueLength(256 * 1024);
    }
}
