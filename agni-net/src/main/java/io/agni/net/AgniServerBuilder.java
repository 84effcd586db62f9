package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.api.Evicting;
import io.agni.api.EvictionPolicy;
import io.agni.protocol.ProtocolLimits;
import io.agni.protocol.command.MemoryPolicy;
import org.agrona.concurrent.EpochClock;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Configures an {@link AgniServer}. Every setter checks its own argument and says what is wrong with it;
 * {@link #build()} takes a snapshot, so the builder may be reused. Every default is a named constant.
 * <p>
 * Not thread-safe: configure on one thread.
 */
public final class AgniServerBuilder
{
    /**
     * The default bind address: the IPv4 loopback only, so a server is never reachable from the network unless
     * asked to be.
     */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";

    /**
     * The default TCP port, Redis's.
     */
    public static final int DEFAULT_PORT = 6379;

    /**
     * The default maximum number of connected clients, Redis's {@code maxclients}. The connection past it is told
     * {@code -ERR max number of clients reached} and closed.
     */
    public static final int DEFAULT_MAX_CLIENTS = 10_000;

    /**
     * The default idle timeout, 0: idle clients are never closed, as Redis's {@code timeout 0}.
     */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ZERO;

    /**
     * The default limit on one client's unprocessed input, 1 GiB, as Redis's {@code client-query-buffer-limit},
     * or {@link #maxClientMemory(long)} if that is smaller. A client whose pending command needs more is
     * disconnected.
     */
    public static final long DEFAULT_MAX_QUERY_BUFFER = 1L << 30;

    /**
     * The default limit on one client's unsent replies, 64 MiB, or {@link #maxClientMemory(long)} if that is
     * smaller: a client that sends commands but does not read their replies (or reads them too slowly) is
     * disconnected when its replies waiting to be sent would pass it. Redis has no limit for normal clients by
     * default; this one keeps the server's memory bounded. It also bounds a single reply, so raise it to serve
     * values (or MGET replies) larger than 64 MiB.
     */
    public static final long DEFAULT_MAX_OUTPUT_BUFFER = 64L << 20;

    /**
     * The most the default {@link #maxClientMemory(long)} is, 1 GiB, whatever the JVM's direct-memory limit.
     */
    public static final long DEFAULT_MAX_CLIENT_MEMORY_CAP = 1L << 30;

    /**
     * The share of the JVM's direct-memory limit the default {@link #maxClientMemory(long)} is: a quarter.
     */
    public static final int DEFAULT_MAX_CLIENT_MEMORY_DIVISOR = 4;

    /**
     * The smallest {@link #maxClientMemory(long)} accepted other than 0, 1 MiB.
     */
    public static final long MIN_CLIENT_MEMORY = 1L << 20;

    /**
     * Protected mode is on by default, as in Redis.
     */
    public static final boolean DEFAULT_PROTECTED_MODE = true;

    /**
     * The default time {@link AgniServer#close()} lets connections flush replies already computed, 2 seconds.
     */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    /**
     * The smallest {@link #maxQueryBuffer(long)} and {@link #maxOutputBuffer(long)} accepted, 1 KiB.
     */
    public static final long MIN_BUFFER_LIMIT = 1024;

    /**
     * The largest {@link #maxQueryBuffer(long)} and {@link #maxOutputBuffer(long)} accepted: a direct buffer is
     * addressed with an {@code int}.
     */
    public static final long MAX_BUFFER_LIMIT = Integer.MAX_VALUE - 8;

    /**
     * The most event-loop threads accepted.
     */
    public static final int MAX_EVENT_LOOP_THREADS = 1024;

    private final AgniStore store;
    private InetAddress bindAddress;
    private int port = DEFAULT_PORT;
    private int eventLoopThreads = defaultEventLoopThreads();
    private int maxClients = DEFAULT_MAX_CLIENTS;
    private long idleTimeoutMs = DEFAULT_IDLE_TIMEOUT.toMillis();
    private long maxQueryBuffer = DEFAULT_MAX_QUERY_BUFFER;
    private long maxOutputBuffer = DEFAULT_MAX_OUTPUT_BUFFER;
    private boolean maxQueryBufferSet;
    private boolean maxOutputBufferSet;
    private long maxClientMemory = defaultMaxClientMemory();
    private byte[] password;
    private boolean protectedMode = DEFAULT_PROTECTED_MODE;
    private ProtocolLimits protocolLimits = ProtocolLimits.DEFAULT;
    private EpochClock clock;
    private long shutdownTimeoutMs = DEFAULT_SHUTDOWN_TIMEOUT.toMillis();
    private String memoryPolicyName;

    AgniServerBuilder(final AgniStore store)
    {
        this.store = Objects.requireNonNull(store, "store");
        try
        {
            bindAddress = InetAddress.getByName(DEFAULT_BIND_ADDRESS);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("cannot parse the default bind address " + DEFAULT_BIND_ADDRESS, ex);
        }
    }

    /**
     * Returns the default number of event-loop threads: the number of available processors.
     *
     * @return the default number of event-loop threads: the number of available processors.
     */
    public static int defaultEventLoopThreads()
    {
        return Math.min(MAX_EVENT_LOOP_THREADS, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Returns the default {@link #maxClientMemory(long)}: a quarter of {@link #directMemoryLimit()}, at most {@link
     * #DEFAULT_MAX_CLIENT_MEMORY_CAP} and at least {@link #MIN_CLIENT_MEMORY}.
     *
     * @return the default {@link #maxClientMemory(long)}: a quarter of {@link #directMemoryLimit()}, at most
     * {@link #DEFAULT_MAX_CLIENT_MEMORY_CAP} and at least {@link #MIN_CLIENT_MEMORY}.
     */
    public static long defaultMaxClientMemory()
    {
        return defaultMaxClientMemory(directMemoryLimit());
    }

    /**
     * Returns the default {@link #maxClientMemory(long)} for a JVM with that limit: a quarter of it, at most {@link
     * #DEFAULT_MAX_CLIENT_MEMORY_CAP} and at least {@link #MIN_CLIENT_MEMORY}.
     *
     * @param directMemoryLimit a direct-memory limit, in bytes.
     * @return the default {@link #maxClientMemory(long)} for a JVM with that limit: a quarter of it, at most
     * {@link #DEFAULT_MAX_CLIENT_MEMORY_CAP} and at least {@link #MIN_CLIENT_MEMORY}.
     */
    public static long defaultMaxClientMemory(final long directMemoryLimit)
    {
        return Math.max(MIN_CLIENT_MEMORY,
            Math.min(DEFAULT_MAX_CLIENT_MEMORY_CAP, directMemoryLimit / DEFAULT_MAX_CLIENT_MEMORY_DIVISOR));
    }

    /**
     * The JVM's limit on direct memory, which an off-heap store's data and the server's client buffers share:
     * {@code -XX:MaxDirectMemorySize} if set, else the maximum heap size, as the JDK itself decides.
     *
     * @return the limit in bytes; the maximum heap size if the JVM does not say (no {@code jdk.management}).
     */
    public static long directMemoryLimit()
    {
        try
        {
            final long configured = HotSpotOptions.maxDirectMemorySize();
            return configured > 0 ? configured : Runtime.getRuntime().maxMemory();
        }
        catch (final LinkageError | RuntimeException ex)
        {
            return Runtime.getRuntime().maxMemory();
        }
    }

    /**
     * The address to listen on: an IP literal or a host name, resolved now. {@code "0.0.0.0"} listens on every
     * IPv4 interface; a non-loopback address exposes the server to the network, where protected mode applies.
     *
     * @param host the address, default {@value #DEFAULT_BIND_ADDRESS}.
     * @return this builder.
     * @throws IllegalArgumentException if the address cannot be resolved.
     */
    public AgniServerBuilder bindAddress(final String host)
    {
        Objects.requireNonNull(host, "host");
        try
        {
            return bindAddress(InetAddress.getByName(host));
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("bindAddress cannot be resolved: bindAddress=" + host, ex);
        }
    }

    /**
     * Returns this builder.
     *
     * @param address the address to listen on.
     * @return this builder.
     * @see #bindAddress(String)
     */
    public AgniServerBuilder bindAddress(final InetAddress address)
    {
        this.bindAddress = Objects.requireNonNull(address, "address");
        return this;
    }

    /**
     * Returns this builder.
     *
     * @param port the TCP port, 0 for one the system picks (read it with {@link AgniServer#port()} after
     *             {@link AgniServer#start()}); default {@value #DEFAULT_PORT}.
     * @return this builder.
     * @throws IllegalArgumentException if the port is not from 0 to 65535.
     */
    public AgniServerBuilder port(final int port)
    {
        checkRange("port", port, 0, 65535);
        this.port = port;
        return this;
    }

    /**
     * Returns this builder.
     *
     * @param threads the number of event-loop threads that serve connections, each with its own selector; default
     *                {@link #defaultEventLoopThreads()}.
     * @return this builder.
     * @throws IllegalArgumentException if not from 1 to {@value #MAX_EVENT_LOOP_THREADS}.
     */
    public AgniServerBuilder eventLoopThreads(final int threads)
    {
        checkRange("eventLoopThreads", threads, 1, MAX_EVENT_LOOP_THREADS);
        this.eventLoopThreads = threads;
        return this;
    }

    /**
     * Returns this builder.
     *
     * @param maxClients the most clients connected at once; default {@value #DEFAULT_MAX_CLIENTS}.
     * @return this builder.
     * @throws IllegalArgumentException if less than 1.
     */
    public AgniServerBuilder maxClients(final int maxClients)
    {
        checkRange("maxClients", maxClients, 1, Integer.MAX_VALUE);
        this.maxClients = maxClients;
        return this;
    }

    /**
     * How long a client may stay idle before it is closed: no complete command received, no reply bytes sent and
     * less than 1 KiB of a partial command received. A client that trickles a command a byte at a time is idle.
     *
     * @param timeout the timeout, {@link Duration#ZERO} for none (the default, as Redis); kept in milliseconds, a
     *                positive timeout below one millisecond counting as one.
     * @return this builder.
     * @throws IllegalArgumentException if the timeout is negative.
     */
    public AgniServerBuilder idleTimeout(final Duration timeout)
    {
        this.idleTimeoutMs = Durations.nonNegativeMillis("idleTimeout", timeout);
        return this;
    }

    /**
     * Returns this builder.
     *
     * @param bytes the most bytes one client's pending command may take, as Redis's
     *              {@code client-query-buffer-limit}; a client whose command needs more is disconnected. Default
     *              {@link #DEFAULT_MAX_QUERY_BUFFER}.
     * @return this builder.
     * @throws IllegalArgumentException if not from {@value #MIN_BUFFER_LIMIT} to {@value #MAX_BUFFER_LIMIT}.
     */
    public AgniServerBuilder maxQueryBuffer(final long bytes)
    {
        checkRange("maxQueryBuffer", bytes, MIN_BUFFER_LIMIT, MAX_BUFFER_LIMIT);
        this.maxQueryBuffer = bytes;
        this.maxQueryBufferSet = true;
        return this;
    }

    /**
     * Returns this builder.
     *
     * @param bytes the most bytes of replies one client may have waiting to be sent; a client past it is
     *              disconnected. Default {@link #DEFAULT_MAX_OUTPUT_BUFFER}.
     * @return this builder.
     * @throws IllegalArgumentException if not from {@value #MIN_BUFFER_LIMIT} to {@value #MAX_BUFFER_LIMIT}.
     */
    public AgniServerBuilder maxOutputBuffer(final long bytes)
    {
        checkRange("maxOutputBuffer", bytes, MIN_BUFFER_LIMIT, MAX_BUFFER_LIMIT);
        this.maxOutputBuffer = bytes;
        this.maxOutputBufferSet = true;
        return this;
    }

    /**
     * The most bytes the clients' buffers may hold together, as Redis 7's {@code maxmemory-clients}: every
     * connection's query and reply buffers and the event loops' scratch buffers, all direct memory. When a buffer
     * would grow past it, clients are disconnected, the one with the largest buffers first, until the growth fits;
     * if the client asking is the largest, it is the one disconnected. {@code INFO} reports the total as
     * {@code mem_clients_normal}, beside the store's {@code used_memory}, which the store's budget bounds.
     * <p>
     * Each client's {@link #maxQueryBuffer(long)} and {@link #maxOutputBuffer(long)} must not exceed it; when they
     * are left at their defaults, they are lowered to it.
     *
     * @param bytes the limit, 0 for none (Redis's default); default {@link #defaultMaxClientMemory()}, so that with
     *              an off-heap store the clients and the data fit the JVM's direct-memory limit together.
     * @return this builder.
     * @throws IllegalArgumentException if not 0 and not from {@value #MIN_CLIENT_MEMORY} to
     *                                  {@code Long.MAX_VALUE}.
     */
    public AgniServerBuilder maxClientMemory(final long bytes)
    {
        if (bytes != 0)
        {
            checkRange("maxClientMemory", bytes, MIN_CLIENT_MEMORY, Long.MAX_VALUE);
        }
        this.maxClientMemory = bytes;
        return this;
    }

    /**
     * The password clients must give with {@code AUTH} (or {@code HELLO ... AUTH}), Redis's {@code requirepass}.
     * Until a client has authenticated, only AUTH, HELLO, QUIT and RESET are served (PING gets {@code -NOAUTH}, as in
     * Redis 7) and its requests are held to at most 10 arguments and 16 KiB per bulk.
     *
     * @param password the password, UTF-8; {@code null} for none (the default).
     * @return this builder.
     * @throws IllegalArgumentException if the password is empty: an empty string, e.g. from an unset environment
     *                                  variable, is refused rather than taken to mean "no password".
     */
    public AgniServerBuilder password(final String password)
    {
        if (password != null && password.isEmpty())
        {
            throw new IllegalArgumentException("password must not be empty: pass null for none");
        }
        this.password = password == null ? null : password.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    /**
     * Protected mode, as Redis's {@code protected-mode}: when it is on and no password is set, a client that
     * connects from a non-loopback address to a server bound to a non-loopback address is sent Redis's
     * {@code -DENIED} error and disconnected.
     *
     * @param enabled whether protected mode is on; default {@value #DEFAULT_PROTECTED_MODE}.
     * @return this builder.
     */
    public AgniServerBuilder protectedMode(final boolean enabled)
    {
        this.protectedMode = enabled;
        return this;
    }

    /**
     * Returns this builder.
     *
     * @param limits the limits every request is checked against; default {@link ProtocolLimits#DEFAULT}.
     * @return this builder.
     */
    public AgniServerBuilder protocolLimits(final ProtocolLimits limits)
    {
        this.protocolLimits = Objects.requireNonNull(limits, "limits");
        return this;
    }

    /**
     * Gives the server a clock other than its store's. By default the server reads its store's own clock
     * ({@link AgniStore#currentTimeMillis()}), so an embedded server and its store agree on the time without being
     * told.
     * <p>
     * The server's clock is what {@code TIME}, {@code INFO} (server time, uptime) and {@code CLIENT LIST} (ages,
     * idle times) read, and what the overflow checks of {@code EX}, {@code PX}, {@code EXPIRE} and {@code PEXPIRE}
     * add to. Those relative times themselves always go to the store as durations ({@link
     * io.agni.api.ExpiryMode#AFTER}, {@link AgniStore#expireAfter}), which the store adds to its own clock when it
     * writes, so expiry never depends on two clocks. The server reads its clock once per read from a connection:
     * in front of a store that must ask a remote server for its time (an {@code AgniClient}), give it a local one.
     *
     * @param clock the clock to read instead of the store's.
     * @return this builder.
     */
    public AgniServerBuilder clock(final EpochClock clock)
    {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * Returns this builder.
     *
     * @param timeout how long {@link AgniServer#close()} lets connections flush replies already computed before it
     *                drops them; default {@link #DEFAULT_SHUTDOWN_TIMEOUT}. Kept in milliseconds, a positive timeout
     *                below one millisecond counting as one.
     * @return this builder.
     * @throws IllegalArgumentException if the timeout is negative.
     */
    public AgniServerBuilder shutdownTimeout(final Duration timeout)
    {
        this.shutdownTimeoutMs = Durations.nonNegativeMillis("shutdownTimeout", timeout);
        return this;
    }

    /**
     * The store's eviction policy under Redis's name, as {@code maxmemory-policy} takes it: {@code noeviction},
     * {@code allkeys-lru}, {@code allkeys-lfu}, {@code volatile-lru}, {@code volatile-lfu}, {@code allkeys-random},
     * {@code volatile-random} or {@code volatile-ttl} (the lru and lfu names map to agni's one algorithm;
     * docs/eviction.md). The store is given the policy when the server starts, and {@code CONFIG GET
     * maxmemory-policy} answers with this name until it changes. By default the store keeps the policy it has.
     *
     * @param name one of Redis's names, in any case.
     * @return this builder.
     * @throws IllegalArgumentException if the name is not one of those, or names a policy that evicts and the store
     *                                  cannot evict (it has no {@link Evicting} capability).
     */
    public AgniServerBuilder maxmemoryPolicy(final String name)
    {
        final EvictionPolicy policy = MemoryPolicy.policyOf(Objects.requireNonNull(name, "name"));
        if (policy == null)
        {
            throw new IllegalArgumentException("maxmemory-policy must be one of " +
                String.join(", ", MemoryPolicy.NAMES) + ": maxmemory-policy=" + name);
        }
        if (policy.evicts() && store.evicting().isEmpty())
        {
            throw new IllegalArgumentException("the store cannot evict (it has no Evicting capability, as " +
                "OffHeapStore has), so its only maxmemory-policy is noeviction: maxmemory-policy=" + name);
        }
        this.memoryPolicyName = name.toLowerCase(Locale.ROOT);
        return this;
    }

    /**
     * Returns a server with this configuration, not started yet.
     *
     * @return a server with this configuration, not started yet.
     * @throws IllegalArgumentException if {@link #maxQueryBuffer(long)} or {@link #maxOutputBuffer(long)} was set
     *                                  above {@link #maxClientMemory(long)}.
     */
    public AgniServer build()
    {
        return new AgniServer(config());
    }

    /**
     * @return the validated configuration {@link #build()} gives its server.
     */
    AgniServerConfig config()
    {
        final long queryLimit = perClientLimit("maxQueryBuffer", maxQueryBuffer, maxQueryBufferSet);
        final long outputLimit = perClientLimit("maxOutputBuffer", maxOutputBuffer, maxOutputBufferSet);
        return new AgniServerConfig(
            store,
            bindAddress,
            port,
            eventLoopThreads,
            maxClients,
            idleTimeoutMs,
            (int)queryLimit,
            (int)outputLimit,
            maxClientMemory,
            password == null ? null : password.clone(),
            protectedMode,
            protocolLimits,
            clock != null ? clock : store::currentTimeMillis,
            shutdownTimeoutMs,
            memoryPolicyName);
    }

    /**
     * One client's limit, consistent with the limit on all clients: a default above it is lowered to it, a value
     * set above it is refused.
     */
    private long perClientLimit(final String name, final long value, final boolean set)
    {
        if (maxClientMemory == 0 || value <= maxClientMemory)
        {
            return value;
        }
        if (set)
        {
            throw new IllegalArgumentException(name + " must not exceed maxClientMemory: " + name + "=" + value +
                ", maxClientMemory=" + maxClientMemory);
        }
        return maxClientMemory;
    }

    private static void checkRange(final String name, final long value, final long min, final long max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(
                name + " must be from " + min + " to " + max + ": " + name + "=" + value);
        }
    }

    /**
     * Reads the HotSpot option in a class of its own, so that a JVM without {@code jdk.management} fails only here,
     * with a {@link LinkageError} the caller catches.
     */
    private static final class HotSpotOptions
    {
        static long maxDirectMemorySize()
        {
            final com.sun.management.HotSpotDiagnosticMXBean bean = java.lang.management.ManagementFactory
                .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            return bean == null ? 0 : Long.parseLong(bean.getVMOption("MaxDirectMemorySize").getValue());
        }
    }
}
