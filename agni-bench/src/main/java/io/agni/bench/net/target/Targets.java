package io.agni.bench.net.target;

import io.agni.bench.net.cpu.CpuPlacement;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Makes {@link Target}s from {@link TargetSpec}s, and knows how each kind of server is started:
 * <ul>
 *   <li>agni: {@code java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED [JVM options] -jar agni-server.jar
 *   --port P [flags]}, with the JVM that runs the harness;</li>
 *   <li>redis: {@code redis-server --port P --bind 127.0.0.1 --save "" --appendonly no [flags]}: loopback only, no
 *   persistence, so it measures the same in-memory work as agni.</li>
 * </ul>
 *
 * <p>With a {@link CpuPlacement} that pins, every server runs under {@code taskset -c SERVER_CPUS} (its whole
 * process: a JVM's compiler and collector threads too), and agni gets one event loop per server CPU
 * ({@code --threads k}) unless its flags say otherwise.
 *
 * @param agniJar        agni's server jar.
 * @param agniJvmOptions options for the agni server's JVM, before {@code -jar}.
 * @param redisServer    the {@code redis-server} executable, or null if none was found.
 * @param placement      where servers run, or null to start them as they are.
 */
public record Targets(Path agniJar, List<String> agniJvmOptions, Path redisServer, CpuPlacement placement)
{
    /**
     * Where the build puts agni's server jar, relative to the repository root.
     */
    public static final String AGNI_JAR = "agni-net/target/agni-server.jar";

    /**
     * Agrona 2.x, and so agni, reads {@code jdk.internal.misc.Unsafe}.
     */
    public static final String AGRONA_OPENS = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED";

    /**
     * Copies the options.
     */
    public Targets
    {
        agniJvmOptions = List.copyOf(agniJvmOptions);
    }

    /**
     * Targets whose servers are started as they are, not pinned.
     *
     * @param agniJar        agni's server jar.
     * @param agniJvmOptions options for the agni server's JVM.
     * @param redisServer    the {@code redis-server} executable, or null.
     */
    public Targets(final Path agniJar, final List<String> agniJvmOptions, final Path redisServer)
    {
        this(agniJar, agniJvmOptions, redisServer, null);
    }

    /**
     * Makes the target.
     *
     * @param spec the target as given.
     * @return it, not yet started.
     * @throws IllegalArgumentException if it needs a server that is not there (the message says what to do).
     */
    public Target create(final TargetSpec spec)
    {
        return switch (spec.kind())
        {
            case ADDRESS -> new AddressTarget(spec);
            case AGNI ->
            {
                if (agniJar == null || !Files.isRegularFile(agniJar))
                {
                    throw new IllegalArgumentException("target " + spec.name() + ": agni's server jar not found (" +
                        (agniJar == null ? AGNI_JAR : agniJar) + "); build it with 'mvn -B -q package -DskipTests' " +
                        "or give --agni-jar");
                }
                yield new ServerTarget(spec, port -> placed(agniCommand(port, agniFlags(spec.flags()))));
            }
            case REDIS ->
            {
                if (redisServer == null)
                {
                    throw new IllegalArgumentException("target " + spec.name() + ": redis-server is not installed " +
                        "(apt-get install -y redis-server) and --redis-server was not given");
                }
                yield new ServerTarget(spec, port -> placed(redisCommand(port, spec.flags())));
            }
        };
    }

    /**
     * @param flags agni's flags as given.
     * @return them with {@code --threads k} added for k server CPUs when pinned and no thread count is given.
     */
    public List<String> agniFlags(final List<String> flags)
    {
        if (placement == null || !placement.pinned() || flags.stream().anyMatch(f -> f.startsWith("--threads")))
        {
            return flags;
        }
        final List<String> withThreads = new ArrayList<>(flags);
        withThreads.add("--threads");
        withThreads.add(Integer.toString(placement.server().size()));
        return List.copyOf(withThreads);
    }

    private List<String> placed(final List<String> command)
    {
        return placement == null ? command : placement.serverCommand(command);
    }

    /**
     * The command that starts agni's server.
     *
     * @param port  the port.
     * @param flags the server's flags.
     * @return the command.
     */
    public List<String> agniCommand(final int port, final List<String> flags)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(AGRONA_OPENS);
        command.addAll(agniJvmOptions);
        command.add("-jar");
        command.add(agniJar.toString());
        command.add("--port");
        command.add(Integer.toString(port));
        command.addAll(flags);
        return command;
    }

    /**
     * The command that starts redis-server.
     *
     * @param port  the port.
     * @param flags further flags.
     * @return the command.
     */
    public List<String> redisCommand(final int port, final List<String> flags)
    {
        final List<String> command = new ArrayList<>(List.of(redisServer.toString(), "--port", Integer.toString(port),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"));
        command.addAll(flags);
        return command;
    }

    /**
     * Finds agni's server jar: the path given, else {@link #AGNI_JAR} under the working directory, else under the
     * repository this harness's jar was built in ({@code agni-bench/target/..}).
     *
     * @param given the path from the command line, or null.
     * @return the jar found, or the first place looked if none exists (the error then names it).
     */
    public static Path locateAgniJar(final Path given)
    {
        if (given != null)
        {
            return given;
        }
        final List<Path> candidates = new ArrayList<>();
        candidates.add(Path.of(AGNI_JAR).toAbsolutePath());
        codeLocation().ifPresent(location -> candidates.add(location.resolve("../..").resolve(AGNI_JAR).normalize()));
        return candidates.stream().filter(Files::isRegularFile).findFirst().orElse(candidates.get(0));
    }

    /**
     * Finds an executable on the {@code PATH}.
     *
     * @param name its name.
     * @return its path, if found.
     */
    public static Optional<Path> onPath(final String name)
    {
        final String path = System.getenv("PATH");
        if (path == null)
        {
            return Optional.empty();
        }
        for (final String dir : path.split(File.pathSeparator))
        {
            final Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
            {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * @return the repository this harness was built in ({@code agni-bench/target/..}), if it runs from there.
     */
    public static Optional<Path> buildRepository()
    {
        return codeLocation().map(location -> location.resolve("../..").normalize())
            .filter(root -> Files.isDirectory(root.resolve("agni-bench")));
    }

    private static Optional<Path> codeLocation()
    {
        try
        {
            final Path code = Path.of(Targets.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Optional.ofNullable(code.getParent());
        }
        catch (final URISyntaxException | SecurityException | NullPointerException | IllegalArgumentException ex)
        {
            return Optional.empty();
        }
    }
}
