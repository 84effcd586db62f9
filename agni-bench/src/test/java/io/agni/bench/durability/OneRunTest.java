package io.agni.bench.durability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FillOnce} and {@link ReopenOnce}, which {@code agni-bench/scripts/turbokv-fill.sh} runs one JVM each: a
 * small fill of every store and preset, reopened, prints the lines the script reads.
 */
class OneRunTest
{
    @ParameterizedTest
    @ValueSource(strings = {"agni:durable", "agni:paranoid", "agni:fast", "rocksdb:durable", "rocksdb:paranoid",
        "rocksdb:fast"})
    @Timeout(120)
    void fillThenReopenFindsTheSampledKeys(final String target, @TempDir final Path base) throws Exception
    {
        final Path directory = base.resolve("store");
        final String fill = lastLine(() -> FillOnce.main(new String[]{
            "--target=" + target, "--keys=2500", "--batch=100", "--dir=" + directory}));
        assertTrue(fill.startsWith("fill target=" + target + " keys=2500 batch=100 "), fill);
        assertTrue(fill.contains(" user_bytes=1050000 "), fill);

        final String reopen = lastLine(() -> ReopenOnce.main(new String[]{
            "--target=" + target, "--keys=2500", "--dir=" + directory}));
        assertTrue(reopen.startsWith("reopen target=" + target + " keys=2500 open_ms="), reopen);
        assertTrue(reopen.endsWith(" checked=1000"), reopen);
    }

    @Test
    @Timeout(60)
    void reopenFailsWhenAKeyIsMissing(@TempDir final Path base) throws Exception
    {
        final Path directory = base.resolve("store");
        lastLine(() -> FillOnce.main(new String[]{"--target=agni:durable", "--keys=100", "--dir=" + directory}));
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> ReopenOnce.main(
            new String[]{"--target=agni:durable", "--keys=101", "--dir=" + directory}));
        assertEquals("key 100 is missing after the reopen", ex.getMessage());
    }

    @Test
    @Timeout(60)
    void fillRefusesADirectoryThatIsNotEmpty(@TempDir final Path directory) throws Exception
    {
        Files.writeString(directory.resolve("other"), "x");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> FillOnce.main(
            new String[]{"--target=agni:durable", "--keys=10", "--dir=" + directory}));
        assertEquals("the directory must be empty: " + directory, ex.getMessage());
    }

    @Test
    void optionsNameWhatIsMissing()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OneRunOptions.parse(new String[]{"--keys=10"}, true));
        assertEquals("need --target=STORE:PRESET, --keys=N (at least 1), --dir=DIR and --batch=N (at least 1): " +
            "--keys=10", ex.getMessage());
    }

    @Test
    void onlyAFillTakesABatchOrADevice()
    {
        final String[] fill = {"--target=rocksdb:fast", "--keys=10", "--batch=5", "--dir=d", "--device=vda"};
        assertEquals("vda", OneRunOptions.parse(fill, true).device());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> OneRunOptions.parse(fill, false));
        assertEquals("unknown option --batch=5", ex.getMessage());
    }

    @Test
    void processIoReadsWrittenAndCancelledBytes()
    {
        final ProcessIo io = ProcessIo.parse(List.of("rchar: 6976", "wchar: 0", "read_bytes: 0",
            "write_bytes: 8192", "cancelled_write_bytes: 4096"));
        assertEquals(new ProcessIo(8192, 4096), io);
        assertEquals(new ProcessIo(4096, 0), io.since(new ProcessIo(4096, 4096)));
        assertEquals(new ProcessIo(-1, -1), io.since(new ProcessIo(-1, -1)));
    }

    private interface Step
    {
        void run() throws Exception;
    }

    /**
     * Runs a step with {@code System.out} captured and returns the last line it printed.
     */
    private static String lastLine(final Step step) throws Exception
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            step.run();
        }
        finally
        {
            System.setOut(out);
        }
        final String[] lines = captured.toString(StandardCharsets.UTF_8).strip().split("\n");
        return lines[lines.length - 1];
    }
}
