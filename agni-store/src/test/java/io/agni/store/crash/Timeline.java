package io.agni.store.crash;

import java.util.Arrays;
import java.util.List;

/**
 * The real-time order a {@link Recorder} wrote down, read back from its lines: for each operation the line of its
 * start, its thread and the line of its acknowledgement; and the line where the last checkpoint or sync that
 * returned began (checkpoints and syncs come from one thread, so a {@code durable-end} ends the last
 * {@code durable-start}).
 */
public final class Timeline
{
    /**
     * The line of an event that never happened: after every line.
     */
    static final int NEVER = Integer.MAX_VALUE;

    private int[] startLine = new int[1024];
    private int[] thread = new int[1024];
    private int[] ackLine = new int[1024];
    private long started;
    private int durableLine = -1;

    private Timeline()
    {
    }

    /**
     * Reads the output of a child that was killed: a last line without its newline is left out.
     *
     * @param output everything the child wrote.
     * @return the timeline.
     */
    public static Timeline parse(final String output)
    {
        final int end = output.lastIndexOf('\n');
        return parse(end < 0 ? List.of() : List.of(output.substring(0, end).split("\n")));
    }

    /**
     * Reads lines a {@link Recorder} wrote; lines of other kinds are skipped.
     *
     * @param lines the lines.
     * @return the timeline.
     */
    public static Timeline parse(final List<String> lines)
    {
        final Timeline timeline = new Timeline();
        int durableStart = -1;
        for (int line = 0; line < lines.size(); line++)
        {
            final String[] parts = lines.get(line).split(" ");
            switch (parts[0])
            {
                case "start" -> timeline.started(line, Integer.parseInt(parts[1]), Long.parseLong(parts[2]));
                case "ack" -> timeline.ackLine[index(Long.parseLong(parts[1]), timeline.started)] = line;
                case "durable-start" -> durableStart = line;
                case "durable-end" -> timeline.durableLine = durableStart;
                default ->
                {
                }
            }
        }
        return timeline;
    }

    private void started(final int line, final int writer, final long n)
    {
        if (n != started + 1)
        {
            throw new IllegalStateException("operation " + n + " started after " + started);
        }
        started = n;
        if (n >= startLine.length)
        {
            startLine = Arrays.copyOf(startLine, startLine.length * 2);
            thread = Arrays.copyOf(thread, thread.length * 2);
            ackLine = Arrays.copyOf(ackLine, ackLine.length * 2);
        }
        startLine[(int)n] = line;
        thread[(int)n] = writer;
        ackLine[(int)n] = NEVER;
    }

    private static int index(final long n, final long started)
    {
        if (n < 1 || n > started)
        {
            throw new IllegalStateException("operation " + n + " acknowledged but not started (" + started + " were)");
        }
        return (int)n;
    }

    /**
     * How many operations started: they are numbered 1 to this.
     */
    long started()
    {
        return started;
    }

    int startLine(final long n)
    {
        return startLine[index(n, started)];
    }

    int thread(final long n)
    {
        return thread[index(n, started)];
    }

    /**
     * The line of operation {@code n}'s acknowledgement, {@link #NEVER} if it was not acknowledged.
     */
    int ackLine(final long n)
    {
        return ackLine[index(n, started)];
    }

    /**
     * The line where the last checkpoint or sync that returned began, -1 if none did: every operation acknowledged
     * above it survives a crash and a power loss.
     */
    int durableLine()
    {
        return durableLine;
    }
}
