package io.agni.net;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs a command-line tool ({@code redis-cli}, {@code redis-benchmark}) to completion for a test: its input given
 * up front, its output and error streams merged into a temporary file (so a chatty tool can never block on a full
 * pipe), killed and failing the test if it does not finish within the timeout.
 */
final class ExternalTool
{
    private ExternalTool()
    {
    }

    /**
     * What a finished run left.
     *
     * @param exitCode the process's exit status.
     * @param output   standard output and standard error, interleaved as written.
     */
    record Result(int exitCode, String output)
    {
        /**
         * @return the output's lines, without line terminators ({@code \r} included: redis-benchmark redraws
         *         its progress line with carriage returns).
         */
        List<String> lines()
        {
            final List<String> lines = new ArrayList<>();
            for (final String line : output.split("[\r\n]+"))
            {
                if (!line.isBlank())
                {
                    lines.add(line.strip());
                }
            }
            return lines;
        }

        @Override
        public String toString()
        {
            return "exit " + exitCode + ", output:\n" + output;
        }
    }

    /**
     * @param timeoutSeconds how long the tool may run before it is killed and the test fails.
     * @param stdin          what to write to its standard input before closing it; {@code null} for nothing.
     * @param command        the executable and its arguments.
     * @return the exit status and output.
     */
    static Result run(final long timeoutSeconds, final String stdin, final List<String> command)
    {
        Path output = null;
        Process process = null;
        try
        {
            output = Files.createTempFile("agni-tool-", ".out");
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            try (OutputStream in = process.getOutputStream())
            {
                if (stdin != null)
                {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                fail(command + " did not finish within " + timeoutSeconds + " s; output so far:\n" +
                    Files.readString(output));
            }
            return new Result(process.exitValue(), Files.readString(output));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + command, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, ex);
        }
        finally
        {
            if (process != null && process.isAlive())
            {
                process.destroyForcibly();
            }
            deleteQuietly(output);
        }
    }

    private static void deleteQuietly(final Path file)
    {
        if (file != null)
        {
            try
            {
                Files.deleteIfExists(file);
            }
            catch (final IOException ex)
            {
                // a leftover temporary file is harmless
            }
        }
    }
}
