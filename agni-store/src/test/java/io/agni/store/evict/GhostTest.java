package io.agni.store.evict;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GhostTest
{
    @Test
    void aTagAddedIsRememberedOnceAndForgottenWhenRemoved()
    {
        final Ghost ghost = new Ghost();
        ghost.add(12345);
        assertTrue(ghost.remove(12345));
        assertFalse(ghost.remove(12345), "a ghost hit forgets the tag");
        assertFalse(ghost.remove(54321));
    }

    @Test
    void tagZeroIsATagLikeAnyOther()
    {
        final Ghost ghost = new Ghost();
        assertFalse(ghost.remove(0), "an empty word is not tag 0");
        ghost.add(0);
        assertTrue(ghost.remove(0));
    }

    @Test
    void onlyTheLastCapacityInsertionsAreRemembered()
    {
        final Ghost ghost = new Ghost();
        ghost.resize(10_000);
        final int capacity = ghost.capacity();
        assertEquals(9_000, capacity);
        for (int tag = 0; tag < 3 * capacity; tag++)
        {
            ghost.add(tag);
        }
        int oldRemembered = 0;
        for (int tag = 0; tag < 2 * capacity; tag++)
        {
            oldRemembered += ghost.remove(tag) ? 1 : 0;
        }
        assertEquals(0, oldRemembered, "tags older than the last capacity insertions are forgotten");
        int recentRemembered = 0;
        for (int tag = 2 * capacity; tag < 3 * capacity; tag++)
        {
            recentRemembered += ghost.remove(tag) ? 1 : 0;
        }
        // a full bucket pushes its oldest out early, so not quite all of the last capacity are still there
        assertTrue(recentRemembered > capacity * 8 / 10, "remembered " + recentRemembered + " of " + capacity);
    }

    @Test
    void growingKeepsWhatWasRemembered()
    {
        final Ghost ghost = new Ghost();
        for (int tag = 100; tag < 110; tag++)
        {
            ghost.add(tag);
        }
        ghost.resize(1_000_000);
        assertTrue(ghost.words() >= ghost.capacity());
        for (int tag = 100; tag < 110; tag++)
        {
            assertTrue(ghost.remove(tag), "tag " + tag);
        }
    }

    @Test
    void clearForgetsEverything()
    {
        final Ghost ghost = new Ghost();
        ghost.add(7);
        ghost.clear();
        assertFalse(ghost.remove(7));
    }
}
