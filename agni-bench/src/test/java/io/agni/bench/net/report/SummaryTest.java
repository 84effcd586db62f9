package io.agni.bench.net.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void costPerRequestIsThroughputOverServerCpuAndItsRatioIsTakenRoundByRound()
    {
        // a serves 100 req/s on 0.5 CPU (200 per CPU-second), b 100 req/s on 0.25 CPU (400): b is cheaper per request
        // although both are as fast.
        final BenchmarkResults results = new ResultsFixture(2).target("a").target("b")
            .run(RunResult.LOADGEN, "a", "set", 1, 100, 1, 0.5, 0.3).run(RunResult.LOADGEN, "b", "set", 1, 100, 1, 0.25, 0.3)
            .run(RunResult.LOADGEN, "a", "set", 2, 100, 1, 0.5, 0.3).run(RunResult.LOADGEN, "b", "set", 2, 100, 1, 0.5, 0.3)
            .build(null);

        final Summary summary = Summary.of(results);

        assertEquals(200, summary.targets().get(0).medianPerCpuSecond(), 1e-9);
        assertEquals(0.5, summary.targets().get(0).serverUtilisation(), 1e-9);
        assertArrayEquals(new double[]{0.5, 1.0}, summary.pairs().get(0).cpuRatios(), 1e-12);
        assertEquals(0.75, summary.pairs().get(0).cpuRatio(), 1e-12);
        assertEquals(1.0, summary.pairs().get(0).throughputRatio(), 1e-12);
    }

    @Test
    void roundsWhoseLoadCpusWereSaturatedAreCountedAsClientBound()
    {
        final BenchmarkResults results = new ResultsFixture(3).target("a")
            .run(RunResult.LOADGEN, "a", "get", 1, 100, 1, 0.5, 0.95)
            .run(RunResult.LOADGEN, "a", "get", 2, 100, 1, 0.5, 0.89)
            .run(RunResult.LOADGEN, "a", "get", 3, 100, 1, 0.5, 0.90)
            .build(null);

        final Summary.TargetSummary a = Summary.of(results).targets().get(0);

        assertEquals(2, a.clientBoundRounds(), "0.95 and 0.90 busy are saturated, 0.89 is not");
        assertEquals(0, a.serverSaturatedRounds());
        assertEquals("client-bound 2/3", TerminalTable.note(a));
    }

    @Test
    void roundsInWhichTheServerUsedItsCpuAreCountedAsServerSaturated()
    {
        // One server CPU in the fixture's placement: 0.9 of it or more is saturated.
        final BenchmarkResults results = new ResultsFixture(3).target("a")
            .run(RunResult.LOADGEN, "a", "get", 1, 100, 1, 0.99, 0.95)
            .run(RunResult.LOADGEN, "a", "get", 2, 100, 1, 0.80, 0.95)
            .run(RunResult.LOADGEN, "a", "get", 3, 100, 1, 0.90, 0.50)
            .build(null);

        final Summary.TargetSummary a = Summary.of(results).targets().get(0);

        assertEquals(2, a.serverSaturatedRounds());
        assertEquals("client-bound 2/3, server saturated 2/3", TerminalTable.note(a));
    }

    @Test
    void eachToolHasItsOwnRowsAndPairsAndTheCrossCheckSetsTheirRatiosSideBySide()
    {
        final BenchmarkResults results = new ResultsFixture(1).target("agni").target("redis")
            .run(RunResult.LOADGEN, "agni", "set", 1, 130, 1, 1, 0.5)
            .run(RunResult.LOADGEN, "redis", "set", 1, 100, 1, 1, 0.5)
            .run(RunResult.REDIS_BENCHMARK, "agni", "set", 1, 100, 1, 1, 0.5)
            .run(RunResult.REDIS_BENCHMARK, "redis", "set", 1, 100, 1, 1, 0.5)
            .run(RunResult.LOADGEN, "agni", "get", 1, 105, 1, 1, 0.5)
            .run(RunResult.LOADGEN, "redis", "get", 1, 100, 1, 1, 0.5)
            .run(RunResult.REDIS_BENCHMARK, "agni", "get", 1, 100, 1, 1, 0.5)
            .run(RunResult.REDIS_BENCHMARK, "redis", "get", 1, 100, 1, 1, 0.5)
            .build(null);

        final Summary summary = Summary.of(results);

        assertEquals(4, summary.targets().stream().filter(t -> t.tool().equals(RunResult.LOADGEN)).count());
        assertEquals(4, summary.targets().stream().filter(t -> t.tool().equals(RunResult.REDIS_BENCHMARK)).count());
        assertEquals(2, summary.pairs().stream().filter(p -> p.tool().equals(RunResult.REDIS_BENCHMARK)).count());
        assertEquals(2, summary.crossChecks().size());
        final Summary.CrossCheck set = summary.crossChecks().get(0);
        assertEquals("set", set.workload());
        assertEquals(1.3, set.loadgenRatio(), 1e-12);
        assertEquals(1.0, set.benchmarkRatio(), 1e-12);
        assertTrue(set.differs(), "30 % apart");
        assertFalse(summary.crossChecks().get(1).differs(), "5 % apart");
        final String words = TerminalTable.agreement(summary);
        assertTrue(words.contains("differ by more than 10 % on 1 of 2 ratios"), words);
        assertTrue(words.contains("set: agni / redis is 1.30 by agni-loadgen but 1.00 by redis-benchmark (30 % apart)"),
            words);
        assertFalse(words.contains("get:"), words);
    }

    @Test
    void toolsThatAgreeWithinTenPercentAreSaidToAgree()
    {
        final BenchmarkResults results = new ResultsFixture(1).target("agni").target("redis")
            .run(RunResult.LOADGEN, "agni", "get", 1, 109, 1, 1, 0.5)
            .run(RunResult.LOADGEN, "redis", "get", 1, 100, 1, 1, 0.5)
            .run(RunResult.REDIS_BENCHMARK, "agni", "get", 1, 100, 1, 1, 0.5)
            .run(RunResult.REDIS_BENCHMARK, "redis", "get", 1, 100, 1, 1, 0.5)
            .build(null);

        assertEquals("agni-loadgen and redis-benchmark agree within 10 % on every ratio.",
            TerminalTable.agreement(Summary.of(results)));
    }
}
