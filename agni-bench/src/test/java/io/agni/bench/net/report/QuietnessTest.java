package io.agni.bench.net.report;

import io.agni.bench.net.cpu.ProcStat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run on a machine that was not quiet says so, in plain words, on the terminal, in the HTML report and in
 * results.json; a quiet one says nothing.
 */
class QuietnessTest
{
    @Test
    void aQuietMachineGetsNoWarning()
    {
        final Quietness quiet = new Quietness(2, 0.40, 3, 0.5);
        assertEquals(List.of(), quiet.warnings());
        assertNull(quiet.warning());
        assertNull(Quietness.UNKNOWN.warning(), "nothing known, nothing said");
    }

    @Test
    void eachSignOfABusyMachineIsNamed()
    {
        final List<String> warnings = new Quietness(2, 4.25, 63, 7.5).warnings();
        assertEquals(3, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("load average was 4.25 on 2 CPUs"), warnings.get(0));
        assertTrue(warnings.get(1).startsWith("63 % of the CPUs' time went to other work"), warnings.get(1));
        assertTrue(warnings.get(2).contains("7.5 % of the CPUs' time during the run (steal)"), warnings.get(2));
        assertEquals(List.of(), new Quietness(2, 2.0, Quietness.BUSY_PERCENT, Quietness.STEAL_PERCENT).warnings(),
            "at the thresholds: quiet");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theTerminalTheHtmlReportAndTheJsonSayItWhenTheMachineWasBusy()
    {
        final BenchmarkResults busy = new ResultsFixture(2).target("agni").target("redis")
            .run("agni", "set", 1, 50_000, 900).run("redis", "set", 1, 40_000, 1200)
            .quietness(new Quietness(2, 4.25, 63, 0)).build(null);
        final String terminal = TerminalTable.render(busy);
        assertTrue(terminal.startsWith("WARNING: This machine was not quiet: the load average was 4.25"), terminal);
        final String html = HtmlReport.render(busy);
        assertTrue(html.contains("<p class=\"fail\" id=\"not-quiet\">This machine was not quiet"), html);
        final Map<String, Object> json = (Map<String, Object>)MiniJson.parse(JsonReport.render(busy));
        final Map<String, Object> quietness = (Map<String, Object>)json.get("quietness");
        assertEquals(false, quietness.get("quiet"));
        assertEquals(2, ((List<Object>)quietness.get("warnings")).size());

        final BenchmarkResults quiet = new ResultsFixture(2).target("agni").target("redis")
            .run("agni", "set", 1, 50_000, 900).run("redis", "set", 1, 40_000, 1200)
            .quietness(new Quietness(2, 0.3, 2, 0)).build(null);
        assertFalse(TerminalTable.render(quiet).contains("WARNING"));
        assertFalse(HtmlReport.render(quiet).contains("not-quiet"));
    }

    @Test
    void theMachinesTicksComeFromTheFirstLineOfProcStat()
    {
        final String before = "cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 50 0 25 400 5 0 0 20 0 0\n";
        final String after = "cpu  160 0 70 860 10 0 0 50 0 0\ncpu0 80 0 35 430 5 0 0 25 0 0\n";
        final ProcStat.MachineTicks a = ProcStat.parseMachineTicks(before);
        final ProcStat.MachineTicks b = ProcStat.parseMachineTicks(after);
        assertEquals(190, a.busy());
        assertEquals(40, a.steal());
        assertEquals(1000, a.total());
        // 90 busy ticks (10 of them steal) of 150
        assertEquals(60.0, b.busyPercentSince(a), 1e-9);
        assertEquals(100.0 * 10 / 150, b.stealPercentSince(a), 1e-9);
        assertEquals(1, ProcStat.parseMachineCpus(after));
        assertEquals(4.25, new Environment(2, 1, "cpu", "os", "4.25 3.00 2.00", "jdk", "abc").loadAverage1());
        assertEquals(-1, new Environment(2, 1, "cpu", "os", "unknown", "jdk", "abc").loadAverage1());
    }
}
