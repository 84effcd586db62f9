package io.agni.bench.adapter;

import io.agni.bench.JvmFlags;
import org.agrona.ExpandableDirectByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every adapter stores, overwrites and reads back, and misses absent keys: the seconds-long check that the
 * benchmarks compare working stores (Chronicle Map and OHC included, with the flags of {@link JvmFlags}).
 */
class StoreAdapterTest
{
    private static final int KEYS = 1_000;
    private static final int KEY_LENGTH = 16;
    private static final int VALUE_LENGTH = 100;

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    @Timeout(60)
    void storesOverwritesAndReadsBackEveryKey(final StoreKind kind)
    {
        final KeySet keys = KeySet.generate(KEYS, KEY_LENGTH, 1);
        final KeySet absent = KeySet.generate(KEYS, KEY_LENGTH, 2);
        final Value first = new Value(VALUE_LENGTH, 1);
        final Value second = new Value(VALUE_LENGTH, 2);
        final ExpandableDirectByteBuffer dst = new ExpandableDirectByteBuffer(8);

        try (StoreAdapter adapter = kind.open(KEYS, KEY_LENGTH, VALUE_LENGTH))
        {
            for (int i = 0; i < KEYS; i++)
            {
                adapter.put(keys, i, first);
            }
            for (int i = 0; i < KEYS; i += 2)
            {
                adapter.put(keys, i, second);
            }
            for (int i = 0; i < KEYS; i++)
            {
                assertEquals(VALUE_LENGTH, adapter.get(keys, i, dst), "key " + i);
                if (kind != StoreKind.CHM_PREKEYED_REF) // returns the stored array's length, copies nothing
                {
                    final byte[] read = new byte[VALUE_LENGTH];
                    dst.getBytes(0, read);
                    assertArrayEquals((i % 2 == 0 ? second : first).array(), read, "key " + i);
                }
                assertEquals(StoreAdapter.NOT_FOUND, adapter.get(absent, i, dst), "absent key " + i);
            }

            final StoreAdapter.OffHeapUsage usage = adapter.offHeapUsage();
            assertTrue(usage.bytes() >= 0, usage.toString());
            assertTrue(kind.isOnHeap() || usage.bytes() > 0, usage.toString());
        }
    }

    @Test
    void keysAreDistinctAndSetsWithDifferentTagsAreDisjoint()
    {
        final KeySet a = KeySet.generate(KEYS, KEY_LENGTH, 1);
        final KeySet b = KeySet.generate(KEYS, KEY_LENGTH, 2);
        final Set<ByteBuffer> seen = new HashSet<>();
        for (int i = 0; i < KEYS; i++)
        {
            assertTrue(seen.add(ByteBuffer.wrap(a.array(i))), "repeated key " + i);
        }
        for (int i = 0; i < KEYS; i++)
        {
            assertFalse(seen.contains(ByteBuffer.wrap(b.array(i))), "shared key " + i);
        }
        assertArrayEquals(a.array(7), KeySet.generate(KEYS, KEY_LENGTH, 1).array(7));
    }

    @Test
    void testJvmHasTheFlagsThatChronicleMapNeeds()
    {
        final List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (final String flag : JvmFlags.CHRONICLE)
        {
            assertTrue(args.contains(flag), "surefire argLine in agni-bench/pom.xml lacks " + flag);
        }
    }
}
