package io.agni.store;

import io.agni.api.Durability;
import io.agni.api.EvictionPolicy;
import io.agni.store.file.FileLayer;
import io.agni.store.memory.DirectMemory;
import io.agni.store.memory.OffHeapMemory;
import io.agni.store.persist.Persistence;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Configures and opens an {@link OffHeapStore}. Every setting has a default (the {@code DEFAULT_...} constants);
 * {@link #build()} validates them together and says what conflicted. Not thread-safe; a builder may be reused.
 */
public final class OffHeapStoreBuilder
{
    /**
     * The largest key or value Redis accepts, 512 MiB: the default limit for both.
     */
    public static final int DEFAULT_MAX_ENTRY_PART_LENGTH = 512 * 1024 * 1024;

    /**
     * How often the background expiry sweep runs by default: every 100 milliseconds.
     */
    public static final Duration DEFAULT_EXPIRY_SWEEP_INTERVAL = Duration.ofMillis(100);

    /**
     * Default for {@link #evictionPolicy(EvictionPolicy)}: refuse a write the budget cannot hold.
     */
    public static final EvictionPolicy DEFAULT_EVICTION_POLICY = EvictionPolicy.NO_EVICTION;

    /**
     * Default for {@link #checkpointLogBytes(long)}: 64 MiB.
     */
    public static final long DEFAULT_CHECKPOINT_LOG_BYTES = 64L * 1024 * 1024;

    /**
     * The most shards a store may have.
     */
    public static final int MAX_SHARDS = 1 << 16;

    /**
     * The smallest memory budget a store accepts, per shard: room for an empty index and one small segment.
     */
    public static final long MIN_BUDGET_PER_SHARD = 8 * 1024;

    private int shards = defaultShards();
    private long maxMemoryBytes = defaultMaxMemory();
    private boolean maxMemorySet;
    private int maxKeyLength = DEFAULT_MAX_ENTRY_PART_LENGTH;
    private boolean maxKeyLengthSet;
    private int maxValueLength = DEFAULT_MAX_ENTRY_PART_LENGTH;
    private boolean maxValueLengthSet;
    private EpochClock clock = SystemEpochClock.INSTANCE;
    private long expirySweepIntervalMs = DEFAULT_EXPIRY_SWEEP_INTERVAL.toMillis();
    private Path directory;
    private Durability durability;
    private FileLayer files = FileLayer.system();
    private int logSegmentBytes = Persistence.DEFAULT_SEGMENT_BYTES;
    private long checkpointLogBytes = DEFAULT_CHECKPOINT_LOG_BYTES;
    private EvictionPolicy evictionPolicy = DEFAULT_EVICTION_POLICY;

    OffHeapStoreBuilder()
    {
    }

    private IllegalArgumentException limitsOverBudget(final int keyLimit, final int valueLimit)
    {
        return new IllegalArgumentException("maxKeyLength + maxValueLength exceed maxMemory: maxKeyLength=" +
            keyLimit + ", maxValueLength=" + valueLimit + ", maxMemory=" + maxMemoryBytes);
    }

    /**
     * The default shard count: the next power of two at or above four times the available processors, at most 256.
     *
     * @return the default shard count.
     */
    public static int defaultShards()
    {
        final int wanted = 4 * Runtime.getRuntime().availableProcessors();
        return Math.min(256, Integer.highestOneBit(Math.max(1, wanted - 1)) << 1);
    }

    /**
     * The default memory budget: the JVM's limit on direct memory ({@code -XX:MaxDirectMemorySize}, by default the
     * maximum heap size), so that a default store can use all the off-heap memory the JVM allows it.
     *
     * @return the default budget in bytes.
     */
    public static long defaultMaxMemory()
    {
        return DirectMemory.limit();
    }

    /**
     * The number of shards: a power of two from 1 to {@link #MAX_SHARDS}. One shard is one lock around one map.
     *
     * @param shards the shard count.
     * @return this builder.
     */
    public OffHeapStoreBuilder shards(final int shards)
    {
        this.shards = shards;
        return this;
    }

    /**
     * The memory budget: the most off-heap bytes the store may hold, index tables and entry segments together,
     * including replaced ones not freed yet. Writes that would go past it are refused with
     * {@link io.agni.api.CapacityExceededException}. It must fit the JVM's direct-memory limit
     * ({@code -XX:MaxDirectMemorySize}, by default the maximum heap size), or {@link #build()} refuses it.
     *
     * @param bytes the budget in bytes.
     * @return this builder.
     */
    public OffHeapStoreBuilder maxMemory(final long bytes)
    {
        this.maxMemoryBytes = bytes;
        this.maxMemorySet = true;
        return this;
    }

    /**
     * The longest key accepted, in bytes. Default 512 MiB; when the budget cannot hold the default key and value
     * limits together, a limit left at its default shrinks to fit (half the budget each if neither is set).
     *
     * @param length the limit, at least 1.
     * @return this builder.
     */
    public OffHeapStoreBuilder maxKeyLength(final int length)
    {
        this.maxKeyLength = length;
        this.maxKeyLengthSet = true;
        return this;
    }

    /**
     * The longest value accepted, in bytes (default 512 MiB, or less when the budget is smaller).
     *
     * @param length the limit, at least 0.
     * @return this builder.
     */
    public OffHeapStoreBuilder maxValueLength(final int length)
    {
        this.maxValueLength = length;
        this.maxValueLengthSet = true;
        return this;
    }

    /**
     * The clock that expiry times are compared with, in milliseconds since the epoch; by default
     * {@link org.agrona.concurrent.SystemEpochClock}. Tests pass an {@link org.agrona.concurrent.CachedEpochClock}
     * to move time by hand.
     * <p>
     * Every read of an entry that has an expiry time reads this clock once, and entries without one never do. The
     * system clock costs about as much as the rest of such a GET (docs/experiments/in-process-store.md, "GET of
     * entries with an expiry time"); an application with its own duty cycle can pass a {@code CachedEpochClock} that the cycle
     * updates, trading expiry precision (an entry stays readable until the clock is next updated past its
     * deadline) for a field read.
     *
     * @param clock the clock.
     * @return this builder.
     */
    public OffHeapStoreBuilder clock(final EpochClock clock)
    {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * How often a background thread reclaims expired entries; {@code 0} turns the thread off, leaving reclamation to
     * access and to {@link OffHeapStore#sweepExpired()}.
     *
     * @param interval the interval, {@link Duration#ZERO} or more; default {@link #DEFAULT_EXPIRY_SWEEP_INTERVAL}.
     *                 Kept in milliseconds, a positive interval below one millisecond counting as one.
     * @return this builder.
     * @throws IllegalArgumentException if the interval is negative.
     */
    public OffHeapStoreBuilder expirySweepInterval(final Duration interval)
    {
        Objects.requireNonNull(interval, "expirySweepInterval");
        if (interval.isNegative())
        {
            throw new IllegalArgumentException(
                "expirySweepInterval must not be negative: expirySweepInterval=" + interval);
        }
        if (interval.compareTo(Duration.ofMillis(Long.MAX_VALUE)) > 0)
        {
            this.expirySweepIntervalMs = Long.MAX_VALUE;
        }
        else
        {
            final long millis = interval.toMillis();
            this.expirySweepIntervalMs = millis == 0 && !interval.isZero() ? 1 : millis;
        }
        return this;
    }

    /**
     * @return the sweep interval {@link #build()} will use, in milliseconds; {@code 0} for no sweep thread.
     */
    long expirySweepIntervalMs()
    {
        return expirySweepIntervalMs;
    }

    /**
     * The directory the store keeps its data in (docs/durability.md), created if missing; a store owns its
     * directory alone, and a second open of it, from this JVM or another process, fails at once. Without a
     * directory the store is in memory only ({@link Durability#NONE}); with one, the default durability is
     * {@link Durability#DURABLE}.
     *
     * @param directory the directory, or {@code null} for none.
     * @return this builder.
     */
    public OffHeapStoreBuilder directory(final Path directory)
    {
        this.directory = directory;
        return this;
    }

    /**
     * What the store keeps across a restart. {@link Durability#NONE} needs no directory, every other preset needs
     * one.
     *
     * @param durability the preset.
     * @return this builder.
     */
    public OffHeapStoreBuilder durability(final Durability durability)
    {
        this.durability = Objects.requireNonNull(durability, "durability");
        return this;
    }

    /**
     * When the store checkpoints by itself: once the write-ahead log has grown by the larger of this and the store's
     * live data since the last snapshot (docs/durability.md, "Checkpoints"). A lower value keeps less log to
     * replay after a crash and less disk in use, for more snapshot writing; {@link Long#MAX_VALUE} leaves
     * checkpoints to {@link OffHeapStore#checkpoint()} and {@link OffHeapStore#close()}, and the log to grow
     * without bound until then. Without a log ({@link Durability#FAST}, {@link Durability#NONE}) it has no effect.
     *
     * @param bytes at least 1 MiB; default {@link #DEFAULT_CHECKPOINT_LOG_BYTES}.
     * @return this builder.
     * @throws IllegalArgumentException if {@code bytes} is under 1 MiB.
     */
    public OffHeapStoreBuilder checkpointLogBytes(final long bytes)
    {
        if (bytes < 1024 * 1024)
        {
            throw new IllegalArgumentException("checkpointLogBytes must be at least 1 MiB: " + bytes);
        }
        this.checkpointLogBytes = bytes;
        return this;
    }

    /**
     * The file layer: tests give one that can lose unsynced bytes or fail.
     */
    OffHeapStoreBuilder fileLayer(final FileLayer files)
    {
        this.files = Objects.requireNonNull(files, "files");
        return this;
    }

    /**
     * The length of a new log segment; tests use small ones.
     */
    OffHeapStoreBuilder logSegmentBytes(final int bytes)
    {
        this.logSegmentBytes = bytes;
        return this;
    }

    /**
     * What a write does when the budget cannot hold it: refuse it (the default), or evict entries to make room
     * (docs/eviction.md). It can be changed while the store runs ({@link OffHeapStore#evictionPolicy(EvictionPolicy)}).
     *
     * @param policy the policy.
     * @return this builder.
     */
    public OffHeapStoreBuilder evictionPolicy(final EvictionPolicy policy)
    {
        this.evictionPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Checks a memory budget for a store of {@code shards} shards, when it is built and when it changes.
     *
     * @throws IllegalArgumentException if the budget is below {@link #MIN_BUDGET_PER_SHARD} per shard or above the
     *                                  JVM's direct-memory limit.
     */
    static void checkBudget(final long maxMemoryBytes, final int shards)
    {
        final long minBudget = MIN_BUDGET_PER_SHARD * shards;
        if (maxMemoryBytes < minBudget)
        {
            throw new IllegalArgumentException("maxMemory too small for " + shards + " shards: maxMemory=" +
                maxMemoryBytes + ", minimum=" + minBudget + " (" + MIN_BUDGET_PER_SHARD + " per shard)");
        }
        if (maxMemoryBytes > DirectMemory.limit() - OffHeapMemory.DIRECT_BYTES_BEYOND_BUDGET)
        {
            throw new IllegalArgumentException("maxMemory exceeds the JVM's direct memory limit: maxMemory=" +
                maxMemoryBytes + ", maxDirectMemory=" + DirectMemory.limit() +
                " (raise -XX:MaxDirectMemorySize or lower maxMemory)");
        }
    }

    /**
     * Validates the settings and opens a store.
     *
     * @return the open store; the caller must {@link OffHeapStore#close()} it.
     * @throws IllegalArgumentException if a setting is out of range or settings conflict, or the budget does not
     *                                  fit the JVM's direct-memory limit; the message says which.
     * @throws IllegalStateException    if the JVM lacks the flag Agrona needs; the message names it.
     * @throws io.agni.store.DirectoryInUseException if another store, in this JVM or another process, holds
     *                                  the directory.
     * @throws io.agni.store.LogCorruptedException if the write-ahead log is damaged other than at its tail
     *                                  (docs/durability.md, "Recovery").
     * @throws io.agni.store.SnapshotDamagedException if the snapshot is damaged.
     * @throws java.io.UncheckedIOException if the directory's files cannot be read or written.
     */
    public OffHeapStore build()
    {
        if (shards < 1 || shards > MAX_SHARDS || Integer.bitCount(shards) != 1)
        {
            throw new IllegalArgumentException(
                "shards must be a power of two from 1 to " + MAX_SHARDS + ": shards=" + shards);
        }
        checkBudget(maxMemoryBytes, shards);
        if (maxKeyLength < 1)
        {
            throw new IllegalArgumentException("maxKeyLength must be at least 1: maxKeyLength=" + maxKeyLength);
        }
        if (maxValueLength < 0)
        {
            throw new IllegalArgumentException("maxValueLength must be at least 0: maxValueLength=" + maxValueLength);
        }
        final Durability effectiveDurability =
            durability != null ? durability : directory != null ? Durability.DURABLE : Durability.NONE;
        if (effectiveDurability == Durability.NONE && directory != null)
        {
            throw new IllegalArgumentException("Durability.NONE keeps nothing on disk, so it takes no directory: " +
                "directory=" + directory);
        }
        if (effectiveDurability != Durability.NONE && directory == null)
        {
            throw new IllegalArgumentException("Durability." + effectiveDurability + " needs a directory");
        }
        if (logSegmentBytes < 4096)
        {
            throw new IllegalArgumentException("logSegmentBytes must be at least 4096: " + logSegmentBytes);
        }

        int keyLimit = maxKeyLength;
        int valueLimit = maxValueLength;
        if ((long)keyLimit + valueLimit > maxMemoryBytes)
        {
            if (maxKeyLengthSet && maxValueLengthSet)
            {
                throw limitsOverBudget(keyLimit, valueLimit);
            }
            if (maxKeyLengthSet)
            {
                valueLimit = (int)Math.max(-1, maxMemoryBytes - keyLimit);
            }
            else if (maxValueLengthSet)
            {
                keyLimit = (int)Math.max(0, maxMemoryBytes - valueLimit);
            }
            else
            {
                keyLimit = (int)Math.min(keyLimit, maxMemoryBytes / 2);
                valueLimit = (int)Math.min(valueLimit, maxMemoryBytes / 2);
            }
            if (keyLimit < 1 || valueLimit < 0)
            {
                throw limitsOverBudget(maxKeyLength, maxValueLength);
            }
        }

        return new OffHeapStore(new StoreConfig(shards, maxMemoryBytes, keyLimit, valueLimit, clock,
            expirySweepIntervalMs, directory, effectiveDurability, files, logSegmentBytes, checkpointLogBytes,
            evictionPolicy));
    }
}
