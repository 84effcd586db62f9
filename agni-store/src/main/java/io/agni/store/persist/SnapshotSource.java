package io.agni.store.persist;

import io.agni.store.snapshot.SnapshotWriter;

import java.io.IOException;

/**
 * What a store gives its persistence for a checkpoint: its live entries, written to a snapshot. How the store is
 * rebuilt from one is a {@link RecoveryTarget}.
 */
public interface SnapshotSource
{
    /**
     * Writes every live entry to a snapshot.
     *
     * @param writer     the snapshot.
     * @param consistent whether the entries must be one instant's (every shard held at once, writers waiting), as
     *                   a snapshot with no log behind it must be; otherwise one shard at a time.
     * @throws IOException when the snapshot cannot be written.
     */
    void snapshot(SnapshotWriter writer, boolean consistent) throws IOException;

    /**
     * About how many bytes a snapshot of the entries would take now, for the check that the disk has room for it.
     *
     * @return bytes, at least 0.
     */
    long estimatedSnapshotBytes();
}
