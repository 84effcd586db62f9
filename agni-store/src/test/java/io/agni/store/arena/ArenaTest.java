package io.agni.store.arena;

import io.agni.store.memory.MemoryBudget;
import io.agni.store.memory.OffHeapMemory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The arena's own guard against an entry length its callers got wrong: a negative length, or one that a cast to int
 * would have wrapped, is a bug upstream and must not move the head. And what an entry written but never linked
 * leaves behind when it is abandoned.
 */
class ArenaTest
{
    private final Arena arena = new Arena(new OffHeapMemory(new MemoryBudget(1 << 20)));

    @AfterEach
    void free()
    {
        arena.releaseAll(true);
    }

    @Test
    void allocateRefusesANegativeOrOverlongLengthAndKeepsTheHead()
    {
        arena.allocate(16);
        final int headFree = arena.headFree();

        assertEquals("entry length out of range: length=-8, limit=" + EntryLayout.MAX_ENTRY_LENGTH,
            assertThrows(IllegalArgumentException.class, () -> arena.allocate(-8)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> arena.allocate(0));
        assertThrows(IllegalArgumentException.class, () -> arena.allocate(EntryLayout.MAX_ENTRY_LENGTH + 8L));
        assertThrows(IllegalArgumentException.class, () -> arena.allocate(Integer.MAX_VALUE + 9L));

        assertEquals(headFree, arena.headFree(), "a refused length leaves the head as it was");
    }

    @Test
    void anEntryAbandonedAtTheEndOfTheHeadGivesItsSpaceBackAndAnyOtherBecomesGarbage()
    {
        final long first = written(64);
        final long second = written(64);
        final long third = written(64);
        final int headFree = arena.headFree();

        abandon(second);
        assertEquals(64, arena.garbageBytes(), "not at the head's end: garbage");
        assertEquals(headFree, arena.headFree());
        assertSame(arena.segments()[Arena.segmentIdOf(second)], arena.choice().mostGarbage());

        abandon(third);
        assertEquals(headFree + 64, arena.headFree(), "at the head's end: free space again");
        assertEquals(64, arena.garbageBytes());

        abandon(first);
        assertEquals(0, arena.liveBytes());
        assertEquals(0, arena.garbageBytes(), "an empty head starts again at 0");
        assertEquals(headFree + 3 * 64, arena.headFree());
        assertNull(arena.choice().mostGarbage());
    }

    private long written(final int length)
    {
        final long location = arena.allocate(length);
        arena.onWritten(Arena.segmentIdOf(location), length);
        return location;
    }

    private void abandon(final long location)
    {
        arena.onAbandoned(Arena.segmentIdOf(location), Arena.offsetOf(location), 64);
    }
}
