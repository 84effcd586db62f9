package io.agni.testsupport;

import org.agrona.concurrent.SystemEpochClock;

/**
 * Runs the contract against {@link HeapStore} on the system clock with no hooks, as a remote store would be run:
 * the tests that need a fake clock, a sweep or known limits must skip themselves and the rest must pass.
 */
class HeapStoreOnRealClockContractTest extends AgniStoreContract
{
    @Override
    protected StoreFixture createFixture()
    {
        return StoreFixture.forStore(new HeapStore(SystemEpochClock.INSTANCE, 1 << 20, 1 << 20)).build();
    }
}
