package io.agni.bench.net.report;

import io.agni.bench.net.cpu.CpuPlacement;
import io.agni.bench.net.cpu.CpuSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportWritersTest
{
    private static final Pattern REFERENCE =
        Pattern.compile("(?i)\\b(src|href|xlink:href|action|data)\\s*=\\s*[\"']?([^\"'\\s>]*)");

    private static BenchmarkResults results()
    {
        return new ResultsFixture(2).target("agni").target("redis")
            .run("agni", "set", 1, 50_000, 900).run("redis", "set", 1, 40_000, 1200)
            .run("agni", "get", 1, 60_000, 800).run("redis", "get", 1, 55_000, 1000)
            .run("agni", "set", 2, 52_000, 950).run("redis", "set", 2, 41_000, 1100)
            .run("agni", "get", 2, 61_000, 700).run("redis", "get", 2, 50_000, 1300)
            .build(null);
    }

    @Test
    void htmlReportLoadsNothingFromOutside()
    {
        final String html = HtmlReport.render(results());

        final Matcher m = REFERENCE.matcher(html);
        while (m.find())
        {
            final String target = m.group(2);
            assertFalse(target.contains("//") || target.contains(":"), "external reference: " + m.group());
        }
        assertFalse(html.toLowerCase().contains("http://"), "no http:// anywhere");
        assertFalse(html.toLowerCase().contains("https://"), "no https:// anywhere");
        assertFalse(html.contains("<link"), "no linked stylesheets");
        assertFalse(html.contains("@import"), "no imported stylesheets");
        assertFalse(html.contains("url("), "no CSS urls");
        assertFalse(html.contains("<script"), "charts are plain SVG");
        assertFalse(html.contains("<img"), "no images");
    }

    @Test
    void htmlReportHasChartsForEveryWorkloadAndEscapesText()
    {
        final String html = HtmlReport.render(results());

        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertTrue(html.trim().endsWith("</html>"));
        assertEquals(8, count(html, "<svg "), "four charts for each of two workloads");
        assertTrue(html.contains("Requests per server CPU-second by round: set"));
        assertTrue(html.contains("servers on CPU 1, load on CPU 0 (pinned with taskset)"), "the method is stated");
        assertTrue(html.contains("Warm-up round: before round 1 every target ran every case for 5 s"));
        assertEquals(count(html, "<svg "), count(html, "</svg>"));
        assertTrue(html.contains("Throughput by round: set"));
        assertTrue(html.contains("Latency percentiles: get"));
        assertTrue(html.contains("agni / redis"));
        assertTrue(html.contains("-Xmx1g &quot;quoted&quot;, &lt;tag&gt; &amp; more"));
        assertFalse(html.contains("<tag>"));
        assertTrue(html.contains("1.250"), "agni / redis SET throughput ratio of round 1");
    }

    @Test
    void htmlReportShowsAFailure()
    {
        final String html = HtmlReport.render(new ResultsFixture(1).target("a").build("redis exited <early>"));

        assertTrue(html.contains("The benchmark failed: redis exited &lt;early&gt;"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonResultsParseAndCarryEnvironmentFlagsRunsAndRatios()
    {
        final Map<String, Object> json = (Map<String, Object>)MiniJson.parse(JsonReport.render(results()));

        assertEquals("agni-loadgen", json.get("tool"));
        assertEquals("completed", json.get("status"));
        assertEquals("abc1234", json.get("agniCommit"));
        assertEquals("Debian 17.0.15", json.get("jdk"));
        final Map<String, Object> machine = (Map<String, Object>)json.get("machine");
        assertEquals(2.0, machine.get("cores"));
        assertEquals((double)(24L << 30), machine.get("memoryBytes"));
        final Map<String, Object> flags = (Map<String, Object>)json.get("flags");
        assertEquals("50", flags.get("--connections"));
        assertEquals("-Xmx1g \"quoted\", <tag> & more", flags.get("--agni-jvm-opts"));
        final List<Object> runs = (List<Object>)json.get("runs");
        assertEquals(8, runs.size());
        final Map<String, Object> first = (Map<String, Object>)runs.get(0);
        assertEquals("agni", first.get("target"));
        assertEquals(50_000.0, first.get("throughput"));
        assertEquals(5, ((List<Object>)first.get("perSecond")).size());
        assertEquals(900.0, ((Map<String, Object>)first.get("latencyMicros")).get("p99"));
        final List<Object> ratios = (List<Object>)json.get("ratios");
        final Map<String, Object> setRatio = (Map<String, Object>)ratios.get(0);
        assertEquals("set", setRatio.get("workload"));
        final List<Object> perRound = (List<Object>)setRatio.get("throughputRatioPerRound");
        assertEquals(2, perRound.size());
        assertEquals(1.25, (Double)perRound.get(0), 1e-6);
        assertEquals(52.0 / 41.0, (Double)perRound.get(1), 1e-6);
        assertEquals((1.25 + 52.0 / 41.0) / 2, (Double)setRatio.get("medianThroughputRatio"), 1e-6);
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonWritesMissingFiguresAsNull()
    {
        final BenchmarkResults results = new ResultsFixture(2).target("a").target("b")
            .run("a", "set", 1, 10, 1).run("b", "set", 1, 10, 1).run("a", "set", 2, 10, 1)
            .build("stopped");

        final Map<String, Object> json = (Map<String, Object>)MiniJson.parse(JsonReport.render(results));

        assertEquals("failed", json.get("status"));
        assertEquals("stopped", json.get("failure"));
        final Map<String, Object> ratio = (Map<String, Object>)((List<Object>)json.get("ratios")).get(0);
        assertEquals(java.util.Arrays.asList(1.0, null), ratio.get("throughputRatioPerRound"));
    }

    @Test
    void csvHasARowPerRunWithEveryFlagAndQuotesWhatNeedsIt()
    {
        final String csv = CsvReport.runs(results());
        final String[] lines = csv.split("\r\n");

        assertEquals(9, lines.length);
        assertTrue(lines[0].startsWith("tool,target,workload,round,started,requests,errors"));
        assertTrue(lines[0].endsWith(",connections,target,agni-jvm-opts"));
        assertTrue(lines[1].startsWith("agni-loadgen,agni,set,1,2026-11-30T10:00:00Z,250000,0,3,5,50000,225,450,900," +
            "1800,2700,4500,300,0,50000 50001 49999 50000 50000,2.5,100000,2.5,0.5,false,false,1,0,2,25769803776," +
            "AMD EPYC,Linux 6 amd64,Debian 17.0.15,abc1234,50,"), lines[1]);
        assertTrue(lines[1].endsWith(",50,\"a,b=redis:--io-threads 2\",\"-Xmx1g \"\"quoted\"\", <tag> & more\""));
    }

    @Test
    void csvSummaryHasTargetsThenRatios()
    {
        final String[] lines = CsvReport.summary(results()).split("\r\n");

        assertEquals(1 + 4 + 2, lines.length);
        assertTrue(lines[1].startsWith("target,agni-loadgen,set,agni,,2,51000,50000,52000,102000,0.5,0,0,false,"),
            lines[1]);
        assertTrue(lines[5].startsWith("ratio,agni-loadgen,set,agni,redis,2,"), lines[5]);
    }

    @Test
    void terminalTableListsTargetsAndRatios()
    {
        final String table = TerminalTable.render(results());

        assertTrue(table.startsWith("CPUs: servers on CPU 1, load on CPU 0"), table);
        assertTrue(table.contains("set       agni"), table);
        assertTrue(table.contains("102,000"), "requests per server CPU-second: " + table);
        assertTrue(table.contains("1 | 0"), "the CPUs of each row: " + table);
        assertTrue(table.contains("51,000"), table);
        assertTrue(table.contains("50,000 - 52,000"), table);
        assertTrue(table.contains("agni / redis"), table);
    }

    @Test
    void sharedCpusAndServersNotStartedAreSaidInEveryRow()
    {
        final Method shared = new Method(CpuPlacement.decide(CpuSet.of(0, 1), null, null, true, true),
            Duration.ZERO, false, "--no-cross-check");
        final BenchmarkResults results = new ResultsFixture(1).method(shared).target("agni").addressTarget("remote")
            .run("agni", "set", 1, 100, 1).run("remote", "set", 1, 100, 1).build(null);

        final String table = TerminalTable.render(results);
        final String html = HtmlReport.render(results);

        assertTrue(table.startsWith("CPUs: client and server shared CPUs 0-1 (--no-pin: not pinned). No warm-up " +
            "round. No cross-check: --no-cross-check."), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("set       agni") && l.contains("shared")), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("set       remote") && l.contains("not placed")), table);
        assertTrue(html.contains("<td>shared</td>") && html.contains("<td>not placed</td>"), "the HTML rows too");
        assertTrue(CsvReport.runs(results).split("\r\n")[1].contains(",true,0-1,0-1,"), "shared_cpus in runs.csv");
    }

    @Test
    void reportFilesAreAllWritten(@TempDir final Path dir) throws Exception
    {
        final Path html = ReportFiles.write(dir.resolve("out"), results());

        assertEquals(dir.resolve("out").resolve("report.html"), html);
        for (final String name : List.of("report.html", "results.json", "runs.csv", "summary.csv"))
        {
            assertTrue(Files.size(dir.resolve("out").resolve(name)) > 100, name);
        }
        MiniJson.parse(Files.readString(dir.resolve("out").resolve("results.json"), StandardCharsets.UTF_8));
    }

    private static int count(final String text, final String part)
    {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1))
        {
            n++;
        }
        return n;
    }
}
