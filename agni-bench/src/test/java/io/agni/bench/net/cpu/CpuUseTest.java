package io.agni.bench.net.cpu;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuUseTest
{
    @Test
    void requestsPerServerCpuSecondDividesTheRateByTheServersShareOfACpu()
    {
        final CpuUse use = new CpuUse(5, 4, 5, 1.0, 1);

        assertEquals(0.8, use.serverUtilisation(), 1e-12);
        assertEquals(125_000, use.perServerCpuSecond(100_000), 1e-6);
        assertEquals(1.0, use.generatorUtilisation(), 1e-12);
    }

    @Test
    void theLoadIsClientBoundFromNinetyPercentBusy()
    {
        assertTrue(new CpuUse(5, 4, 5, 0.90, 1).clientBound());
        assertTrue(new CpuUse(5, 4, 5, 1.0, 1).clientBound());
        assertFalse(new CpuUse(5, 4, 5, 0.899, 1).clientBound());
        assertFalse(CpuUse.UNKNOWN.clientBound(), "unknown is not saturated");
    }

    @Test
    void unknownFiguresStayUnknown()
    {
        assertTrue(Double.isNaN(CpuUse.UNKNOWN.perServerCpuSecond(100)));
        assertTrue(Double.isNaN(new CpuUse(5, Double.NaN, 1, 0.5, 1).perServerCpuSecond(100)));
        assertTrue(Double.isNaN(new CpuUse(5, 0, 1, 0.5, 1).perServerCpuSecond(100)), "no CPU time: no figure");
    }

    @Test
    void aProbeTurnsTwoReadingsIntoUse()
    {
        final CpuProbe probe = new CpuProbe(-1, -1, false, CpuSet.of(0, 1), false);
        final CpuProbe.Reading start = new CpuProbe.Reading(0, 100, 50, new ProcStat.CpuTicks(0, 0));
        final CpuProbe.Reading end = new CpuProbe.Reading(2_000_000_000L, 100 + ProcStat.TICKS_PER_SECOND,
            -1, new ProcStat.CpuTicks(150, 200));

        final CpuUse use = probe.between(start, end);

        assertEquals(2.0, use.wallSeconds(), 1e-12);
        assertEquals(1.0, use.serverCpuSeconds(), 1e-12);
        assertEquals(0.5, use.serverUtilisation(), 1e-12);
        assertTrue(Double.isNaN(use.generatorCpuSeconds()), "a reading that failed");
        assertEquals(0.75, use.clientCpusBusy(), 1e-12);
        assertEquals(2, use.clientCpus());
    }

    @Test
    void whereClientAndServerShareCpusTheLoadIsSaturatedByItsOwnCpuTimeNotTheCpusBusyTime()
    {
        // The CPUs were fully busy, but with the server on them: the generator itself used 1 of 2 CPU-seconds per second.
        final CpuProbe probe = new CpuProbe(-1, -1, false, CpuSet.of(0, 1), true);
        final CpuProbe.Reading start = new CpuProbe.Reading(0, 0, 0, new ProcStat.CpuTicks(0, 0));
        final CpuProbe.Reading end = new CpuProbe.Reading(2_000_000_000L, ProcStat.TICKS_PER_SECOND,
            2 * ProcStat.TICKS_PER_SECOND, new ProcStat.CpuTicks(400, 400));

        final CpuUse use = probe.between(start, end);

        assertEquals(0.5, use.clientCpusBusy(), 1e-12);
        assertFalse(use.clientBound(), "half of the CPUs it shares is not saturated");
    }

    @Test
    void theStatusFileNamesTheCpusThisProcessMayUse()
    {
        assertEquals(CpuSet.parse("0-3,8"), Affinity.parseStatus("Name:\tjava\nCpus_allowed:\tff\n" +
            "Cpus_allowed_list:\t0-3,8\nMems_allowed:\t1\n"));
        assertEquals(null, Affinity.parseStatus("Name:\tjava\n"));
        assertTrue(Affinity.available().size() >= 1);
    }
}
