package io.agni.testsupport;

import io.agni.api.AgniStore;
import org.agrona.concurrent.CachedEpochClock;

import java.util.EnumSet;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * One store under test and what the {@link AgniStoreContract} may do with it besides calling it: read the store's
 * clock, move it (only a fake clock can), reclaim expired entries, and know the store's length limits.
 * <p>
 * A fixture owns its store: {@link #close()} closes it. Build one with {@link #forStore(AgniStore)}:
 * <pre>{@code
 * CachedEpochClock clock = new CachedEpochClock();
 * OffHeapStore store = OffHeapStore.builder().clock(clock).build();
 * return StoreFixture.forStore(store).fakeClock(clock).reclaimExpired(store::sweepExpired).build();
 * }</pre>
 * A store on a real clock (a remote server) gives only the store: the contract then skips, by assumption, the tests
 * that must move time, and uses expiry times far from now for the others.
 */
public final class StoreFixture implements AutoCloseable
{
    private final AgniStore store;
    private final LongSupplier now;
    private final LongConsumer advance;
    private final Runnable reclaimExpired;
    private final int maxKeyLength;
    private final int maxValueLength;
    private final Set<OptionalOperation> unsupported;

    private StoreFixture(final Builder builder)
    {
        this.store = builder.store;
        this.now = builder.now;
        this.advance = builder.advance;
        this.reclaimExpired = builder.reclaimExpired;
        this.maxKeyLength = builder.maxKeyLength;
        this.maxValueLength = builder.maxValueLength;
        this.unsupported = EnumSet.copyOf(builder.unsupported);
    }

    /**
     * Starts a fixture for a store that runs on the system clock, cannot move time, and has no known limits.
     *
     * @param store the store; the fixture closes it.
     * @return a builder.
     */
    public static Builder forStore(final AgniStore store)
    {
        return new Builder(store);
    }

    /**
     * The store under test.
     *
     * @return the store.
     */
    public AgniStore store()
    {
        return store;
    }

    /**
     * The store's idea of now.
     *
     * @return milliseconds since the epoch.
     */
    public long now()
    {
        return now.getAsLong();
    }

    /**
     * Whether {@link #advanceTime(long)} works, i.e. the store runs on a fake clock that moves only when told.
     * A fixture that can advance time also promises that time stands still otherwise, so tests may assert exact
     * remaining times to live.
     *
     * @return {@code true} for a fake clock.
     */
    public boolean canAdvanceTime()
    {
        return advance != null;
    }

    /**
     * Moves the store's clock forward.
     *
     * @param millis how far.
     * @throws UnsupportedOperationException if the store runs on a real clock.
     */
    public void advanceTime(final long millis)
    {
        if (advance == null)
        {
            throw new UnsupportedOperationException("this store's clock cannot be moved");
        }
        advance.accept(millis);
    }

    /**
     * Whether {@link #reclaimExpired()} works.
     *
     * @return {@code true} if the fixture knows how to make the store reclaim expired entries now.
     */
    public boolean canReclaimExpired()
    {
        return reclaimExpired != null;
    }

    /**
     * Reclaims every entry that has expired, as the store's background sweep eventually would, so that
     * {@link AgniStore#size()} and the statistics count only live entries afterwards.
     *
     * @throws UnsupportedOperationException if the fixture has no way to do it.
     */
    public void reclaimExpired()
    {
        if (reclaimExpired == null)
        {
            throw new UnsupportedOperationException("this store cannot be told to reclaim expired entries");
        }
        reclaimExpired.run();
    }

    /**
     * The store's key length limit, if the fixture knows it and it is small enough to test.
     *
     * @return the limit in bytes, or empty.
     */
    public OptionalInt maxKeyLength()
    {
        return maxKeyLength < 0 ? OptionalInt.empty() : OptionalInt.of(maxKeyLength);
    }

    /**
     * The store's value length limit, if the fixture knows it and it is small enough to test.
     *
     * @return the limit in bytes, or empty.
     */
    public OptionalInt maxValueLength()
    {
        return maxValueLength < 0 ? OptionalInt.empty() : OptionalInt.of(maxValueLength);
    }

    /**
     * Whether the store does an optional operation, i.e. the fixture did not declare it
     * {@link Builder#unsupported unsupported}.
     *
     * @param operation the operation.
     * @return {@code true} unless declared unsupported.
     */
    public boolean supports(final OptionalOperation operation)
    {
        return !unsupported.contains(operation);
    }

    /**
     * Closes the store. Idempotent, as {@link AgniStore#close()} is.
     */
    @Override
    public void close()
    {
        store.close();
    }

    /**
     * Builds a {@link StoreFixture}.
     */
    public static final class Builder
    {
        private final AgniStore store;
        private LongSupplier now = System::currentTimeMillis;
        private LongConsumer advance;
        private Runnable reclaimExpired;
        private int maxKeyLength = -1;
        private int maxValueLength = -1;
        private final EnumSet<OptionalOperation> unsupported = EnumSet.noneOf(OptionalOperation.class);

        private Builder(final AgniStore store)
        {
            this.store = Objects.requireNonNull(store, "store");
        }

        /**
         * The store reads time from this fake clock; the contract moves it with {@link CachedEpochClock#advance}.
         * Set the clock to a realistic time before handing it over (e.g. {@code clock.update(1_700_000_000_000L)}).
         *
         * @param clock the clock the store was built with.
         * @return this builder.
         */
        public Builder fakeClock(final CachedEpochClock clock)
        {
            Objects.requireNonNull(clock, "clock");
            this.now = clock::time;
            this.advance = clock::advance;
            return this;
        }

        /**
         * How to reclaim expired entries now (e.g. the store's own sweep).
         *
         * @param reclaimExpired the action.
         * @return this builder.
         */
        public Builder reclaimExpired(final Runnable reclaimExpired)
        {
            this.reclaimExpired = Objects.requireNonNull(reclaimExpired, "reclaimExpired");
            return this;
        }

        /**
         * The store's key and value length limits, which the contract then tests. Give them only when they are
         * small enough for a test to build a key or value one byte over them (a few MiB at most).
         *
         * @param maxKeyLength   the longest key accepted.
         * @param maxValueLength the longest value accepted.
         * @return this builder.
         */
        public Builder limits(final int maxKeyLength, final int maxValueLength)
        {
            if (maxKeyLength < 1 || maxValueLength < 0)
            {
                throw new IllegalArgumentException(
                    "limits out of range: maxKeyLength=" + maxKeyLength + ", maxValueLength=" + maxValueLength);
            }
            this.maxKeyLength = maxKeyLength;
            this.maxValueLength = maxValueLength;
            return this;
        }

        /**
         * Declares an optional operation the store refuses with {@link UnsupportedOperationException}, as
         * {@link AgniStore}'s javadoc allows: the contract skips that operation's tests (by assumption, with the
         * reason) and checks that the store refuses it and changes nothing.
         *
         * @param operation the operation the store does not support.
         * @return this builder.
         */
        public Builder unsupported(final OptionalOperation operation)
        {
            unsupported.add(Objects.requireNonNull(operation, "operation"));
            return this;
        }

        /**
         * Builds the fixture.
         *
         * @return the fixture, which owns the store.
         */
        public StoreFixture build()
        {
            return new StoreFixture(this);
        }
    }
}
