package io.agni.bench.net;

import io.agni.bench.net.report.MiniJson;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The figures the README quotes come from a results file saved in the repository: every figure in the README's
 * marked block must be what that file says, rounded as the README shows it, and the file must come from a pinned
 * run (servers and load on disjoint CPUs) that completed.
 *
 * <p>Rows of the block: {@code | case | target | req/s | req per server CPU-s | p99 µs |} (agni-loadgen's medians)
 * and {@code | case | A / B | req/s ratio, agni-loadgen | req/s ratio, redis-benchmark | per CPU-s ratio,
 * agni-loadgen | per CPU-s ratio, redis-benchmark | p99 ratio |}.
 */
class ReadmeResultsTest
{
    private static final Path README = Path.of("..", "README.md");
    private static final Pattern BLOCK = Pattern.compile(
        "<!-- results:begin (\\S+) -->(.*?)<!-- results:end -->", Pattern.DOTALL);
    private static final Pattern TARGET_ROW = Pattern.compile(
        "^\\| (\\w+(?: P\\d+)?) \\| ([\\w-]+) \\| ([\\d,]+) \\| ([\\d,]+) \\| ([\\d,]+) \\|$");
    private static final Pattern RATIO_ROW = Pattern.compile(
        "^\\| (\\w+(?: P\\d+)?) \\| ([\\w-]+) / ([\\w-]+) \\| (\\d+\\.\\d\\d) \\| (\\d+\\.\\d\\d) \\| (\\d+\\.\\d\\d) \\| " +
            "(\\d+\\.\\d\\d) \\| (\\d+\\.\\d\\d) \\|$");

    @Test
    void readmeFiguresAreThoseOfTheSavedResultsFile() throws IOException
    {
        final String readme = Files.readString(README, StandardCharsets.UTF_8);
        final Matcher block = BLOCK.matcher(readme);
        int blocks = 0;
        while (block.find())
        {
            blocks++;
            checkBlock(Path.of("..").resolve(block.group(1)), block.group(2));
        }
        assertTrue(blocks > 0, "README.md has no <!-- results:begin FILE --> block");
    }

    @SuppressWarnings("unchecked")
    private static void checkBlock(final Path file, final String block) throws IOException
    {
        assertTrue(Files.exists(file), "missing results file " + file);
        final Map<String, Object> results = (Map<String, Object>)MiniJson.parse(
            Files.readString(file, StandardCharsets.UTF_8));
        assertEquals("completed", results.get("status"), file + " is not a completed run");
        final Map<String, Object> method = (Map<String, Object>)results.get("method");
        assertEquals(Boolean.TRUE, method.get("pinned"), file + " is not from a pinned run");
        assertEquals(Boolean.FALSE, method.get("sharedCpus"), file + ": client and server shared CPUs");
        final List<Map<String, Object>> summary = (List<Map<String, Object>>)results.get("summary");
        final List<Map<String, Object>> ratios = (List<Map<String, Object>>)results.get("ratios");

        final List<String> checked = new ArrayList<>();
        int rows = 0;
        for (final String rawLine : block.split("\n"))
        {
            final String line = rawLine.strip();
            if (line.startsWith("| ") && !line.startsWith("| workload") && !line.startsWith("| ---"))
            {
                rows++;
            }
            final Matcher target = TARGET_ROW.matcher(line);
            final Matcher ratio = RATIO_ROW.matcher(line);
            if (target.matches())
            {
                final Map<String, Object> entry = find(summary, "agni-loadgen", target.group(1), "target",
                    target.group(2));
                assertEquals(grouped(number(entry, "medianThroughput")), target.group(3), line);
                assertEquals(grouped(number(entry, "medianRequestsPerServerCpuSecond")), target.group(4), line);
                assertEquals(grouped(number(entry, "medianP99Micros")), target.group(5), line);
                checked.add(line);
            }
            else if (ratio.matches())
            {
                final Map<String, Object> loadgen = findRatio(ratios, "agni-loadgen", ratio.group(1), ratio.group(2),
                    ratio.group(3));
                final Map<String, Object> benchmark = findRatio(ratios, "redis-benchmark", ratio.group(1),
                    ratio.group(2), ratio.group(3));
                assertEquals(twoDecimals(number(loadgen, "medianThroughputRatio")), ratio.group(4), line);
                assertEquals(twoDecimals(number(benchmark, "medianThroughputRatio")), ratio.group(5), line);
                assertEquals(twoDecimals(number(loadgen, "medianPerServerCpuSecondRatio")), ratio.group(6), line);
                assertEquals(twoDecimals(number(benchmark, "medianPerServerCpuSecondRatio")), ratio.group(7), line);
                assertEquals(twoDecimals(number(loadgen, "medianP99Ratio")), ratio.group(8), line);
                checked.add(line);
            }
        }
        assertFalse(checked.isEmpty(), "no figures found in the README block for " + file);
        assertEquals(rows, checked.size(), "every row of the block is checked: a row in another shape would not be");
    }

    private static Map<String, Object> find(
        final List<Map<String, Object>> entries, final String tool, final String workload, final String k2,
        final String v2)
    {
        for (final Map<String, Object> entry : entries)
        {
            if (tool.equals(entry.get("tool")) && workload.equals(entry.get("workload")) && v2.equals(entry.get(k2)))
            {
                return entry;
            }
        }
        throw new AssertionError("no " + tool + " " + workload + ", " + k2 + "=" + v2 + " in the results file");
    }

    private static Map<String, Object> findRatio(
        final List<Map<String, Object>> entries, final String tool, final String workload, final String a,
        final String b)
    {
        for (final Map<String, Object> entry : entries)
        {
            if (tool.equals(entry.get("tool")) && workload.equals(entry.get("workload")) && a.equals(entry.get("a")) &&
                b.equals(entry.get("b")))
            {
                return entry;
            }
        }
        throw new AssertionError("no " + tool + " ratio " + a + " / " + b + " for " + workload + " in the results file");
    }

    private static double number(final Map<String, Object> entry, final String key)
    {
        return ((Number)entry.get(key)).doubleValue();
    }

    static String grouped(final double value)
    {
        return String.format(Locale.ROOT, "%,d", Math.round(value));
    }

    static String twoDecimals(final double value)
    {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
