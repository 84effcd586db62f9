package io.agni.store.evict;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GhostTest
{
    private static Ghost ghost(final int words, final long entries)
    {
        final Ghost ghost = new Ghost();
        ghost.forget(new UnsafeBuffer(new byte[words * Long.BYTES]));
        ghost.resize(entries);
        return ghost;
    }

    @Test
    void aTagAddedIsRememberedOnceAndForgottenWhenRemoved()
    {
        final Ghost ghost = ghost(16, 16);
        ghost.add(12345);
        assertTrue(ghost.remove(12345));
        assertFalse(ghost.remove(12345), "a ghost hit forgets the tag");
        assertFalse(ghost.remove(54321));
    }

    @Test
    void tagZeroIsATagLikeAnyOther()
    {
        final Ghost ghost = ghost(16, 16);
        assertFalse(ghost.remove(0), "an empty word is not tag 0");
        ghost.add(0);
        assertTrue(ghost.remove(0));
    }

    @Test
    void onlyTheLastCapacityInsertionsAreRemembered()
    {
        final Ghost ghost = ghost(16_384, 10_000);
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
    void theCapacityIsAtMostTheWords()
    {
        assertEquals(64, ghost(64, 1_000_000).capacity());
        assertEquals(0, new Ghost().capacity());
    }

    @Test
    void movingToLargerWordsKeepsWhatWasRemembered()
    {
        final Ghost ghost = ghost(16, 16);
        for (int tag = 100; tag < 110; tag++)
        {
            ghost.add(tag);
        }
        ghost.attach(new UnsafeBuffer(new byte[1024 * Long.BYTES]));
        ghost.resize(1_000);
        for (int tag = 100; tag < 110; tag++)
        {
            assertTrue(ghost.remove(tag), "tag " + tag);
        }
    }

    @Test
    void forgetForgetsEverythingAndWithoutWordsNothingIsRemembered()
    {
        final Ghost ghost = ghost(16, 16);
        ghost.add(7);
        ghost.forget(new UnsafeBuffer(new byte[16 * Long.BYTES]));
        assertFalse(ghost.remove(7));
        ghost.forget(null);
        ghost.add(8);
        assertFalse(ghost.remove(8));
    }
}
