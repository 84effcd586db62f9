package io.agni.store.shard;

import io.agni.store.arena.Arena;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An entry written but never linked (setAll, rename) pins its segment; the integrity check finds a pin left behind,
 * and abandoning the entry gives its space back.
 */
class UnlinkedEntryTest
{
    private final ShardDriver d = new ShardDriver(1 << 20);

    @AfterEach
    void close()
    {
        d.close();
    }

    @Test
    void aPinLeftBehindFailsTheIntegrityCheckAndAbandoningTheEntryClearsIt()
    {
        d.set(1, ShardDriver.value(1, 1, 100));
        final byte[] key = ShardDriver.key(2);
        final byte[] value = ShardDriver.value(2, 1, 100);
        final int headFree = d.arena().headFree();

        final long location = prepare(key, value);
        assertNotEquals(Arena.NO_SPACE, location);
        final IllegalStateException pinned = assertThrows(IllegalStateException.class, d::verify);
        assertEquals("integrity: segment " + Arena.segmentIdOf(location) + " is pinned by 1 entries never linked",
            pinned.getMessage());

        final long stamp = d.shard.lockWrite(null);
        try
        {
            d.shard.abandonLocked(location, key.length, value.length);
        }
        finally
        {
            d.shard.unlockWrite(stamp);
        }
        d.verify();
        assertEquals(headFree, d.arena().headFree(), "the abandoned entry's space is the head's again");
        assertEquals(0, d.arena().garbageBytes());
    }

    private long prepare(final byte[] key, final byte[] value)
    {
        final long stamp = d.shard.lockWrite(null);
        try
        {
            return d.shard.prepareLocked(
                new UnsafeBuffer(key), 0, key.length, new UnsafeBuffer(value), 0, value.length);
        }
        finally
        {
            d.shard.unlockWrite(stamp);
        }
    }
}
