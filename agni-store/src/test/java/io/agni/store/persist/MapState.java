package io.agni.store.persist;

import io.agni.store.snapshot.SnapshotWriter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link RecoveryTarget} and {@link SnapshotSource} over a sorted map of strings, for testing persistence apart from the store.
 */
final class MapState implements RecoveryTarget, SnapshotSource
{
    record Value(String value, long expireAt)
    {
    }

    final TreeMap<String, Value> entries = new TreeMap<>();

    @Override
    public void recoverSet(final DirectBuffer buffer, final int keyOffset, final int keyLength, final int valueOffset,
        final int valueLength, final long expireAtMillis)
    {
        entries.put(buffer.getStringWithoutLengthUtf8(keyOffset, keyLength),
            new Value(buffer.getStringWithoutLengthUtf8(valueOffset, valueLength), expireAtMillis));
    }

    @Override
    public void recoverDelete(final DirectBuffer buffer, final int keyOffset, final int keyLength)
    {
        entries.remove(buffer.getStringWithoutLengthUtf8(keyOffset, keyLength));
    }

    @Override
    public void recoverExpire(final DirectBuffer buffer, final int keyOffset, final int keyLength,
        final long expireAtMillis)
    {
        entries.computeIfPresent(buffer.getStringWithoutLengthUtf8(keyOffset, keyLength),
            (k, v) -> new Value(v.value(), expireAtMillis));
    }

    @Override
    public long recoveryEvictions()
    {
        return 0;
    }

    @Override
    public void recoverClear()
    {
        entries.clear();
    }

    @Override
    public void snapshot(final SnapshotWriter writer, final boolean consistent) throws IOException
    {
        for (final Map.Entry<String, Value> e : entries.entrySet())
        {
            final UnsafeBuffer key = bytes(e.getKey());
            final UnsafeBuffer value = bytes(e.getValue().value());
            writer.add(key, 0, key.capacity(), value, 0, value.capacity(), e.getValue().expireAt());
        }
    }

    @Override
    public long estimatedSnapshotBytes()
    {
        long bytes = 0;
        for (final Map.Entry<String, Value> e : entries.entrySet())
        {
            bytes += 16 + e.getKey().length() + e.getValue().value().length();
        }
        return bytes;
    }

    static UnsafeBuffer bytes(final String s)
    {
        return new UnsafeBuffer(s.getBytes(StandardCharsets.UTF_8));
    }
}
