package io.agni.bench.net.cpu;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuSetTest
{
    @Test
    void parsesSinglesRangesAndListsAsTasksetTakesThem()
    {
        assertArrayEquals(new int[]{0}, CpuSet.parse("0").toArray());
        assertArrayEquals(new int[]{0, 1, 2, 3, 6, 8, 9}, CpuSet.parse("0-3,6,8-9").toArray());
        assertArrayEquals(new int[]{2, 5}, CpuSet.parse(" 5 , 2 ").toArray());
        assertArrayEquals(new int[]{1, 2, 3}, CpuSet.parse("1-2,2-3").toArray(), "overlaps merge");
    }

    @Test
    void printsCompactRangesThatParseBackToTheSameSet()
    {
        assertEquals("0-3,6,8-9", CpuSet.parse("9,8,6,3,2,1,0").toString());
        assertEquals("1", CpuSet.of(1).toString());
        for (final String text : new String[]{"0", "0-1", "0,2,4-7", "3-4,10-12,15"})
        {
            assertEquals(text, CpuSet.parse(CpuSet.parse(text).toString()).toString());
        }
    }

    @Test
    void rejectsWhatIsNotACpuListWithTheText()
    {
        for (final String bad : new String[]{"", " ", "a", "1-", "-1", "1,,2", "3-1", "1.5", "0x1", "99999999"})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> CpuSet.parse(bad),
                bad);
            assertTrue(ex.getMessage().contains("CPU"), ex.getMessage());
        }
        assertThrows(IllegalArgumentException.class, CpuSet::of);
        assertThrows(IllegalArgumentException.class, () -> CpuSet.of(-1));
    }

    @Test
    void setOperationsForTheSplit()
    {
        final CpuSet all = CpuSet.parse("0-3");
        assertEquals(CpuSet.parse("2-3"), all.last(2));
        assertEquals(CpuSet.parse("0-1"), all.minus(all.last(2)));
        assertNull(all.minus(all));
        assertTrue(CpuSet.of(0).disjoint(CpuSet.of(1)));
        assertFalse(CpuSet.parse("0-1").disjoint(CpuSet.of(1)));
        assertTrue(CpuSet.of(1).within(all));
        assertFalse(CpuSet.of(4).within(all));
        assertThrows(IllegalArgumentException.class, () -> all.last(5));
    }
}
