package io.agni.net.launcher;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MemorySizeTest
{
    @Test
    void plainNumberIsBytes()
    {
        assertEquals(0, MemorySize.parse("0"));
        assertEquals(268_435_456L, MemorySize.parse("268435456"));
        assertEquals(12, MemorySize.parse("12b"));
    }

    @Test
    void unitsAreRedisDecimalAndBinaryOnes()
    {
        assertEquals(5_000L, MemorySize.parse("5k"));
        assertEquals(5L << 10, MemorySize.parse("5kb"));
        assertEquals(100_000_000L, MemorySize.parse("100m"));
        assertEquals(100L << 20, MemorySize.parse("100mb"));
        assertEquals(2_000_000_000L, MemorySize.parse("2g"));
        assertEquals(1L << 30, MemorySize.parse("1gb"));
    }

    @Test
    void unitsIgnoreCase()
    {
        assertEquals(100L << 20, MemorySize.parse("100MB"));
        assertEquals(1L << 30, MemorySize.parse("1Gb"));
    }

    @Test
    void rejectsUnknownUnitsSignsAndEmptyText()
    {
        assertEquals("unknown unit 'tb' (use b, k, kb, m, mb, g or gb)",
            assertThrows(IllegalArgumentException.class, () -> MemorySize.parse("1tb")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> MemorySize.parse("-1"));
        assertThrows(IllegalArgumentException.class, () -> MemorySize.parse(""));
        assertThrows(IllegalArgumentException.class, () -> MemorySize.parse("mb"));
        assertThrows(IllegalArgumentException.class, () -> MemorySize.parse("1 mb"));
    }

    @Test
    void rejectsSizesThatOverflowALong()
    {
        assertEquals("size too large",
            assertThrows(IllegalArgumentException.class, () -> MemorySize.parse("9223372036854775808")).getMessage());
        assertEquals("size too large",
            assertThrows(IllegalArgumentException.class, () -> MemorySize.parse("9000000000gb")).getMessage());
    }

    @Test
    void formatUsesTheLargestExactBinaryUnitAndParsesBack()
    {
        assertEquals("1gb", MemorySize.format(1L << 30));
        assertEquals("64mb", MemorySize.format(64L << 20));
        assertEquals("3kb", MemorySize.format(3072));
        assertEquals("1000", MemorySize.format(1000));
        assertEquals("0", MemorySize.format(0));
        for (final long bytes : new long[]{0, 1, 1000, 1024, 1536, 64L << 20, 1L << 30, 3L << 40})
        {
            assertEquals(bytes, MemorySize.parse(MemorySize.format(bytes)));
        }
    }
}
