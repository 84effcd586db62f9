package io.agni.store;

import io.agni.api.StoreClosedException;
import io.agni.testsupport.AgniStoreContract;
import io.agni.testsupport.StoreFixture;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;

/**
 * The {@link AgniStoreContract} over an {@link OffHeapStore} configured by the subclass, with a fake clock and no
 * background sweep; after every test the store's structural invariants must still hold.
 */
abstract class OffHeapStoreContract extends AgniStoreContract
{
    private OffHeapStore offHeapStore;

    /**
     * Configures the store under test.
     *
     * @param clock the fake clock the store must use.
     * @return the configured builder.
     */
    abstract OffHeapStoreBuilder configure(CachedEpochClock clock);

    @Override
    protected final StoreFixture createFixture()
    {
        final CachedEpochClock clock = TestStores.clock();
        offHeapStore = configure(clock).build();
        return TestStores.fixture(offHeapStore, clock);
    }

    @AfterEach
    final void structureIsIntactAfterTheTest()
    {
        try
        {
            offHeapStore.verifyIntegrity();
        }
        catch (final StoreClosedException ex)
        {
            // the test closed the store itself: nothing left to check
        }
    }
}
