package io.agni.store.snapshot;

import org.agrona.DirectBuffer;

/**
 * Receives a snapshot's entries as it is read.
 */
@FunctionalInterface
public interface SnapshotEntryHandler
{
    /**
     * One entry; the buffer is valid only during the call.
     *
     * @param buffer         holds the key and the value.
     * @param keyOffset      where the key starts.
     * @param keyLength      its length.
     * @param valueOffset    where the value starts.
     * @param valueLength    its length.
     * @param expireAtMillis its absolute expiry time, 0 for none.
     */
    void onEntry(DirectBuffer buffer, int keyOffset, int keyLength, int valueOffset, int valueLength,
        long expireAtMillis);
}
