package io.agni.store;

import org.agrona.concurrent.CachedEpochClock;

/**
 * The contract over a store with a tiny budget (4 shards, 64 KiB in all, keys up to 256 bytes, values up to
 * 8 KiB), where growth, compaction and the budget meet the contract's data.
 */
class TinyBudgetContractTest extends OffHeapStoreContract
{
    @Override
    OffHeapStoreBuilder configure(final CachedEpochClock clock)
    {
        return TestStores.builder(4, clock).maxMemory(64 * 1024).maxKeyLength(256).maxValueLength(8192);
    }
}
