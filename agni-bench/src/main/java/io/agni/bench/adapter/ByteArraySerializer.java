package io.agni.bench.adapter;

import org.caffinitas.ohc.CacheSerializer;

import java.nio.ByteBuffer;

/**
 * OHC's serializer for {@code byte[]} keys and values: the bytes as they are, no length prefix (OHC records the
 * serialized length itself).
 */
enum ByteArraySerializer implements CacheSerializer<byte[]>
{
    INSTANCE;

    @Override
    public void serialize(final byte[] value, final ByteBuffer buffer)
    {
        buffer.put(value);
    }

    @Override
    public byte[] deserialize(final ByteBuffer buffer)
    {
        final byte[] value = new byte[buffer.remaining()];
        buffer.get(value);
        return value;
    }

    @Override
    public int serializedSize(final byte[] value)
    {
        return value.length;
    }
}
