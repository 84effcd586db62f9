package io.agni.store.crash;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs a writing child JVM (the test's class path, a small heap) and kills it with SIGKILL once it has written a
 * number of lines to its standard output; its standard error goes to the test's.
 */
final class KilledChild
{
    private KilledChild()
    {
    }

    /**
     * Runs {@code main} with {@code args} until it has written {@code lines} lines, kills it, and returns everything
     * it wrote, up to the kill: the last line may be cut short.
     *
     * @throws org.opentest4j.AssertionFailedError if the child exits first, or writes too slowly for the deadline.
     */
    static String runAndKill(final Class<?> main, final List<String> args, final int lines, final long deadlineNanos)
        throws Exception
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:MaxDirectMemorySize=256m",
            "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            main.getName()));
        command.addAll(args);
        final Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final InputStream in = child.getInputStream();
        try
        {
            final long deadline = System.nanoTime() + deadlineNanos;
            int seen = 0;
            final byte[] chunk = new byte[8192];
            while (seen < lines)
            {
                if (System.nanoTime() > deadline)
                {
                    fail("the child wrote " + seen + " lines in " + deadlineNanos / 1e9 + " s");
                }
                final int n = in.read(chunk);
                if (n < 0)
                {
                    fail("the child exited with " + child.waitFor() + " after " + seen + " lines");
                }
                output.write(chunk, 0, n);
                for (int i = 0; i < n; i++)
                {
                    seen += chunk[i] == '\n' ? 1 : 0;
                }
            }
        }
        finally
        {
            // SIGKILL through the process handle: Process.destroyForcibly would also close our end of its output,
            // losing the lines written just before the kill.
            child.toHandle().destroyForcibly();
        }
        // Everything the child wrote before it died, up to the end of the pipe.
        output.write(in.readAllBytes());
        assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not die");
        return output.toString(StandardCharsets.UTF_8);
    }
}
