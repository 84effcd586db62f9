package io.agni.net.launcher;

import io.agni.api.Durability;
import io.agni.net.AgniServer;
import io.agni.net.AgniServerBuilder;
import io.agni.protocol.command.MemoryPolicy;
import io.agni.store.OffHeapStore;
import io.agni.store.OffHeapStoreBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What the launcher runs: one {@link OffHeapStore} served by one {@link AgniServer}, opened from the command line
 * and closed in that order reversed: the server first (it stops accepting and flushes replies already computed), so
 * no command can reach the store while it closes. The store's budget and the clients' memory limit share the JVM's
 * direct memory as {@link MemoryPlan} decides, and its warnings are logged at start.
 */
final class StandaloneServer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(StandaloneServer.class);

    private final OffHeapStore store;
    private final AgniServer server;
    private final int shards;
    private final MemoryPlan memory;
    private final Path directory;
    /**
     * The policy's name from the command line, or {@code null} for the store's default.
     */
    private final String memoryPolicy;
    private final AtomicBoolean closed = new AtomicBoolean();

    private StandaloneServer(
        final OffHeapStore store, final AgniServer server, final int shards, final MemoryPlan memory,
        final Path directory, final String memoryPolicy)
    {
        this.store = store;
        this.server = server;
        this.shards = shards;
        this.memory = memory;
        this.directory = directory;
        this.memoryPolicy = memoryPolicy;
    }

    /**
     * Opens the store, configures the server and starts it.
     *
     * @param options the parsed command line.
     * @return the running server; the caller closes it.
     * @throws UsageException                 if a value is out of range or settings conflict.
     * @throws java.io.UncheckedIOException   if the address cannot be bound.
     * @throws IllegalStateException          if the JVM lacks the flag Agrona needs.
     */
    static StandaloneServer open(final LauncherOptions options) throws UsageException
    {
        return open(options, server ->
        {
        });
    }

    /**
     * Opens the store, configures the server, gives it to {@code beforeStart} and starts it.
     *
     * @param options     the parsed command line.
     * @param beforeStart given the server before it starts (tests make its threads fail here).
     * @return the running server; the caller closes it.
     * @throws UsageException        if a value is out of range or settings conflict.
     * @throws UncheckedIOException  if the address cannot be bound or the directory cannot be read or written.
     * @throws IllegalStateException if the JVM lacks the flag Agrona needs, or the directory is held by another
     *                               store or damaged; the message names the directory.
     */
    static StandaloneServer open(final LauncherOptions options, final Consumer<AgniServer> beforeStart)
        throws UsageException
    {
        final MemoryPlan memory = MemoryPlan.of(Runtime.getRuntime().maxMemory(),
            AgniServerBuilder.directMemoryLimit(), options.maxMemory, options.maxClientMemory);
        final OffHeapStoreBuilder storeBuilder = OffHeapStore.builder();
        final int shards = options.shards != null ? options.shards : OffHeapStoreBuilder.defaultShards();
        storeBuilder.shards(shards);
        final Durability durability = options.effectiveDurability();
        storeBuilder.directory(options.dir).durability(durability);
        final OffHeapStore store;
        try
        {
            store = storeBuilder.maxMemory(memory.storeBudget).build();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(
                LauncherOptions.SHARDS + "/" + LauncherOptions.MAX_MEMORY + ": " + ex.getMessage());
        }
        catch (final UncheckedIOException | IllegalStateException ex)
        {
            throw ex;
        }
        catch (final RuntimeException ex)
        {
            // The directory is held by another store (in this process or another), or its files are damaged: the
            // message names the directory, and for a holder, who holds it.
            throw new IllegalStateException(ex.getMessage(), ex);
        }
        try
        {
            final AgniServerBuilder builder = configure(AgniServer.builder(store), options);
            apply(LauncherOptions.MAX_CLIENT_MEMORY, memory.maxClientMemory, builder::maxClientMemory);
            final AgniServer server;
            try
            {
                server = builder.build();
            }
            catch (final IllegalArgumentException ex)
            {
                throw new UsageException(LauncherOptions.MAX_CLIENT_MEMORY + ": " + ex.getMessage());
            }
            beforeStart.accept(server);
            server.start();
            final StandaloneServer standalone = new StandaloneServer(
                store, server, shards, memory, options.dir, options.maxmemoryPolicy == null ? null :
                options.maxmemoryPolicy.toLowerCase(Locale.ROOT));
            standalone.logReady();
            return standalone;
        }
        catch (final UsageException | RuntimeException ex)
        {
            store.close();
            throw ex;
        }
    }

    private static AgniServerBuilder configure(final AgniServerBuilder builder, final LauncherOptions options)
        throws UsageException
    {
        apply(LauncherOptions.PORT, options.port, builder::port);
        apply(LauncherOptions.BIND, options.bind, builder::bindAddress);
        apply(LauncherOptions.THREADS, options.threads, builder::eventLoopThreads);
        apply(LauncherOptions.MAX_CLIENTS, options.maxClients, builder::maxClients);
        apply(LauncherOptions.TIMEOUT, options.timeoutSeconds,
            seconds -> builder.idleTimeout(Duration.ofSeconds(seconds)));
        apply(LauncherOptions.MAX_QUERY_BUFFER, options.maxQueryBuffer, builder::maxQueryBuffer);
        apply(LauncherOptions.MAX_OUTPUT_BUFFER, options.maxOutputBuffer, builder::maxOutputBuffer);
        apply(LauncherOptions.PROTECTED_MODE, options.protectedMode, builder::protectedMode);
        apply(LauncherOptions.REQUIREPASS, options.requirepass, builder::password);
        apply(LauncherOptions.MAXMEMORY_POLICY, options.maxmemoryPolicy, builder::maxmemoryPolicy);
        return builder;
    }

    private static <T> void apply(final String flag, final T value, final Consumer<T> setter) throws UsageException
    {
        if (value == null)
        {
            return;
        }
        try
        {
            setter.accept(value);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(flag + ": " + ex.getMessage());
        }
    }

    private void logReady()
    {
        final long budget = store.stats().budgetBytes();
        final String host = server.localAddress().getAddress().getHostAddress();
        // sizes as --help prints them and --max-memory takes them (5004mb), the same unit in both places
        LOG.info("agni-server {} ready to accept connections on {}:{}: {} shards, {} off-heap budget, " +
            "maxmemory-policy {}, {} client memory limit, durability {}, pid {}", ServerMain.version(),
            host.indexOf(':') >= 0 ? "[" + host + "]" : host, server.port(), shards, MemorySize.format(budget),
            memoryPolicy != null ? memoryPolicy : MemoryPolicy.defaultName(store.evictionPolicy()),
            MemorySize.format(memory.maxClientMemory), durabilityText(), ProcessHandle.current().pid());
        for (final String warning : memory.warnings)
        {
            LOG.warn(warning);
        }
    }

    private String durabilityText()
    {
        final String preset = store.durability().name().toLowerCase(Locale.ROOT);
        return store.durability() == Durability.NONE ? preset + " (the data is in memory only)" :
            preset + " in " + directory.toAbsolutePath();
    }

    /**
     * @return the address the server listens on.
     */
    InetSocketAddress localAddress()
    {
        return server.localAddress();
    }

    /**
     * @return the store being served.
     */
    OffHeapStore store()
    {
        return store;
    }

    /**
     * Waits until the server has stopped, by {@link #close()} (a shutdown hook's) or by a failure of its own.
     * Keeps waiting if interrupted, and then leaves the thread's interrupt status set.
     *
     * @return the failure that stopped the server, or {@code null} if it was closed.
     */
    Throwable awaitStop()
    {
        boolean interrupted = false;
        while (true)
        {
            try
            {
                server.awaitTermination();
                break;
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
        return server.failure().orElse(null);
    }

    /**
     * Closes the server, then the store. Idempotent; any thread, a shutdown hook's included.
     */
    @Override
    public void close()
    {
        if (!closed.compareAndSet(false, true))
        {
            return;
        }
        LOG.info("agni-server shutting down: closing the server on port {}", server.port());
        try
        {
            server.close();
        }
        finally
        {
            store.close();
        }
        LOG.info("agni-server stopped");
    }
}
