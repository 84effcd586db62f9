package io.agni.bench.net.cpu;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the servers and the load generator run: disjoint CPU sets by default, so that a server does not lose its CPU
 * to the load it is measured under (a single-threaded server that is preempted for a few milliseconds shows the
 * scheduler's latency, not its own).
 *
 * <h2>The default split</h2>
 * The servers get the highest-numbered half of the CPUs the harness may use (at least one), the load generator the
 * rest: on 2 CPUs, servers on CPU 1 and the generator on CPU 0. Every server the harness starts runs on the whole
 * server set (one at a time: targets are measured in turn), and a server started on k CPUs gets k event loops.
 *
 * <h2>When they share</h2>
 * With {@code --no-pin}, with a single CPU, without a {@code taskset} that may set CPUs, or when the sets given
 * overlap, the run still works; {@link #shared()} is then true and every report says that client and server shared
 * CPUs.
 *
 * @param available the CPUs the harness may use.
 * @param server    the CPUs of the servers it starts.
 * @param client    the CPUs of the load generators (its own threads, and redis-benchmark).
 * @param pinned    true if processes are really pinned (with {@code taskset}).
 * @param note      why the CPUs are shared, or null if they are not.
 */
public record CpuPlacement(CpuSet available, CpuSet server, CpuSet client, boolean pinned, String note)
{
    /**
     * @return true if a server and the load can run on the same CPU.
     */
    public boolean shared()
    {
        return !pinned || !server.disjoint(client);
    }

    /**
     * Decides the placement.
     *
     * @param available  the CPUs the harness may use.
     * @param serverText {@code --server-cpus}, or null.
     * @param clientText {@code --client-cpus}, or null.
     * @param noPin      {@code --no-pin}.
     * @param canPin     whether {@code taskset} is there to pin with.
     * @return the placement.
     * @throws IllegalArgumentException if a set given is not a CPU list or names a CPU the harness may not use.
     */
    public static CpuPlacement decide(
        final CpuSet available,
        final String serverText,
        final String clientText,
        final boolean noPin,
        final boolean canPin)
    {
        final CpuSet server = serverText == null ? null : within(CpuSet.parse(serverText), available, "--server-cpus");
        final CpuSet client = clientText == null ? null : within(CpuSet.parse(clientText), available, "--client-cpus");
        if (noPin)
        {
            return new CpuPlacement(available, available, available, false, "--no-pin: not pinned");
        }
        if (!canPin)
        {
            return new CpuPlacement(available, available, available, false,
                "taskset (Linux util-linux) is missing or may not set CPUs here: not pinned");
        }
        if (server != null && client != null)
        {
            return new CpuPlacement(available, server, client, true,
                server.disjoint(client) ? null : "--server-cpus and --client-cpus overlap");
        }
        if (server != null || client != null)
        {
            final CpuSet given = server != null ? server : client;
            final CpuSet rest = available.minus(given);
            final CpuSet other = rest != null ? rest : available;
            final String note = rest != null ? null :
                "no CPU is left for the " + (server != null ? "client" : "server");
            return server != null ?
                new CpuPlacement(available, server, other, true, note) :
                new CpuPlacement(available, other, client, true, note);
        }
        if (available.size() < 2)
        {
            return new CpuPlacement(available, available, available, false,
                "only " + available.size() + " CPU: not pinned");
        }
        final CpuSet servers = available.last(available.size() / 2);
        return new CpuPlacement(available, servers, available.minus(servers), true, null);
    }

    /**
     * @param command a server's command.
     * @return the command run on the server CPUs ({@code taskset -c LIST command...}), or as it is if not pinned.
     */
    public List<String> serverCommand(final List<String> command)
    {
        return onCpus(server, command);
    }

    /**
     * @param command a load generator's command.
     * @return the command run on the client CPUs, or as it is if not pinned.
     */
    public List<String> clientCommand(final List<String> command)
    {
        return onCpus(client, command);
    }

    /**
     * @return the placement in words, for the reports: {@code servers on CPU 1, load on CPU 0 (pinned)} or
     * {@code client and server shared CPUs 0-1 (--no-pin: not pinned)}.
     */
    public String describe()
    {
        if (shared())
        {
            return "client and server shared CPUs " + (pinned ? server + " / " + client : available.toString()) +
                " (" + note + ")";
        }
        return "servers on CPU " + server + ", load on CPU " + client + " (pinned with taskset)";
    }

    /**
     * @return a short label for a table cell: {@code 1 | 0} or {@code shared}.
     */
    public String label()
    {
        return shared() ? "shared" : server + " | " + client;
    }

    private List<String> onCpus(final CpuSet cpus, final List<String> command)
    {
        if (!pinned)
        {
            return List.copyOf(command);
        }
        final List<String> pinnedCommand = new ArrayList<>(List.of("taskset", "-c", cpus.toString()));
        pinnedCommand.addAll(command);
        return List.copyOf(pinnedCommand);
    }

    private static CpuSet within(final CpuSet set, final CpuSet available, final String flag)
    {
        if (!set.within(available))
        {
            throw new IllegalArgumentException(flag + " " + set + " names CPUs this process may not use (it may use " +
                available + ")");
        }
        return set;
    }
}
