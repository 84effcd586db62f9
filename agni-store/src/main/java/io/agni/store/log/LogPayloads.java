package io.agni.store.log;

import org.agrona.DirectBuffer;

/**
 * Checks that the lengths inside a record's payload (key and value lengths, a batch's operation count) agree with
 * the payload's length, before anything decodes it.
 *
 * <p>A record's checksum proves that its bytes are the ones written, not that they were written right: a writer's
 * bug, or a crafted file, can seal a payload whose key length runs past its end. Decoding one would read outside the
 * record (an index out of bounds, or with bounds checks off another record's bytes), allocate what a length claims,
 * or hand on a wrong record. Replay checks every record it hands on with {@link #problem}, and stops with the file and
 * the offset instead. The formats are {@link LogLayout}'s "Payloads".
 */
final class LogPayloads
{
    /**
     * {@link #operationEnd}: the type is not one an operation may have.
     */
    private static final long UNKNOWN_TYPE = -1;

    /**
     * {@link #operationEnd}: the lengths do not fit.
     */
    private static final long DOES_NOT_FIT = -2;

    private LogPayloads()
    {
    }

    /**
     * What is wrong with the lengths in a record's payload.
     *
     * @param buffer the segment's buffer.
     * @param type   the record's type, one replay hands on (not {@link LogLayout#SYNCED}).
     * @param offset where the payload starts.
     * @param length the payload's length, inside the buffer.
     * @return {@code null} when the lengths agree with {@code length}, else the reason.
     */
    static String problem(final DirectBuffer buffer, final byte type, final int offset, final int length)
    {
        final int limit = offset + length;
        if (type == LogLayout.BATCH)
        {
            return batchProblem(buffer, offset, limit);
        }
        final long end = operationEnd(buffer, type, offset, limit);
        if (end < 0)
        {
            return operationProblem(buffer, type, offset, limit, end);
        }
        return end == limit ? null :
            article(type) + " payload of " + length + " bytes holds " + (limit - end) + " byte(s) more than its " +
            "lengths say";
    }

    private static String batchProblem(final DirectBuffer buffer, final int offset, final int limit)
    {
        final int length = limit - offset;
        if (length < LogLayout.BATCH_FIXED_LENGTH)
        {
            return "a BATCH payload of " + length + " bytes is shorter than its operation count";
        }
        final int count = buffer.getInt(offset, LogLayout.ORDER);
        if (count < 0)
        {
            return "a BATCH payload's operation count is " + count;
        }
        int p = offset + LogLayout.BATCH_FIXED_LENGTH;
        for (int i = 0; i < count; i++)
        {
            // Each operation takes a byte at least, so a count larger than the payload ends here, not after it.
            if (p >= limit)
            {
                return "a BATCH payload of " + length + " bytes ends after " + i + " of its " + count + " operations";
            }
            final byte operation = buffer.getByte(p);
            final long end = operationEnd(buffer, operation, p + 1, limit);
            if (end < 0)
            {
                return "operation " + (i + 1) + " of a BATCH payload (at payload offset " + (p - offset) + "): " +
                    operationProblem(buffer, operation, p + 1, limit, end);
            }
            p = (int)end;
        }
        return p == limit ? null :
            "a BATCH payload of " + length + " bytes holds " + (limit - p) + " byte(s) after its " + count +
            " operation(s)";
    }

    /**
     * Where the payload of an operation of {@code type} that starts at {@code p} ends.
     *
     * @return the end, at most {@code limit}; {@link #DOES_NOT_FIT} or {@link #UNKNOWN_TYPE}.
     */
    private static long operationEnd(final DirectBuffer buffer, final byte type, final int p, final int limit)
    {
        final int fixed = fixedLength(type);
        if (fixed < 0)
        {
            return UNKNOWN_TYPE;
        }
        if (limit - p < fixed)
        {
            return DOES_NOT_FIT;
        }
        if (type == LogLayout.CLEAR)
        {
            return p;
        }
        final int keyLength = buffer.getInt(p, LogLayout.ORDER);
        final int valueLength = type == LogLayout.SET ? valueLength(buffer, p) : 0;
        final long end = (long)p + fixed + keyLength + valueLength;
        return keyLength < 0 || valueLength < 0 || end > limit ? DOES_NOT_FIT : end;
    }

    private static String operationProblem(
        final DirectBuffer buffer, final byte type, final int p, final int limit, final long end)
    {
        if (end == UNKNOWN_TYPE)
        {
            return "unknown operation type " + type;
        }
        final int fixed = fixedLength(type);
        final int available = limit - p;
        if (available < fixed)
        {
            return article(type) + "'s fixed fields (" + fixed + " bytes) do not fit in " + available + " bytes";
        }
        return article(type) + " of key length " + buffer.getInt(p, LogLayout.ORDER) +
            (type == LogLayout.SET ? " and value length " + valueLength(buffer, p) : "") + " does not fit in " +
            available + " bytes";
    }

    /**
     * The bytes before an operation's key, {@code -1} for a type that is not an operation's.
     */
    private static int fixedLength(final byte type)
    {
        switch (type)
        {
            case LogLayout.SET:
                return LogLayout.SET_FIXED_LENGTH;
            case LogLayout.DELETE:
                return LogLayout.DELETE_FIXED_LENGTH;
            case LogLayout.EXPIRE:
                return LogLayout.EXPIRE_FIXED_LENGTH;
            case LogLayout.CLEAR:
                return 0;
            default:
                return -1;
        }
    }

    private static int valueLength(final DirectBuffer buffer, final int p)
    {
        return buffer.getInt(p + Integer.BYTES, LogLayout.ORDER);
    }

    private static String article(final byte type)
    {
        switch (type)
        {
            case LogLayout.SET:
                return "a SET";
            case LogLayout.DELETE:
                return "a DELETE";
            case LogLayout.EXPIRE:
                return "an EXPIRE";
            case LogLayout.CLEAR:
                return "a CLEAR";
            default:
                return "a record of type " + type;
        }
    }
}
