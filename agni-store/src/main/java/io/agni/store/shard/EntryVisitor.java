package io.agni.store.shard;

import org.agrona.DirectBuffer;

import java.io.IOException;

/**
 * Receives a shard's live entries, for a snapshot.
 */
@FunctionalInterface
public interface EntryVisitor
{
    /**
     * One live entry; the buffer is the shard's own memory, valid only during the call.
     *
     * @param buffer         holds the key and the value.
     * @param keyOffset      where the key starts.
     * @param keyLength      its length.
     * @param valueOffset    where the value starts.
     * @param valueLength    its length.
     * @param expireAtMillis its expiry time, 0 for none.
     * @throws IOException when the visitor cannot write it.
     */
    void visit(DirectBuffer buffer, int keyOffset, int keyLength, int valueOffset, int valueLength,
        long expireAtMillis) throws IOException;
}
