package io.agni.api;

import java.util.Objects;

/**
 * A snapshot of what a store's checkpoints have done ({@link Checkpointing#checkpointStatus()}): whether one is
 * running, when the last one was published, whether the last one failed, and how much has changed since. Each field
 * is read on its own while checkpoints may run, so a snapshot may mix moments.
 *
 * <h2>Growing</h2>
 * A final class built by {@link #builder()}, not a record, so that fields can be added without breaking callers:
 * a field a producer does not set keeps the default its method documents.
 */
public final class CheckpointStatus
{
    /**
     * The status of a store that keeps nothing on disk: no checkpoint ever, none running, nothing failed.
     */
    public static final CheckpointStatus NONE = builder().build();

    private final boolean inProgress;
    private final long lastCheckpointMillis;
    private final boolean lastCheckpointFailed;
    private final long lastDurationMillis;
    private final long currentDurationMillis;
    private final long changesSinceCheckpoint;
    private final boolean logFailed;
    private final int failuresInARow;
    private final long retryInMillis;

    private CheckpointStatus(final Builder builder)
    {
        this.inProgress = builder.inProgress;
        this.lastCheckpointMillis = builder.lastCheckpointMillis;
        this.lastCheckpointFailed = builder.lastCheckpointFailed;
        this.lastDurationMillis = builder.lastDurationMillis;
        this.currentDurationMillis = builder.currentDurationMillis;
        this.changesSinceCheckpoint = builder.changesSinceCheckpoint;
        this.logFailed = builder.logFailed;
        this.failuresInARow = builder.failuresInARow;
        this.retryInMillis = builder.retryInMillis;
    }

    /**
     * Starts a status with every field at its default.
     *
     * @return a new builder.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * Whether a checkpoint is running (or was asked for and is about to), started by anyone.
     *
     * @return {@code false} by default.
     */
    public boolean inProgress()
    {
        return inProgress;
    }

    /**
     * When the newest snapshot in the store's directory was taken, on the store's clock.
     *
     * @return milliseconds since the epoch; {@code 0} (the default) when the directory holds no snapshot.
     */
    public long lastCheckpointMillis()
    {
        return lastCheckpointMillis;
    }

    /**
     * Whether the last checkpoint that ended since the store was opened failed.
     *
     * @return {@code false} by default, and when none ended yet.
     */
    public boolean lastCheckpointFailed()
    {
        return lastCheckpointFailed;
    }

    /**
     * How long the last checkpoint that ended since the store was opened took, failed or not.
     *
     * @return milliseconds; {@code -1} (the default) when none ended yet.
     */
    public long lastDurationMillis()
    {
        return lastDurationMillis;
    }

    /**
     * How long the running checkpoint has been running.
     *
     * @return milliseconds; {@code -1} (the default) when none is running.
     */
    public long currentDurationMillis()
    {
        return currentDurationMillis;
    }

    /**
     * How many changes the store has logged since the newest snapshot began: each a write of one key or one atomic
     * batch.
     *
     * @return a count; {@code -1} (the default) when the store does not know (it keeps no log).
     */
    public long changesSinceCheckpoint()
    {
        return changesSinceCheckpoint;
    }

    /**
     * Whether the store's log has failed (a write or a sync to it did), which makes the store refuse writes until it
     * is reopened.
     *
     * @return {@code false} by default.
     */
    public boolean logFailed()
    {
        return logFailed;
    }

    /**
     * How many checkpoints in a row have failed, up to now (0 once one succeeds): the store retries automatic
     * checkpoints after a delay that doubles with each failure, so that a full disk is not written to over and over.
     *
     * @return a count, 0 by default.
     */
    public int failuresInARow()
    {
        return failuresInARow;
    }

    /**
     * How long until the store tries its next automatic checkpoint after a failed one.
     *
     * @return milliseconds; {@code -1} (the default) when it is not waiting to retry.
     */
    public long retryInMillis()
    {
        return retryInMillis;
    }

    @Override
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof CheckpointStatus))
        {
            return false;
        }
        final CheckpointStatus that = (CheckpointStatus)o;
        return inProgress == that.inProgress && lastCheckpointMillis == that.lastCheckpointMillis &&
            lastCheckpointFailed == that.lastCheckpointFailed && lastDurationMillis == that.lastDurationMillis &&
            currentDurationMillis == that.currentDurationMillis &&
            changesSinceCheckpoint == that.changesSinceCheckpoint && logFailed == that.logFailed &&
            failuresInARow == that.failuresInARow && retryInMillis == that.retryInMillis;
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(inProgress, lastCheckpointMillis, lastCheckpointFailed, lastDurationMillis,
            currentDurationMillis, changesSinceCheckpoint, logFailed, failuresInARow, retryInMillis);
    }

    @Override
    public String toString()
    {
        return "CheckpointStatus{inProgress=" + inProgress + ", lastCheckpointMillis=" + lastCheckpointMillis +
            ", lastCheckpointFailed=" + lastCheckpointFailed + ", lastDurationMillis=" + lastDurationMillis +
            ", currentDurationMillis=" + currentDurationMillis + ", changesSinceCheckpoint=" +
            changesSinceCheckpoint + ", logFailed=" + logFailed + ", failuresInARow=" + failuresInARow +
            ", retryInMillis=" + retryInMillis + "}";
    }

    /**
     * Builds a {@link CheckpointStatus}; every setter returns the builder.
     */
    public static final class Builder
    {
        private boolean inProgress;
        private long lastCheckpointMillis;
        private boolean lastCheckpointFailed;
        private long lastDurationMillis = -1;
        private long currentDurationMillis = -1;
        private long changesSinceCheckpoint = -1;
        private boolean logFailed;
        private int failuresInARow;
        private long retryInMillis = -1;

        private Builder()
        {
        }

        /**
         * Sets {@link CheckpointStatus#inProgress()}.
         *
         * @param inProgress whether a checkpoint is running.
         * @return this builder.
         */
        public Builder inProgress(final boolean inProgress)
        {
            this.inProgress = inProgress;
            return this;
        }

        /**
         * Sets {@link CheckpointStatus#lastCheckpointMillis()}.
         *
         * @param lastCheckpointMillis epoch milliseconds, {@code 0} for none.
         * @return this builder.
         * @throws IllegalArgumentException if negative.
         */
        public Builder lastCheckpointMillis(final long lastCheckpointMillis)
        {
            if (lastCheckpointMillis < 0)
            {
                throw new IllegalArgumentException(
                    "lastCheckpointMillis must not be negative: " + lastCheckpointMillis);
            }
            this.lastCheckpointMillis = lastCheckpointMillis;
            return this;
        }

        /**
         * Sets {@link CheckpointStatus#lastCheckpointFailed()}.
         *
         * @param lastCheckpointFailed whether the last checkpoint failed.
         * @return this builder.
         */
        public Builder lastCheckpointFailed(final boolean lastCheckpointFailed)
        {
            this.lastCheckpointFailed = lastCheckpointFailed;
            return this;
        }

        /**
         * Sets {@link CheckpointStatus#lastDurationMillis()}.
         *
         * @param lastDurationMillis milliseconds, {@code -1} for none.
         * @return this builder.
         * @throws IllegalArgumentException if below {@code -1}.
         */
        public Builder lastDurationMillis(final long lastDurationMillis)
        {
            this.lastDurationMillis = atLeastMinusOne("lastDurationMillis", lastDurationMillis);
            return this;
        }

        /**
         * Sets {@link CheckpointStatus#currentDurationMillis()}.
         *
         * @param currentDurationMillis milliseconds, {@code -1} for none running.
         * @return this builder.
         * @throws IllegalArgumentException if below {@code -1}.
         */
        public Builder currentDurationMillis(final long currentDurationMillis)
        {
            this.currentDurationMillis = atLeastMinusOne("currentDurationMillis", currentDurationMillis);
            return this;
        }

        /**
         * Sets {@link CheckpointStatus#changesSinceCheckpoint()}.
         *
         * @param changesSinceCheckpoint a count, {@code -1} for unknown.
         * @return this builder.
         * @throws IllegalArgumentException if below {@code -1}.
         */
        public Builder changesSinceCheckpoint(final long changesSinceCheckpoint)
        {
            this.changesSinceCheckpoint = atLeastMinusOne("changesSinceCheckpoint", changesSinceCheckpoint);
            return this;
        }

        /**
         * Sets {@link CheckpointStatus#logFailed()}.
         *
         * @param logFailed whether the store's log has failed.
         * @return this builder.
         */
        public Builder logFailed(final boolean logFailed)
        {
            this.logFailed = logFailed;
            return this;
        }

        /**
         * Sets {@link CheckpointStatus#failuresInARow()}.
         *
         * @param failuresInARow checkpoints failed in a row, 0 or more.
         * @return this builder.
         */
        public Builder failuresInARow(final int failuresInARow)
        {
            if (failuresInARow < 0)
            {
                throw new IllegalArgumentException("failuresInARow must be 0 or more: " + failuresInARow);
            }
            this.failuresInARow = failuresInARow;
            return this;
        }

        /**
         * Sets {@link CheckpointStatus#retryInMillis()}.
         *
         * @param retryInMillis milliseconds until the next automatic attempt, {@code -1} for none.
         * @return this builder.
         */
        public Builder retryInMillis(final long retryInMillis)
        {
            this.retryInMillis = atLeastMinusOne("retryInMillis", retryInMillis);
            return this;
        }

        /**
         * Builds the status.
         *
         * @return a new, immutable status.
         */
        public CheckpointStatus build()
        {
            return new CheckpointStatus(this);
        }

        private static long atLeastMinusOne(final String name, final long value)
        {
            if (value < -1)
            {
                throw new IllegalArgumentException(name + " must be -1 or more: " + value);
            }
            return value;
        }
    }
}
