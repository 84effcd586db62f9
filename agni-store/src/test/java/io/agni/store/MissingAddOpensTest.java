package io.agni.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM started without {@code --add-opens java.base/jdk.internal.misc=ALL-UNNAMED} cannot open a store, and the
 * exception says which flag is missing (not a bare {@code IllegalAccessError}). Checked in a child JVM, since this
 * one has the flag.
 */
class MissingAddOpensTest
{
    private static final String FLAG = "--add-opens java.base/jdk.internal.misc=ALL-UNNAMED";

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void openingAStoreWithoutTheFlagThrowsAnExceptionNamingIt() throws IOException, InterruptedException
    {
        final String output = runProbe(List.of());

        assertTrue(output.startsWith("THREW java.lang.IllegalStateException: "), output);
        assertTrue(output.contains(FLAG), output);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void openingAStoreWithTheFlagWorks() throws IOException, InterruptedException
    {
        final String output = runProbe(List.of("--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED"));

        assertTrue(output.startsWith("OPENED "), output);
    }

    private static String runProbe(final List<String> jvmFlags) throws IOException, InterruptedException
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new ArrayList<>(List.of(java, "-Xmx256m"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), MissingAddOpensProbe.class.getName()));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try
        {
            // the probe prints a few lines at most, well within the pipe's buffer, so waiting first cannot block it
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the probe JVM ran for more than 60 s");
            final String output;
            try (InputStream in = process.getInputStream())
            {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertEquals(0, process.exitValue(), output);
            return output.lines().filter(l -> l.startsWith("THREW ") || l.startsWith("OPENED ")).findFirst()
                .orElse("no result line in: " + output);
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}
