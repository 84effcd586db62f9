package io.agni.testsupport;

import org.agrona.concurrent.CachedEpochClock;

/**
 * Runs the contract against {@link HeapStore}, to show that the contract's expectations are consistent.
 */
class HeapStoreContractTest extends AgniStoreContract
{
    @Override
    protected StoreFixture createFixture()
    {
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(1_700_000_000_000L);
        final HeapStore store = new HeapStore(clock, 256, 8192);
        return StoreFixture.forStore(store).fakeClock(clock).reclaimExpired(store::sweep).limits(256, 8192).build();
    }
}
