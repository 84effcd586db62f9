package io.agni.store.arena;

import io.agni.store.memory.MemoryBudget;
import io.agni.store.memory.OffHeapMemory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The arena's own guard against an entry length its callers got wrong: a negative length, or one that a cast to int
 * would have wrapped, is a bug upstream and must not move the head.
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
}
