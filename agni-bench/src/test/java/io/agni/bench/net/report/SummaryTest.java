package io.agni.bench.net.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SummaryTest
{
    @Test
    void pairRatioIsTheMedianOfPerRoundRatiosNotTheRatioOfMedians()
    {
        // The ratio of medians (100 / 50) compares figures from different rounds; per-round ratios do not.
        final BenchmarkResults results = new ResultsFixture(3).target("a").target("b")
            .run("a", "set", 1, 100, 1.0).run("b", "set", 1, 50, 2.0)
            .run("a", "set", 2, 10, 1.0).run("b", "set", 2, 8, 4.0)
            .run("a", "set", 3, 130, 3.0).run("b", "set", 3, 100, 1.0)
            .build(null);

        final Summary summary = Summary.of(results);

        final Summary.PairRatio pair = summary.pairs().get(0);
        assertEquals("a", pair.a());
        assertEquals("b", pair.b());
        assertArrayEquals(new double[]{2.0, 1.25, 1.3}, pair.throughputRatios(), 1e-12);
        assertEquals(1.3, pair.throughputRatio(), 1e-12);
        assertArrayEquals(new double[]{0.5, 0.25, 3.0}, pair.p99Ratios(), 1e-12);
        assertEquals(0.5, pair.p99Ratio(), 1e-12);
        assertEquals(2.0, summary.targets().get(0).medianThroughput() /
            summary.targets().get(1).medianThroughput(), 1e-12, "the ratio of medians, which the report avoids");
    }

    @Test
    void targetSummaryGivesMedianAndRangeOverRounds()
    {
        final BenchmarkResults results = new ResultsFixture(3).target("a")
            .run("a", "get", 1, 300, 9).run("a", "get", 2, 100, 7).run("a", "get", 3, 200, 8)
            .build(null);

        final Summary.TargetSummary a = Summary.of(results).targets().get(0);

        assertEquals(3, a.rounds());
        assertEquals(200, a.medianThroughput());
        assertEquals(100, a.minThroughput());
        assertEquals(300, a.maxThroughput());
        assertEquals(8, a.p99());
        assertEquals(16, a.p999());
    }

    @Test
    void aRoundMissingForOneTargetIsLeftOutOfItsPairsRatios()
    {
        final BenchmarkResults results = new ResultsFixture(3).target("a").target("b")
            .run("a", "set", 1, 100, 1).run("b", "set", 1, 100, 1)
            .run("a", "set", 2, 300, 1).run("b", "set", 2, 100, 1)
            .run("a", "set", 3, 900, 1)
            .build("b failed in round 3");

        final Summary.PairRatio pair = Summary.of(results).pairs().get(0);

        assertArrayEquals(new double[]{1.0, 3.0, Double.NaN}, pair.throughputRatios(), 1e-12);
        assertEquals(2.0, pair.throughputRatio(), 1e-12);
    }

    @Test
    void pairsFollowTheTargetOrderForEveryWorkload()
    {
        final BenchmarkResults results = new ResultsFixture(1).target("x").target("y").target("z")
            .run("x", "set", 1, 1, 1).run("y", "set", 1, 2, 1).run("z", "set", 1, 4, 1)
            .run("x", "get", 1, 1, 1).run("y", "get", 1, 2, 1).run("z", "get", 1, 4, 1)
            .build(null);

        final Summary summary = Summary.of(results);

        assertEquals(6, summary.pairs().size());
        assertEquals("set x/y set x/z set y/z get x/y get x/z get y/z", String.join(" ",
            summary.pairs().stream().map(p -> p.workload() + " " + p.a() + "/" + p.b()).toList()));
        assertEquals(0.25, summary.pairs().get(1).throughputRatio(), 1e-12);
    }
}
