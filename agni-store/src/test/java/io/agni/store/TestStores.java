package io.agni.store;

import io.agni.testsupport.StoreFixture;
import org.agrona.concurrent.CachedEpochClock;

import java.time.Duration;

/**
 * How the tests of this module open stores: a fixed shard count (never the machine's), a fake clock, no background
 * sweep, and a budget stated by the test.
 */
final class TestStores
{
    /**
     * Where every fake clock starts: a realistic epoch time, far from 0.
     */
    static final long START_MS = 1_700_000_000_000L;

    /**
     * The budget of stores whose tests do not care about it.
     */
    static final long ROOMY_BUDGET = 64L * 1024 * 1024;

    private TestStores()
    {
    }

    /**
     * A fake clock at {@link #START_MS}.
     *
     * @return the clock.
     */
    static CachedEpochClock clock()
    {
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(START_MS);
        return clock;
    }

    /**
     * A builder with a fixed shard count, the given clock, no background sweep and a roomy budget.
     *
     * @param shards the shard count.
     * @param clock  the clock.
     * @return the builder.
     */
    static OffHeapStoreBuilder builder(final int shards, final CachedEpochClock clock)
    {
        return OffHeapStore.builder()
            .shards(shards)
            .clock(clock)
            .expirySweepInterval(Duration.ZERO)
            .maxMemory(ROOMY_BUDGET);
    }

    /**
     * A contract fixture over a store: fake clock, the store's sweep, and the store's limits when they are small
     * enough to test.
     *
     * @param store the store.
     * @param clock its clock.
     * @return the fixture, owning the store.
     */
    static StoreFixture fixture(final OffHeapStore store, final CachedEpochClock clock)
    {
        final StoreFixture.Builder fixture =
            StoreFixture.forStore(store).fakeClock(clock).reclaimExpired(store::sweepExpired);
        if (store.maxKeyLength() <= 1 << 20 && store.maxValueLength() <= 1 << 20)
        {
            fixture.limits(store.maxKeyLength(), store.maxValueLength());
        }
        return fixture.build();
    }
}
