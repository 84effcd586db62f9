package io.agni.bench.net.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes every report of a benchmark into one directory: {@code results.json}, {@code runs.csv},
 * {@code summary.csv} and {@code report.html} (the servers' logs are already there, {@code server-NAME.log}).
 */
public final class ReportFiles
{
    /**
     * The HTML report's file name.
     */
    public static final String HTML = "report.html";

    /**
     * The JSON results' file name.
     */
    public static final String JSON = "results.json";

    private ReportFiles()
    {
    }

    /**
     * @param directory where to write; created if missing.
     * @param results   what to write.
     * @return the HTML report's path.
     * @throws IOException if a file cannot be written.
     */
    public static Path write(final Path directory, final BenchmarkResults results) throws IOException
    {
        Files.createDirectories(directory);
        Files.writeString(directory.resolve(JSON), JsonReport.render(results), StandardCharsets.UTF_8);
        Files.writeString(directory.resolve("runs.csv"), CsvReport.runs(results), StandardCharsets.UTF_8);
        Files.writeString(directory.resolve("summary.csv"), CsvReport.summary(results), StandardCharsets.UTF_8);
        final Path html = directory.resolve(HTML);
        Files.writeString(html, HtmlReport.render(results), StandardCharsets.UTF_8);
        return html;
    }
}
