package io.agni.store.log;

import org.agrona.DirectBuffer;

/**
 * Receives the log's records in sequence order during replay.
 */
@FunctionalInterface
public interface LogRecordHandler
{
    /**
     * One intact record; the buffer is valid only during the call. The lengths inside its payload (key and value
     * lengths, a batch's operation count) have been checked against {@code payloadLength}, as {@link LogLayout}
     * describes them.
     *
     * @param type          the record's type, one of {@link LogLayout}'s.
     * @param sequence      its sequence.
     * @param buffer        the segment's buffer.
     * @param payloadOffset where its payload starts.
     * @param payloadLength the payload's length.
     */
    void onRecord(byte type, long sequence, DirectBuffer buffer, int payloadOffset, int payloadLength);
}
