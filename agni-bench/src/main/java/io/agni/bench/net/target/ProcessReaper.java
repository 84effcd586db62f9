package io.agni.bench.net.target;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Stops, by process id, every server the harness started: when the run is done with it, and from a shutdown hook if
 * the harness ends any other way (Ctrl-C, an uncaught failure), so that no server outlives the harness holding a
 * port and a core.
 *
 * <h2>How a server is stopped</h2>
 * Its descendants and then the process get SIGTERM (a JVM runs its shutdown hooks, redis-server exits cleanly); what
 * has not exited after {@link #GRACE_MILLIS} is killed.
 *
 * <h2>Threads</h2>
 * Any thread; the set of running servers is concurrent.
 */
public final class ProcessReaper
{
    /**
     * How long a server may take to exit after SIGTERM before it is killed.
     */
    public static final long GRACE_MILLIS = 5_000;

    private static final Set<Long> RUNNING = ConcurrentHashMap.newKeySet();

    static
    {
        Runtime.getRuntime().addShutdownHook(new Thread(ProcessReaper::stopAll, "agni-loadgen-reaper"));
    }

    private ProcessReaper()
    {
    }

    /**
     * Remembers a started server so that it is stopped even if the harness fails.
     *
     * @param pid its process id.
     */
    public static void register(final long pid)
    {
        RUNNING.add(pid);
    }

    /**
     * Stops a server and forgets it; does nothing if it has already exited.
     *
     * @param pid its process id.
     */
    public static void stop(final long pid)
    {
        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        handle.ifPresent(ProcessReaper::terminate);
        RUNNING.remove(pid);
    }

    /**
     * @return the process ids of the servers started and not yet stopped.
     */
    public static Set<Long> running()
    {
        return Set.copyOf(RUNNING);
    }

    /**
     * Stops every server started and not yet stopped.
     */
    public static void stopAll()
    {
        for (final Long pid : Set.copyOf(RUNNING))
        {
            stop(pid);
        }
    }

    private static void terminate(final ProcessHandle process)
    {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try
        {
            process.onExit().get(GRACE_MILLIS, TimeUnit.MILLISECONDS);
        }
        catch (final Exception ex)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
