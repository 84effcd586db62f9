package io.agni.bench.net.cpu;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ProcStatTest
{
    @Test
    void processTicksAreUtimePlusStimeCountedFromTheLastParenthesis()
    {
        // The command name may hold spaces and parentheses: fields are counted after the last ')'.
        final String stat = "4242 (java (main) x) S 1 4242 1 0 -1 4194560 100 0 1 0 1234 567 8 9 20 0 30 0 " +
            "11251 3133440 409 18446744073709551615 1 2 3 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

        assertEquals(1234 + 567, ProcStat.parseProcessTicks(stat));
        assertEquals(8 + 9, ProcStat.parseChildrenTicks(stat), "cutime + cstime: waited-for children");
        assertThrows(IllegalArgumentException.class, () -> ProcStat.parseProcessTicks("no parenthesis here"));
        assertThrows(IllegalArgumentException.class, () -> ProcStat.parseProcessTicks("1 (x) S 1 2"));
    }

    @Test
    void cpuTicksAddUpTheChosenCpusBusyAndIdleTime()
    {
        final String stat = """
            cpu  2826 0 1410 17719 265 0 47 12 0 0
            cpu0 1000 10 500 9000 20 1 15 5 7 0
            cpu1 2000 0 800 8000 200 0 30 7 0 0
            intr 1 2 3
            ctxt 12345
            """;

        final ProcStat.CpuTicks zero = ProcStat.parseCpuTicks(stat, CpuSet.of(0));
        assertEquals(1000 + 10 + 500 + 1 + 15 + 5, zero.busy(), "guest time is already in user time");
        assertEquals(zero.busy() + 9000 + 20, zero.total());
        final ProcStat.CpuTicks both = ProcStat.parseCpuTicks(stat, CpuSet.parse("0-1"));
        assertEquals(zero.busy() + 2000 + 800 + 30 + 7, both.busy());
        assertThrows(IllegalArgumentException.class, () -> ProcStat.parseCpuTicks(stat, CpuSet.of(2)),
            "a CPU without a line");
    }

    @Test
    void busyShareIsTheBusyPartOfTheTimeBetweenTwoReadings()
    {
        final ProcStat.CpuTicks before = new ProcStat.CpuTicks(100, 1000);
        final ProcStat.CpuTicks after = new ProcStat.CpuTicks(190, 1100);

        assertEquals(0.9, after.busySince(before), 1e-12);
        assertTrue(Double.isNaN(before.busySince(before)));
    }

    @Test
    void thisProcessSpinningShowsUpInItsOwnTicks()
    {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "no /proc: not Linux");
        final long pid = ProcessHandle.current().pid();
        final long before = ProcStat.processTicks(pid);
        final long need = ProcStat.TICKS_PER_SECOND / 10;
        long spins = 0;
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (ProcStat.processTicks(pid) - before < need && System.nanoTime() < deadline)
        {
            spins++;
        }
        assertTrue(ProcStat.processTicks(pid) - before >= need, "0.1 s of CPU counted, after " + spins + " reads");
        assertEquals(-1, ProcStat.processTicks(-1));
        assertEquals(-1, ProcStat.childrenTicks(-1));
        assertTrue(ProcStat.childrenTicks(pid) >= 0);
        assertNull(ProcStat.cpuTicks(CpuSet.of(65_000)), "a CPU the machine does not have");
    }
}
