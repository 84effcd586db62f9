package io.agni.bench.net.target;

import io.agni.bench.net.cpu.CpuPlacement;
import io.agni.bench.net.cpu.CpuSet;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TargetsTest
{
    private static final CpuPlacement TWO_OF_FOUR = CpuPlacement.decide(CpuSet.parse("0-3"), null, null, false, true);

    @Test
    void aPinnedAgniServerGetsOneEventLoopPerServerCpu()
    {
        final Targets targets = new Targets(Path.of("agni-server.jar"), List.of(), null, TWO_OF_FOUR);

        assertEquals(List.of("--shards", "1", "--threads", "2"), targets.agniFlags(List.of("--shards", "1")));
    }

    @Test
    void aThreadCountGivenInTheFlagsIsKept()
    {
        final Targets targets = new Targets(Path.of("agni-server.jar"), List.of(), null, TWO_OF_FOUR);

        assertEquals(List.of("--threads", "3"), targets.agniFlags(List.of("--threads", "3")));
        assertEquals(List.of("--threads=3"), targets.agniFlags(List.of("--threads=3")));
    }

    @Test
    void unpinnedServersKeepTheirOwnDefaults()
    {
        final CpuPlacement noPin = CpuPlacement.decide(CpuSet.parse("0-3"), null, null, true, true);

        assertEquals(List.of(), new Targets(Path.of("a.jar"), List.of(), null, noPin).agniFlags(List.of()));
        assertEquals(List.of(), new Targets(Path.of("a.jar"), List.of(), null).agniFlags(List.of()));
    }
}
