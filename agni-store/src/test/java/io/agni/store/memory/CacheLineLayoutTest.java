package io.agni.store.memory;

import io.agni.store.arena.Arena;
import io.agni.store.arena.Segment;
import io.agni.store.shard.Shard;
import org.agrona.UnsafeApi;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The field layout that keeps writers' counters off the cache lines readers load (docs/architecture.md, "Cache
 * lines"), checked on the running JVM: the JVM may place a subclass's field in a gap of a superclass, and a field
 * added later would not say so.
 */
class CacheLineLayoutTest
{
    private static final int LINE = 64;

    @ParameterizedTest
    @ValueSource(classes = {Shard.class, Arena.class, Segment.class})
    void countersSitAtLeastALineFromTheObjectsStartAndFromEveryOtherField(final Class<?> type)
    {
        final Class<?> counters = counterClass(type);
        final List<long[]> written = new ArrayList<>();
        final List<long[]> others = new ArrayList<>();
        for (Class<?> c = type; c != LinePadding.class; c = c.getSuperclass())
        {
            for (final Field f : c.getDeclaredFields())
            {
                if (Modifier.isStatic(f.getModifiers()) || c.getSimpleName().endsWith("Padding"))
                {
                    continue;
                }
                final long offset = UnsafeApi.objectFieldOffset(f);
                (c == counters ? written : others).add(new long[]{offset, offset + size(f.getType())});
            }
        }
        assertFalse(written.isEmpty(), type + " has no counters");
        assertFalse(others.isEmpty(), type + " has no other fields");
        final long firstWritten = written.stream().mapToLong(r -> r[0]).min().orElseThrow();
        final long endWritten = written.stream().mapToLong(r -> r[1]).max().orElseThrow();
        assertTrue(firstWritten >= LINE, type.getSimpleName() + ": a counter at offset " + firstWritten +
            " may share a line with the object before it");
        for (final long[] other : others)
        {
            assertTrue(other[0] >= endWritten + LINE,
                type.getSimpleName() + ": a field at offset " + other[0] + " is within a line of the counters, which end at " +
                endWritten);
        }
    }

    private static Class<?> counterClass(final Class<?> type)
    {
        for (Class<?> c = type; c != null; c = c.getSuperclass())
        {
            if (c.getSuperclass() == LinePadding.class)
            {
                return c;
            }
        }
        throw new AssertionError(type + " does not extend LinePadding");
    }

    private static int size(final Class<?> type)
    {
        if (type == long.class || type == double.class)
        {
            return 8;
        }
        if (type == int.class || type == float.class)
        {
            return 4;
        }
        if (type == short.class || type == char.class)
        {
            return 2;
        }
        if (type == byte.class || type == boolean.class)
        {
            return 1;
        }
        return 8; // a reference: 4 with compressed oops, 8 without; the larger is the safe bound
    }
}
