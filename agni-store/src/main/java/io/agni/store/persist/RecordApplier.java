package io.agni.store.persist;

import io.agni.store.log.LogLayout;
import io.agni.store.log.LogRecordHandler;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Applies replayed log records to a {@link RecoveryTarget}, decoding the payloads {@link LogLayout} describes. The
 * replay has checked the lengths inside each payload against its length before handing it on
 * ({@link LogRecordHandler#onRecord}), so none reaches past the record.
 */
final class RecordApplier implements LogRecordHandler
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final RecoveryTarget state;

    RecordApplier(final RecoveryTarget state)
    {
        this.state = state;
    }

    @Override
    public void onRecord(
        final byte type, final long sequence, final DirectBuffer buffer, final int payloadOffset,
        final int payloadLength)
    {
        if (type == LogLayout.BATCH)
        {
            final int count = buffer.getInt(payloadOffset, ORDER);
            int p = payloadOffset + LogLayout.BATCH_FIXED_LENGTH;
            for (int i = 0; i < count; i++)
            {
                final byte operation = buffer.getByte(p);
                p = apply(operation, buffer, p + 1);
            }
            if (p != payloadOffset + payloadLength)
            {
                throw new IllegalStateException("a batch record of sequence " + sequence + " holds " +
                    (payloadOffset + payloadLength - p) + " bytes more than its operations");
            }
        }
        else if (type == LogLayout.CLEAR)
        {
            state.recoverClear();
        }
        else
        {
            apply(type, buffer, payloadOffset);
        }
    }

    /**
     * Applies one operation's payload at {@code p}.
     *
     * @return where the payload ends.
     */
    private int apply(final byte type, final DirectBuffer buffer, final int p)
    {
        switch (type)
        {
            case LogLayout.SET:
            {
                final int keyLength = buffer.getInt(p, ORDER);
                final int valueLength = buffer.getInt(p + Integer.BYTES, ORDER);
                final long expireAt = buffer.getLong(p + 2 * Integer.BYTES, ORDER);
                final int key = p + LogLayout.SET_FIXED_LENGTH;
                state.recoverSet(buffer, key, keyLength, key + keyLength, valueLength, expireAt);
                return key + keyLength + valueLength;
            }
            case LogLayout.DELETE:
            {
                final int keyLength = buffer.getInt(p, ORDER);
                state.recoverDelete(buffer, p + LogLayout.DELETE_FIXED_LENGTH, keyLength);
                return p + LogLayout.DELETE_FIXED_LENGTH + keyLength;
            }
            case LogLayout.CLEAR:
                state.recoverClear();
                return p;
            case LogLayout.EXPIRE:
            {
                final int keyLength = buffer.getInt(p, ORDER);
                final long expireAt = buffer.getLong(p + Integer.BYTES, ORDER);
                state.recoverExpire(buffer, p + LogLayout.EXPIRE_FIXED_LENGTH, keyLength, expireAt);
                return p + LogLayout.EXPIRE_FIXED_LENGTH + keyLength;
            }
            default:
                throw new IllegalStateException("unknown operation type " + type + " in a log record");
        }
    }
}
