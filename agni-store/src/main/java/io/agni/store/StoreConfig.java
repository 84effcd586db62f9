package io.agni.store;

import io.agni.api.Durability;
import io.agni.api.EvictionPolicy;
import io.agni.store.file.FileLayer;
import org.agrona.concurrent.EpochClock;

import java.nio.file.Path;

/**
 * The validated settings of one store, fixed when it opens.
 *
 * @param shards                the shard count, a power of two.
 * @param maxMemoryBytes        the memory budget.
 * @param maxKeyLength          the longest key accepted.
 * @param maxValueLength        the longest value accepted.
 * @param clock                 the source of now for expiry.
 * @param expirySweepIntervalMs the background sweep interval, {@code 0} for none.
 * @param directory             the store's directory, {@code null} for none.
 * @param durability            the preset.
 * @param files                 the file layer.
 * @param logSegmentBytes       the length of a new log segment.
 * @param checkpointLogBytes    the log growth below which no automatic checkpoint runs.
 * @param evictionPolicy        what a write does when the budget refuses it, at first.
 */
record StoreConfig(
    int shards,
    long maxMemoryBytes,
    int maxKeyLength,
    int maxValueLength,
    EpochClock clock,
    long expirySweepIntervalMs,
    Path directory,
    Durability durability,
    FileLayer files,
    int logSegmentBytes,
    long checkpointLogBytes,
    EvictionPolicy evictionPolicy)
{
}
