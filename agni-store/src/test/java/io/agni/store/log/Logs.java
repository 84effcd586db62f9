package io.agni.store.log;

import io.agni.store.file.FileLayer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helpers: open a log, append simple records, and replay into a list.
 */
final class Logs
{
    static final int SMALL_SEGMENT = 4096;

    private Logs()
    {
    }

    /**
     * One replayed record, decoded enough to compare.
     */
    record Entry(byte type, long sequence, String key, String value, long expireAt)
    {
    }

    static LogWriter open(final Path directory, final FileLayer files) throws IOException
    {
        return LogReader.replay(directory, files, SMALL_SEGMENT, 1, (t, s, b, o, l) -> { }).writer();
    }

    static long set(final LogWriter log, final String key, final String value)
    {
        return set(log, key, value, LogLayout.NO_EXPIRY);
    }

    static long set(final LogWriter log, final String key, final String value, final long expireAt)
    {
        final UnsafeBuffer k = buffer(key);
        final UnsafeBuffer v = buffer(value);
        return log.appendSet(k, 0, k.capacity(), v, 0, v.capacity(), expireAt);
    }

    static long delete(final LogWriter log, final String key)
    {
        final UnsafeBuffer k = buffer(key);
        return log.appendDelete(k, 0, k.capacity());
    }

    static UnsafeBuffer buffer(final String s)
    {
        return new UnsafeBuffer(s.getBytes(StandardCharsets.UTF_8));
    }

    static List<Entry> replay(final Path directory, final FileLayer files, final long from) throws IOException
    {
        final List<Entry> entries = new ArrayList<>();
        final LogReader.Replay replay = LogReader.replay(directory, files, SMALL_SEGMENT, from,
            (type, sequence, buffer, offset, length) -> entries.add(decode(type, sequence, buffer, offset)));
        replay.writer().close();
        return entries;
    }

    static Entry decode(final byte type, final long sequence, final DirectBuffer buffer, final int offset)
    {
        switch (type)
        {
            case LogLayout.SET:
            {
                final int keyLength = buffer.getInt(offset, LogLayout.ORDER);
                final int valueLength = buffer.getInt(offset + 4, LogLayout.ORDER);
                final long expireAt = buffer.getLong(offset + 8, LogLayout.ORDER);
                final int p = offset + LogLayout.SET_FIXED_LENGTH;
                return new Entry(type, sequence, buffer.getStringWithoutLengthUtf8(p, keyLength),
                    buffer.getStringWithoutLengthUtf8(p + keyLength, valueLength), expireAt);
            }
            case LogLayout.DELETE:
            {
                final int keyLength = buffer.getInt(offset, LogLayout.ORDER);
                return new Entry(type, sequence,
                    buffer.getStringWithoutLengthUtf8(offset + LogLayout.DELETE_FIXED_LENGTH, keyLength), null, 0);
            }
            case LogLayout.EXPIRE:
            {
                final int keyLength = buffer.getInt(offset, LogLayout.ORDER);
                return new Entry(type, sequence,
                    buffer.getStringWithoutLengthUtf8(offset + LogLayout.EXPIRE_FIXED_LENGTH, keyLength), null,
                    buffer.getLong(offset + 4, LogLayout.ORDER));
            }
            default:
                return new Entry(type, sequence, null, null, 0);
        }
    }
}
