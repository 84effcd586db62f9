package io.agni.bench.net.cpu;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuPlacementTest
{
    private static final CpuSet TWO = CpuSet.parse("0-1");

    @Test
    void onTwoCpusTheServerGetsCpuOneAndTheLoadCpuZero()
    {
        final CpuPlacement placement = CpuPlacement.decide(TWO, null, null, false, true);

        assertEquals(CpuSet.of(1), placement.server());
        assertEquals(CpuSet.of(0), placement.client());
        assertTrue(placement.pinned());
        assertFalse(placement.shared());
        assertNull(placement.note());
        assertEquals("1 | 0", placement.label());
        assertEquals(List.of("taskset", "-c", "1", "redis-server", "--port", "7"),
            placement.serverCommand(List.of("redis-server", "--port", "7")));
        assertEquals(List.of("taskset", "-c", "0", "redis-benchmark"), placement.clientCommand(List.of("redis-benchmark")));
    }

    @Test
    void theServersGetTheUpperHalfOfMoreCpus()
    {
        final CpuPlacement eight = CpuPlacement.decide(CpuSet.parse("0-7"), null, null, false, true);
        assertEquals(CpuSet.parse("4-7"), eight.server());
        assertEquals(CpuSet.parse("0-3"), eight.client());

        final CpuPlacement three = CpuPlacement.decide(CpuSet.parse("2,5,9"), null, null, false, true);
        assertEquals(CpuSet.of(9), three.server());
        assertEquals(CpuSet.parse("2,5"), three.client());
    }

    @Test
    void oneSetGivenLeavesTheRestToTheOther()
    {
        final CpuPlacement server = CpuPlacement.decide(CpuSet.parse("0-3"), "0", null, false, true);
        assertEquals(CpuSet.of(0), server.server());
        assertEquals(CpuSet.parse("1-3"), server.client());

        final CpuPlacement client = CpuPlacement.decide(CpuSet.parse("0-3"), null, "3", false, true);
        assertEquals(CpuSet.parse("0-2"), client.server());
        assertEquals(CpuSet.of(3), client.client());
    }

    @Test
    void aSingleCpuNoPinNoTasksetOrOverlappingSetsShareAndSaySo()
    {
        final CpuPlacement one = CpuPlacement.decide(CpuSet.of(0), null, null, false, true);
        assertTrue(one.shared());
        assertFalse(one.pinned());
        assertEquals("shared", one.label());
        assertTrue(one.describe().contains("client and server shared CPUs 0"), one.describe());
        assertEquals(List.of("redis-server"), one.serverCommand(List.of("redis-server")), "not pinned: as it is");

        final CpuPlacement noPin = CpuPlacement.decide(TWO, null, null, true, true);
        assertTrue(noPin.shared());
        assertTrue(noPin.describe().contains("--no-pin"), noPin.describe());

        final CpuPlacement noTaskset = CpuPlacement.decide(TWO, null, null, false, false);
        assertTrue(noTaskset.shared());
        assertTrue(noTaskset.describe().contains("taskset (Linux util-linux) is missing or may not set CPUs here"),
            noTaskset.describe());

        final CpuPlacement overlap = CpuPlacement.decide(TWO, "0-1", "1", false, true);
        assertTrue(overlap.pinned());
        assertTrue(overlap.shared());
        assertTrue(overlap.describe().contains("overlap"), overlap.describe());

        final CpuPlacement allToServer = CpuPlacement.decide(TWO, "0-1", null, false, true);
        assertTrue(allToServer.shared());
        assertTrue(allToServer.describe().contains("no CPU is left for the client"), allToServer.describe());
    }

    @Test
    void aCpuThisProcessMayNotUseIsRefusedWithTheCpusItMayUse()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> CpuPlacement.decide(TWO, "5", null, false, true));
        assertTrue(ex.getMessage().contains("--server-cpus 5") && ex.getMessage().contains("0-1"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CpuPlacement.decide(TWO, null, "x", false, true));
    }
}
