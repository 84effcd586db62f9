package io.agni.bench.net.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsTest
{
    @Test
    void medianOfAnOddCountIsTheMiddleValue()
    {
        assertEquals(3.0, Stats.median(5, 1, 3));
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo()
    {
        assertEquals(2.5, Stats.median(4, 1, 3, 2));
    }

    @Test
    void medianIgnoresMissingRoundsAndIsNaNWithoutAny()
    {
        assertEquals(2.0, Stats.median(Double.NaN, 1, 3));
        assertTrue(Double.isNaN(Stats.median()));
        assertTrue(Double.isNaN(Stats.median(Double.NaN)));
        assertEquals(1.0, Stats.min(Double.NaN, 3, 1));
        assertEquals(3.0, Stats.max(Double.NaN, 3, 1));
    }

    @Test
    void ratiosAreTakenRoundByRound()
    {
        assertArrayEquals(new double[]{2.0, 0.5, Double.NaN, Double.NaN},
            Stats.ratios(new double[]{4, 1, Double.NaN, 3}, new double[]{2, 2, 1, 0}));
    }

    @Test
    void ratiosNeedOneFigurePerRoundEach()
    {
        assertEquals("one figure per round each: a.length=2, b.length=1",
            assertThrows(IllegalArgumentException.class,
                () -> Stats.ratios(new double[2], new double[1])).getMessage());
    }
}
