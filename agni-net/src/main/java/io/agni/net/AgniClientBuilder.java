package io.agni.net;

import io.agni.api.StoreConnectionException;

import java.time.Duration;
import java.util.Objects;

/**
 * Configures and connects an {@link AgniClient}. Every setting has a default; {@link #build()} validates them all
 * at once and opens the first connection, so a wrong address or password fails there and not at the first call.
 * <pre>{@code
 * try (AgniClient client = AgniClient.builder().host("cache.internal").port(6380).password(secret).build())
 * {
 *     client.set(key, value);
 * }
 * }</pre>
 * Not thread-safe; a builder may build several clients.
 */
public final class AgniClientBuilder
{
    /**
     * The server's host when none is given.
     */
    public static final String DEFAULT_HOST = "localhost";

    /**
     * The server's port when none is given: Redis's.
     */
    public static final int DEFAULT_PORT = 6379;

    /**
     * The most connections open at once when not set: as many threads can call at the same time without waiting.
     */
    public static final int DEFAULT_CONNECTIONS = 8;

    /**
     * The most connections that may be asked for.
     */
    public static final int MAX_CONNECTIONS = 1024;

    /**
     * How long opening a connection may take when not set.
     */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    /**
     * How long the client waits for a reply when not set. Long enough for {@code FLUSHDB} of a large Redis
     * database, which is synchronous.
     */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);

    /**
     * The longest key or value the client sends or accepts when not set: Redis's {@code proto-max-bulk-len},
     * 512 MiB.
     */
    public static final int DEFAULT_MAX_BULK_LENGTH = ClientReplyReader.DEFAULT_MAX_BULK_LENGTH;

    private static final int LARGEST_BULK_LENGTH = Integer.MAX_VALUE - 64;

    private String host = DEFAULT_HOST;
    private int port = DEFAULT_PORT;
    private int connections = DEFAULT_CONNECTIONS;
    private int connectTimeoutMs = millis("connectTimeout", DEFAULT_CONNECT_TIMEOUT);
    private int readTimeoutMs = millis("readTimeout", DEFAULT_READ_TIMEOUT);
    private String password;
    private String clientName;
    private int maxBulkLength = DEFAULT_MAX_BULK_LENGTH;

    AgniClientBuilder()
    {
    }

    /**
     * The server's host name or address.
     *
     * @param host e.g. {@code "localhost"} or {@code "10.0.0.7"}; default {@value #DEFAULT_HOST}.
     * @return this builder.
     */
    public AgniClientBuilder host(final String host)
    {
        this.host = Objects.requireNonNull(host, "host");
        return this;
    }

    /**
     * The server's TCP port.
     *
     * @param port 1 to 65535; default {@value #DEFAULT_PORT}.
     * @return this builder.
     */
    public AgniClientBuilder port(final int port)
    {
        this.port = port;
        return this;
    }

    /**
     * The most connections open at once, i.e. the most calls in flight at once; more callers wait for a
     * connection. Connections are opened as concurrent calls need them and kept open until {@link AgniClient#close()}.
     *
     * @param connections 1 to {@value #MAX_CONNECTIONS}; default {@value #DEFAULT_CONNECTIONS}.
     * @return this builder.
     */
    public AgniClientBuilder connections(final int connections)
    {
        this.connections = connections;
        return this;
    }

    /**
     * How long opening a connection may take (TCP connect only; the handshake is bounded by the read timeout).
     *
     * @param connectTimeout 1 ms to {@code Integer.MAX_VALUE} ms, kept in whole milliseconds; default
     *                       {@link #DEFAULT_CONNECT_TIMEOUT}.
     * @return this builder.
     * @throws IllegalArgumentException if the timeout is out of range; the message names it and its value.
     */
    public AgniClientBuilder connectTimeout(final Duration connectTimeout)
    {
        this.connectTimeoutMs = millis("connectTimeout", connectTimeout);
        return this;
    }

    /**
     * How long a call waits for the server's reply before it fails with {@link StoreConnectionException} and its
     * connection is closed. Also bounds how long {@link AgniClient#close()} waits for calls in flight.
     *
     * @param readTimeout 1 ms to {@code Integer.MAX_VALUE} ms, kept in whole milliseconds; default
     *                    {@link #DEFAULT_READ_TIMEOUT}.
     * @return this builder.
     * @throws IllegalArgumentException if the timeout is out of range; the message names it and its value.
     */
    public AgniClientBuilder readTimeout(final Duration readTimeout)
    {
        this.readTimeoutMs = millis("readTimeout", readTimeout);
        return this;
    }

    /**
     * The password sent with {@code AUTH} on every new connection (Redis's {@code requirepass}).
     *
     * @param password the password, or {@code null} for none (the default).
     * @return this builder.
     */
    public AgniClientBuilder password(final String password)
    {
        this.password = password;
        return this;
    }

    /**
     * The name set with {@code CLIENT SETNAME} on every new connection, shown by {@code CLIENT LIST}.
     *
     * @param clientName printable ASCII without spaces, as Redis requires, or {@code null} for none (the default).
     * @return this builder.
     */
    public AgniClientBuilder clientName(final String clientName)
    {
        this.clientName = clientName;
        return this;
    }

    /**
     * The longest key or value the client sends (a longer one is refused with
     * {@link io.agni.api.EntryTooLargeException} before anything is sent) or accepts in a reply (a longer one is a
     * protocol error). Set it to the server's {@code proto-max-bulk-len}.
     *
     * @param maxBulkLength at least 1; default 512 MiB.
     * @return this builder.
     */
    public AgniClientBuilder maxBulkLength(final int maxBulkLength)
    {
        this.maxBulkLength = maxBulkLength;
        return this;
    }

    /**
     * Validates the settings and connects.
     *
     * @return a client with one connection open.
     * @throws IllegalArgumentException  if a setting is out of range; the message names it and its value.
     * @throws StoreConnectionException if the server cannot be reached or refuses the password or client name.
     */
    public AgniClient build()
    {
        return new AgniClient(config());
    }

    ClientConfig config()
    {
        if (host.isEmpty())
        {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("port out of range: port=" + port + ", range=1..65535");
        }
        if (connections < 1 || connections > MAX_CONNECTIONS)
        {
            throw new IllegalArgumentException(
                "connections out of range: connections=" + connections + ", range=1.." + MAX_CONNECTIONS);
        }
        if (maxBulkLength < 1 || maxBulkLength > LARGEST_BULK_LENGTH)
        {
            throw new IllegalArgumentException(
                "maxBulkLength out of range: maxBulkLength=" + maxBulkLength + ", range=1.." + LARGEST_BULK_LENGTH);
        }
        if (clientName != null && !isValidClientName(clientName))
        {
            throw new IllegalArgumentException(
                "clientName must be printable ASCII without spaces, and not empty: clientName='" + clientName + "'");
        }
        return new ClientConfig(host, port, connections, connectTimeoutMs, readTimeoutMs, password, clientName,
            maxBulkLength);
    }

    private static int millis(final String name, final Duration duration)
    {
        Objects.requireNonNull(duration, name);
        if (duration.compareTo(Duration.ofMillis(1)) < 0 || duration.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0)
        {
            throw new IllegalArgumentException(
                name + " out of range: " + name + "=" + duration + ", range=1ms.." + Integer.MAX_VALUE + "ms");
        }
        return (int)duration.toMillis();
    }

    private static boolean isValidClientName(final String name)
    {
        if (name.isEmpty())
        {
            return false;
        }
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (c < '!' || c > '~')
            {
                return false;
            }
        }
        return true;
    }
}
